#!/usr/bin/env python3
"""Writes the fuzz corpora's seed files (Fuzz/Corpus/<target>/seed-*) from the project's test vectors.

Sources: string literals in Tests/InterAppTests (JSON commands and values, callback URLs), the YAML blocks of
Tests/BridgeTests/ConfigurationTests.swift, config/*.yaml, and shared/seeds/*.txt when it is beside the
repository (callback URLs from Viva's pages). Re-running it rewrites the seed-* files only; files that
libFuzzer added to a corpus are left alone. Usage: Fuzz/Seed/seed-corpora.py (from anywhere).
"""
import hashlib
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "Fuzz" / "Corpus"
LIMIT = 120  # seeds per target at most: the corpora stay small


def swift_literals(text):
    """Raw (#"..."#) and plain ("...") single-line Swift string literals, unescaped as far as fuzzing needs."""
    found = [m.group(1) for m in re.finditer(r'#"(.*?)"#', text)]
    for m in re.finditer(r'(?<!#)"((?:[^"\\\n]|\\.)*)"(?!#)', text):
        value = m.group(1).replace('\\"', '"').replace("\\\\", "\\").replace("\\n", "\n").replace("\\t", "\t")
        if "\\(" not in value:
            found.append(value)
    return found


def multiline_blocks(text):
    blocks = re.findall(r'"""\n(.*?)\n\s*"""', text, re.S)
    out = []
    for block in blocks:
        lines = block.split("\n")
        indent = min((len(l) - len(l.lstrip(" ")) for l in lines if l.strip()), default=0)
        out.append("\n".join(l[indent:] for l in lines) + "\n")
    return out


def write(target, values):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("seed-*"):
        old.unlink()
    unique = sorted(set(values))[:LIMIT]
    for value in unique:
        data = value.encode("utf-8")
        (folder / ("seed-" + hashlib.sha1(data).hexdigest()[:16])).write_bytes(data)
    print(f"{target}: {len(unique)} seeds")


tests = ROOT / "Tests" / "InterAppTests"
literals = [lit for path in sorted(tests.glob("*.swift")) for lit in swift_literals(path.read_text())]
json_like = [lit for lit in literals if lit[:1] in "{[" or lit in ("null", "true", "false") or re.fullmatch(r"-?\d[\d.eE+-]*", lit)]
commands = [lit for lit in json_like if lit.startswith("{")]
urls = [lit for lit in literals if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", lit)]

shared = ROOT.parent / "shared" / "seeds"
if not shared.is_dir():
    shared = ROOT / "shared" / "seeds"
if shared.is_dir():
    for path in sorted(shared.glob("*.txt")):
        urls += re.findall(r"[A-Za-z][A-Za-z0-9+.-]*://result\?[^'\"\n]*", path.read_text(errors="replace"))
callbacks = [u for u in urls if "?" in u and not u.lower().startswith("vivapayclient")]

configs = [p.read_text() for p in sorted((ROOT / "config").glob("*.yaml"))]
config_tests = (ROOT / "Tests" / "BridgeTests" / "ConfigurationTests.swift").read_text()
configs += multiline_blocks(config_tests)
configs += [lit for lit in swift_literals(config_tests) if ":" in lit and "\n" in lit]
bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
for level in range(1, 10):
    bomb += f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 10)}]\n"
configs.append(bomb)

write("CommandDecoder", commands)
write("JSONParser", json_like)
write("CallbackParser", callbacks)
write("ConfigLoader", configs)
