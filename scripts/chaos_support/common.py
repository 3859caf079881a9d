"""What both chaos runs share: pyzmq, the ports, the sale deadline, the simulator's record of request URLs and
the shape of the summary."""
import os
import random
import socket
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:
    import zmq
except ImportError:
    subprocess.run([os.path.join(ROOT, "scripts", "setup-deps")], check=True)
    try:
        import zmq
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--break-system-packages", "pyzmq"],
                       check=True)
        import zmq

SALE_TIMEOUT_MS = 4000
FINAL = "final"


def free_port():
    """A free port below the kernel's ephemeral range: the bridge binds the same ports at every restart, and
    a port from the ephemeral range can meanwhile be taken by any outgoing connection on the machine (a
    restart after 200 kills once failed so: "address already in use")."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as ranges:
            ephemeral_low = int(ranges.read().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral_low = 32768
    low = max(1024, ephemeral_low - 12000)
    for _ in range(200):
        port = random.SystemRandom().randrange(low, ephemeral_low)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


def recorded_requests(path):
    """The simulator's record (`simulate --record`): one (lane, reference, clientTransactionId, url) a request."""
    requests = []
    with open(path) as lines:
        for line in lines:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 4:
                requests.append(tuple(parts[:4]))
    return requests


def repeated_references(requests):
    """(b): each (lane, reference) whose URL reached the relay more than once, with its count."""
    seen = {}
    for lane, ref, _, _ in requests:
        seen[(lane, ref)] = seen.get((lane, ref), 0) + 1
    return [(lane, ref, count) for (lane, ref), count in sorted(seen.items()) if count > 1]


def report(title, parts, violations, before):
    """Prints the run's summary, `<title>: ` then `parts` joined by commas, then the first 25 violations of the
    results and the first 25 of the checks from `before` on; the exit status: 1 on any violation, else 0."""
    print(f"{title}: " + ", ".join(parts))
    for violation in violations[:25] + violations[before:before + 25]:
        print(f"violation: {violation}")
    return 1 if violations else 0


def outcome_counts(outcomes):
    """The outcomes counted, as the summary prints them: a dict by name, in order."""
    return dict(sorted((str(k), v) for k, v in outcomes.items()))
