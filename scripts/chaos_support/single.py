"""The single-bridge run of scripts/chaos: one bridge on a SQLite journal, SIGKILLed and restarted in place."""
import json
import os
import random
import signal
import subprocess
import time

from .common import (FINAL, SALE_TIMEOUT_MS, free_port, outcome_counts, recorded_requests, repeated_references,
                     report, zmq)


class Chaos:
    def __init__(self, args, binary, workdir):
        self.args = args
        self.binary = binary
        self.workdir = workdir
        self.rng = random.Random(args.seed)
        self.journal = os.path.join(workdir, "journal.sqlite")
        self.record = os.path.join(workdir, "requests.tsv")
        self.config = os.path.join(workdir, "bridge.yaml")
        self.bridge_log = open(os.path.join(workdir, "bridge.log"), "ab")
        self.context = zmq.Context()
        self.sock = None
        self.bridge = None
        self.simulator = None
        self.lanes = [f"lane-{i}" for i in range(1, args.lanes + 1)]
        self.counter = {lane: 0 for lane in self.lanes}
        self.commands = {}        # id -> command
        self.in_flight = {}       # lane -> id sent, no reply yet
        self.acknowledged = {}    # id -> reply the client got (not rejected)
        self.unchecked = []       # ids acknowledged since the last restart check
        self.outcomes = {}
        self.rejected = 0
        self.resent = 0
        self.violations = []
        self.kills = 0
        self.final_outcomes = {}  # id -> the outcome `status` read from the journal at the last check

    # -- processes

    def start_simulator(self):
        self.simulator = subprocess.Popen(
            [self.binary, "simulate", "--lanes", str(self.args.lanes), "--base-port", "0", "--platform", "mixed",
             "--card-ms", str(self.args.card_ms), "--host-ms", str(self.args.host_ms), "--record", self.record],
            stdout=subprocess.PIPE, stderr=self.bridge_log)
        endpoints = {}
        while len(endpoints) < self.args.lanes:
            line = self.simulator.stdout.readline().decode()
            if not line:
                raise RuntimeError("the simulator ended before printing its lanes")
            lane, endpoint, platform = line.split()
            endpoints[lane] = (endpoint, platform)
        return endpoints

    def write_config(self, endpoints):
        self.command_endpoint = f"tcp://127.0.0.1:{free_port()}"
        lines = [
            f"command: {self.command_endpoint}",
            f"events: tcp://127.0.0.1:{free_port()}",
            f"commandPull: tcp://127.0.0.1:{free_port()}",
            f"journal: {self.journal}",
        ] + self.terminal_and_lanes(endpoints)
        with open(self.config, "w") as out:
            out.write("\n".join(lines) + "\n")

    def terminal_and_lanes(self, endpoints):
        """The configuration's `terminal` and `lanes`: the simulator's lanes at the endpoints it printed."""
        lines = [
            "terminal:",
            "  merchantKey: chaos-merchant-key",
            "  appId: com.example.chaos",
            "  callback: interapp-callback",
            "lanes:",
        ]
        for lane in self.lanes:
            endpoint, platform = endpoints[lane]
            lines.append(f"  - {{id: {lane}, endpoint: \"{endpoint}\", platform: {platform}}}")
        return lines

    def start_bridge(self):
        self.bridge = subprocess.Popen([self.binary, "run", "--config", self.config],
                                       stdout=self.bridge_log, stderr=self.bridge_log)
        self.new_socket()
        deadline = time.monotonic() + 60
        n = 0
        while time.monotonic() < deadline:
            if self.bridge.poll() is not None:
                raise RuntimeError(f"the bridge exited {self.bridge.returncode} at start (see bridge.log)")
            n += 1
            reply = self.query({"id": f"ping-{self.kills}-{n}", "action": "ping"}, timeout_ms=200)
            if reply is not None:
                return
        raise RuntimeError("the bridge did not answer ping within 60 s")

    def kill_bridge(self):
        self.bridge.send_signal(signal.SIGKILL)
        self.bridge.wait()
        self.kills += 1

    def new_socket(self):
        if self.sock is not None:
            self.sock.close(linger=0)
        self.sock = self.context.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(self.command_endpoint)

    # -- messages

    def send(self, command):
        self.sock.send_multipart([b"", json.dumps(command).encode()])

    def receive(self, timeout_ms):
        if not self.sock.poll(timeout_ms):
            return None
        return json.loads(self.sock.recv_multipart()[-1])

    def query(self, command, timeout_ms=5000):
        """Sends a query and returns its reply; terminal replies arriving meanwhile are handled."""
        self.send(command)
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            left = int((deadline - time.monotonic()) * 1000)
            if left <= 0:
                return None
            reply = self.receive(left)
            if reply is None:
                return None
            if reply.get("id") == command["id"]:
                return reply
            self.take(reply)

    def take(self, reply):
        """A reply to a sale: acknowledged (or rejected), and its lane is free for the next sale."""
        ident = reply.get("id")
        command = self.commands.get(ident)
        if command is None or self.in_flight.get(command["lane"]) != ident:
            return  # a duplicate reply to a re-sent command, or a query's
        del self.in_flight[command["lane"]]
        outcome = reply.get("outcome")
        label = f"rejected {(reply.get('error') or {}).get('code')}" if outcome == "rejected" else outcome
        self.outcomes[label] = self.outcomes.get(label, 0) + 1
        if outcome == "rejected":
            self.rejected += 1
            return
        if ident in self.acknowledged and self.acknowledged[ident].get("outcome") != outcome:
            self.violations.append(f"{ident}: answered {self.acknowledged[ident].get('outcome')}, then {outcome}")
        self.acknowledged.setdefault(ident, reply)
        self.unchecked.append(ident)

    def next_sale(self, lane):
        self.counter[lane] += 1
        ident = f"chaos-{lane}-{self.counter[lane]}"
        amount = self.rng.randrange(100, 50000)
        if self.rng.random() < 0.15:
            amount = amount // 100 * 100 + self.rng.choice((51, 52, 53))
        command = {"id": ident, "lane": lane, "action": "sale", "amount": amount, "clientTransactionId": ident,
                   "timeoutMs": SALE_TIMEOUT_MS}
        self.commands[ident] = command
        self.in_flight[lane] = ident
        self.send(command)

    # -- the run

    def load(self, seconds):
        end = time.monotonic() + seconds
        while True:
            for lane in self.lanes:
                if lane not in self.in_flight:
                    self.next_sale(lane)
            left = end - time.monotonic()
            if left <= 0:
                return
            reply = self.receive(int(left * 1000) + 1)
            if reply is not None:
                self.take(reply)

    def resend(self):
        """After a restart: every sale without a reply goes again under its own id."""
        for lane, ident in self.in_flight.items():
            self.resent += 1
            self.send(self.commands[ident])

    def check(self, idents):
        """(a): each acknowledged result is final in the journal with the same outcome."""
        for ident in idents:
            acked = self.acknowledged[ident]
            reply = self.query({"id": f"status-{ident}-{self.kills}", "action": "status", "ref": ident})
            if reply is None:
                self.violations.append(f"{ident}: no answer to status")
                continue
            result = reply.get("result") or {}
            stored = result.get("reply") or {}
            self.final_outcomes[ident] = stored.get("outcome")
            if result.get("state") != FINAL:
                self.violations.append(f"{ident}: acknowledged {acked.get('outcome')}, status state "
                                       f"{result.get('state')}")
            elif stored.get("outcome") != acked.get("outcome") and not (
                    acked.get("outcome") == "unknown" and stored.get("late")):
                self.violations.append(f"{ident}: acknowledged {acked.get('outcome')}, status says "
                                       f"{stored.get('outcome')}")
            elif stored.get("outcome") == acked.get("outcome") and stored.get("result") != acked.get("result"):
                self.violations.append(f"{ident}: the stored result differs from the one acknowledged")

    def check_record(self):
        """(b): no reference reached a relay twice."""
        requests = recorded_requests(self.record)
        for lane, ref, count in repeated_references(requests):
            self.violations.append(f"{ref}: its URL reached {lane}'s relay {count} times")
        return len(requests)

    def run(self):
        started = time.monotonic()
        endpoints = self.start_simulator()
        self.write_config(endpoints)
        self.start_bridge()
        while self.kills < self.args.kills:
            self.load(self.rng.uniform(self.args.min_up, self.args.max_up))
            self.kill_bridge()
            if self.args.sabotage_journal:
                # Every journal file, the lock, identity and position too: a journal deleted alone is refused at start
                # (docs/RELIABILITY.md, "A journal emptied, missing or replaced").
                for suffix in ("", "-wal", "-shm", ".lock", ".identity", ".position"):
                    if os.path.exists(self.journal + suffix):
                        os.remove(self.journal + suffix)
            checking, self.unchecked = self.unchecked, []
            self.start_bridge()
            self.check(checking)
            self.resend()
            if self.kills % 10 == 0 or self.kills == self.args.kills:
                print(f"chaos: {self.kills} kills, {len(self.acknowledged)} sales acknowledged, "
                      f"{len(self.violations)} violations", flush=True)
        # Let the last sales finish, then one more crash and every acknowledged result checked.
        end = time.monotonic() + SALE_TIMEOUT_MS / 1000 + 10
        while self.in_flight and time.monotonic() < end:
            reply = self.receive(200)
            if reply is not None:
                self.take(reply)
        self.kill_bridge()
        self.kills -= 1  # the closing kill only makes the final check see the journal as a restart does
        self.start_bridge()
        self.check(sorted(self.acknowledged))
        self.bridge.send_signal(signal.SIGTERM)
        self.bridge.wait(timeout=30)
        self.simulator.send_signal(signal.SIGTERM)
        self.simulator.wait(timeout=30)
        before = len(self.violations)
        requests = self.check_record()
        repeated = len(self.violations) - before
        seconds = time.monotonic() - started
        return report("chaos summary", [
            f"kills {self.kills}", f"sales acknowledged {len(self.acknowledged)}",
            f"outcomes {outcome_counts(self.outcomes)}", f"re-sent after a kill {self.resent}",
            f"still unanswered {len(self.in_flight)}", f"requests at the relays {requests}",
            f"violations {len(self.violations)} ({len(self.violations) - repeated} results, "
            f"{repeated} repeated requests)", f"seconds {seconds:.0f}",
        ], self.violations, before)

    def cleanup(self):
        for process in (self.bridge, self.simulator):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
        if self.sock is not None:
            self.sock.close(linger=0)
        self.context.term()
