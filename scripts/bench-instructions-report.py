#!/usr/bin/env python3
"""Reads scripts/bench-instructions' callgrind files (one a thread: --separate-threads=yes) and prints
instructions a sale by journal mode and thread, the median over the runs, then each mode's top functions;
with --check judges each row against the baseline, with --update writes it. See scripts/bench-instructions."""
import argparse, collections, glob, json, os, re, statistics, subprocess, sys

# Which thread a callgrind file is: the first rule whose function (a substring of its demangled name) the thread
# ran. The bridge's threads run Swift of their own; libzmq's I/O and reaper threads only libzmq and libc.
THREAD_RULES = [
    ("loop", "BridgeLoop.run()"),
    ("checkpointer", "JournalCheckpointer."),
    ("writer", "JournalWriter.run("),
    ("bench echo relay", "EchoRelay.run("),
    ("bench client", "InstructionWorkload.run("),
]
# The rows the baseline judges (and whose functions are listed): the bridge's threads whose instructions a sale do
# not depend on timing. The checkpointer's do: it runs on a 1 s timer, so its share of the counted window varies
# with how fast valgrind ran (printed, not judged). The bench's own threads are printed for context.
JUDGED_ROWS = ["loop", "writer", "zmq I/O"]


def parse(path):
    """Self instructions by function and the objects each function is in, of one callgrind file."""
    names, objects = {}, {}
    cost = collections.Counter()
    fn_object = {}
    positions, fn, ob, skip = 1, None, None, False

    def resolve(table, text):
        match = re.match(r"\((\d+)\)(?:\s+(.*))?$", text)
        if not match:
            return text
        if match.group(2) is not None:
            table[match.group(1)] = match.group(2)
        return table.get(match.group(1), text)

    with open(path, errors="replace") as lines:
        for line in lines:
            line = line.rstrip("\n")
            if not line:
                continue
            head = line[0]
            if head.isdigit() or head in "+-*":
                if skip:
                    skip = False
                    continue
                parts = line.split()
                if len(parts) > positions and fn is not None:
                    cost[fn] += int(parts[positions])
            elif line.startswith("fn="):
                fn = resolve(names, line[3:])
                fn_object.setdefault(fn, ob)
            elif line.startswith("cfn="):
                resolve(names, line[4:])
            elif line.startswith("ob="):
                ob = resolve(objects, line[3:])
            elif line.startswith("cob="):
                resolve(objects, line[4:])
            elif line.startswith("calls="):
                skip = True
            elif line.startswith("positions:"):
                positions = len(line.split()) - 1
    return cost, fn_object


def classify(cost, fn_object, names, benchfirst, tid):
    if sum(cost.values()) == 0:
        return None
    for row, marker in THREAD_RULES:
        if any(marker in names.get(name, name) for name in fn_object):
            return row
    swift = any(name.startswith("$s") for name in fn_object)
    zmq = any("libzmq" in (fn_object.get(name) or "") for name in fn_object)
    if zmq and not swift:
        # The bench's own context starts its threads first (valgrind threads 2 and 3), the bridge's later.
        return "bench zmq I/O" if benchfirst and tid in (2, 3) else "zmq I/O"
    return "other"


def demangle_all(names, command):
    """{mangled: readable} for Swift's names (`swift demangle --simplified`); others as they are."""
    swift = sorted(name for name in names if name.startswith("$s"))
    readable = {name: name for name in names}
    if swift and command != "cat":
        result = subprocess.run(command.split(), input="\n".join(swift) + "\n", capture_output=True, text=True)
        out = result.stdout.split("\n")
        if result.returncode == 0 and len(out) >= len(swift):
            readable.update(zip(swift, out))
    return readable


def read_runs(work, command):
    """{(sync, run): {row: instructions a sale}}, {(sync, run): Counter of function -> instructions}, sales a run."""
    parsed, sales = [], None
    for folder in sorted(glob.glob(os.path.join(work, "normal-*")) + glob.glob(os.path.join(work, "full-*"))):
        sync, run = os.path.basename(folder).rsplit("-", 1)
        out = open(os.path.join(folder, "out.txt")).read()
        match = re.search(r"(\d+) counted sales, (\d+) approved", out)
        if not match:
            sys.exit(f"bench-instructions: no workload line in {folder}/out.txt")
        if "valgrind yes" not in out:
            sys.exit("bench-instructions: the workload did not see valgrind (no counted window)")
        sales = int(match.group(1))
        benchfirst = "bench context threads first yes" in out
        for path in sorted(glob.glob(os.path.join(folder, "callgrind.out-*"))):
            tid = int(path.rsplit("-", 1)[1])
            parsed.append((sync, int(run), tid, benchfirst) + parse(path))
    names = demangle_all({name for entry in parsed for name in entry[5]}, command)
    rows, functions = collections.defaultdict(collections.Counter), collections.defaultdict(collections.Counter)
    seen = collections.Counter()
    for sync, run, tid, benchfirst, cost, fn_object in parsed:
        row = classify(cost, fn_object, names, benchfirst, tid)
        if row is None:
            continue
        seen[(sync, run, row)] += 1
        rows[(sync, run)][row] += sum(cost.values()) / sales
        if row in JUDGED_ROWS:
            for name, value in cost.items():
                label = names.get(name, name)
                if label.startswith("0x"):
                    label = f"{os.path.basename(fn_object.get(name) or '?')} {label}"
                functions[(sync, run)][label] += value
    for (sync, run, row), count in seen.items():
        if count > 1 and row != "other":
            print(f"bench-instructions: note: {count} threads counted as {sync}, {row} (run {run})", file=sys.stderr)
    return rows, functions, sales


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["print", "check", "update"], default="print")
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--demangle", default="cat")
    args = parser.parse_args()
    runs, functions, sales = read_runs(args.work, args.demangle)

    medians = {}
    for (sync, _), rows in runs.items():
        for row in rows:
            key = f"{sync}, {row}"
            if key in medians:
                continue
            values = [runs[k].get(row, 0) for k in sorted(runs) if k[0] == sync]
            medians[key] = (statistics.median(values), min(values), max(values), len(values))

    base = {}
    if os.path.exists(args.baseline):
        base = json.load(open(args.baseline))
    judged = base.get("rows", {})
    tolerances = base.get("tolerances", {})
    default_tolerance = base.get("tolerance", 0.03)
    print(f"Instructions a sale (callgrind, {sales} counted sales, median of {args.runs} run(s)):")
    print(f"  {'row':<34} {'median':>10} {'min':>10} {'max':>10} {'spread':>7} {'baseline':>10} {'ratio':>7}")
    failures = []
    order = lambda key: (key.split(", ")[0] != "normal", key)
    for key in sorted(medians, key=order):
        median, low, high, count = medians[key]
        spread = (high - low) / median * 100 if median else 0
        line = f"  {key:<34} {median:>10,.0f} {low:>10,.0f} {high:>10,.0f} {spread:>6.1f}%"
        if key in judged:
            ratio = median / judged[key]
            tolerance = tolerances.get(key, default_tolerance)
            verdict = "ok" if ratio <= 1 + tolerance else f"ABOVE +{tolerance * 100:.0f}%"
            line += f" {judged[key]:>10,.0f} {ratio:>7.3f} {verdict}"
            if ratio > 1 + tolerance:
                failures.append(f"{key}: {median:,.0f} against {judged[key]:,.0f} ({ratio:.3f}x)")
        print(line)
    for key in judged:
        if key not in medians:
            failures.append(f"{key}: no such row in this run")

    for sync in ("normal", "full"):
        total = collections.Counter()
        for (mode, _), counter in functions.items():
            if mode == sync:
                total.update(counter)
        print(f"Top functions, journal {sync}, of {', '.join(JUDGED_ROWS)} (instructions a sale, self):")
        for name, value in total.most_common(10):
            print(f"  {value / sales / max(1, args.runs):>9,.0f}  {name[:140]}")

    if args.mode == "update":
        rows = {key: round(medians[key][0]) for key in sorted(medians, key=order) if key.split(", ")[1] in JUDGED_ROWS}
        base.update({"sales": sales, "rows": rows})
        base.setdefault("tolerance", default_tolerance)
        with open(args.baseline, "w") as out:
            json.dump(base, out, indent=2)
            out.write("\n")
        print(f"bench-instructions: wrote {args.baseline}")
    if args.mode == "check":
        if not judged:
            sys.exit(f"bench-instructions: no baseline rows in {args.baseline} (run --update)")
        for failure in failures:
            print("FAILED: " + failure)
        if failures:
            sys.exit(1)
        print(f"bench-instructions: every row within its tolerance of {args.baseline}")


main()
