"""The standby run of scripts/chaos (`--standby`): two bridges on one PostgreSQL journal, the active one SIGKILLed
(or, with `--signal TERM`, stopped gracefully, with `--signal STOP` paused past its lease, with `--signal
PARTITION` cut off from PostgreSQL by its proxy, with `--signal MIX` one of KILL, STOP and PARTITION at random
each time) under closed-loop sales, the other taking over (docs/RELIABILITY.md, "Standby takeover (chaos)").

The client holds both command endpoints the Lazy Pirate way: one DEALER socket a bridge, each with ZMQ_IMMEDIATE
(nothing queues for an endpoint nobody has bound: the standby binds none), every command sent to a socket that
has a peer, and a sale with no reply within `--retry-ms` sent again under the same id to the other bridge (or,
when only one has a peer, to that one). The harness finds the active bridge by its `/readyz` role, never by
what it did itself."""
import http.client
import json
import os
import signal
import subprocess
import time

from .common import (SALE_TIMEOUT_MS, free_port, outcome_counts, recorded_requests, repeated_references, report,
                     zmq)
from .postgres import PostgresCluster
from .proxy import PartitionProxy
from .single import Chaos

TAKEOVER_WAIT_S = 60
MIXED_FAULTS = ("KILL", "STOP", "PARTITION")
SHUTDOWN_RETRY_S = 0.1
JOURNAL_TABLES = ("command_log", "outcome_log", "callbacks", "batches")


class Bridge:
    """One of the two bridges: its `instance` name, configuration, ports, process and the client's socket to it."""

    def __init__(self, name, workdir, log):
        self.name = name
        self.config = os.path.join(workdir, f"bridge-{name}.yaml")
        self.command_endpoint = f"tcp://127.0.0.1:{free_port()}"
        self.events_endpoint = f"tcp://127.0.0.1:{free_port()}"
        self.pull_endpoint = f"tcp://127.0.0.1:{free_port()}"
        self.http_port = free_port()
        self.log = log
        self.process = None
        self.sock = None
        self.proxy = None  # its way to PostgreSQL, which a partition cuts

    def write_config(self, journal, lease_ms, terminal_and_lanes):
        lines = [
            f"instance: {self.name}",
            f"command: {self.command_endpoint}",
            f"events: {self.events_endpoint}",
            f"commandPull: {self.pull_endpoint}",
            f"http: 127.0.0.1:{self.http_port}",
            f"journal: {journal}",
        ]
        if lease_ms is not None:
            lines.append(f"leaseMs: {lease_ms}")
        with open(self.config, "w") as out:
            out.write("\n".join(lines + terminal_and_lanes) + "\n")

    def start(self, binary):
        self.log.write(f"== chaos: starting bridge {self.name}\n".encode())
        self.log.flush()
        self.process = subprocess.Popen([binary, "run", "--config", self.config], stdout=self.log, stderr=self.log)

    def stop(self, number):
        """Sends `number`; SIGKILL is waited for, SIGTERM's graceful shutdown and SIGSTOP's pause are not (the load
        goes on)."""
        self.process.send_signal(number)
        if number == signal.SIGKILL:
            self.process.wait()
        self.log.write(f"== chaos: bridge {self.name} sent {signal.Signals(number).name}\n".encode())
        self.log.flush()

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def readyz(self):
        """`/readyz`: (status, its JSON body), or None while nothing answers on the HTTP port."""
        connection = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=2)
        try:
            connection.request("GET", "/readyz")
            response = connection.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException):
            return None
        finally:
            connection.close()
        try:
            return response.status, json.loads(body)
        except ValueError:
            return response.status, {}

    def role(self):
        """"active" (200 with role active), "standby" (503 with role standby), another word, or None."""
        answer = self.readyz()
        if answer is None:
            return None
        status, body = answer
        role = body.get("role")
        if status == 200 and role == "active":
            return "active"
        if status == 503 and role == "standby":
            return "standby"
        return f"{status} {role or body.get('status') or '-'}"


def median(values):
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2] if ordered else None


class StandbyChaos(Chaos):
    def __init__(self, args, binary, workdir):
        super().__init__(args, binary, workdir)
        self.cluster = PostgresCluster()
        self.bridges = [Bridge(name, workdir, self.bridge_log) for name in ("a", "b")]
        self.retry_s = args.retry_ms / 1000
        self.serving = None       # the bridge whose socket answered last
        self.sent = {}            # sale id -> (monotonic time, bridge) of its last sending
        self.unsent = []          # commands waiting for a socket with a peer
        self.kill_time = None     # the last kill, while its successor has not answered yet
        self.successor = None
        self.takeovers_ready = []  # kill -> the other bridge's /readyz 200 (role active), s
        self.takeovers_reply = []  # kill -> the first reply from the other bridge, s
        self.two_active = 0
        self.slow_takeovers = 0
        self.shutting_down = 0    # sales rejected shutting_down (SIGTERM), sent again under their id
        self.resumed_standby = 0  # paused bridges (SIGSTOP) that went back to standby once resumed
        self.resumed_exited = 0   # paused bridges that exited once resumed
        self.faults = {}          # fault -> how many times the active bridge met it
        self.lost = 0             # sales the terminal approved whose journal says unknown at the end
        self.closing = False      # the closing takeover: no new sales

    # -- processes

    def start_bridges(self, endpoints):
        self.cluster.start()
        lines = self.terminal_and_lanes(endpoints)
        for bridge in self.bridges:
            bridge.proxy = PartitionProxy(self.cluster.port)
            bridge.write_config(self.cluster.url_via(bridge.proxy.port), self.args.lease_ms, lines)
        first, second = self.bridges
        first.start(self.binary)
        self.await_role(first, "active", "the first bridge did not become active")
        second.start(self.binary)
        self.await_role(second, "standby", "the second bridge did not come up as standby")
        for bridge in self.bridges:
            bridge.sock = self.context.socket(zmq.DEALER)
            bridge.sock.setsockopt(zmq.LINGER, 0)
            bridge.sock.setsockopt(zmq.IMMEDIATE, 1)
            bridge.sock.connect(bridge.command_endpoint)

    def await_role(self, bridge, role, failure):
        """Turns the load (if it runs) until `bridge`'s /readyz says `role`; RuntimeError after TAKEOVER_WAIT_S."""
        deadline = time.monotonic() + TAKEOVER_WAIT_S
        seen = None
        while time.monotonic() < deadline:
            if not bridge.alive():
                raise RuntimeError(f"{failure}: bridge {bridge.name} exited {bridge.process.returncode}; the end "
                                   f"of bridge.log:\n{self.log_tail()}")
            seen = bridge.role()
            if seen == role:
                return time.monotonic()
            self.pump(0.05)
        raise RuntimeError(f"{failure}: bridge {bridge.name}'s /readyz still says {seen} after {TAKEOVER_WAIT_S} s "
                           f"(a vivabridge without the standby roles answers no role)")

    def log_tail(self, lines=5):
        with open(self.bridge_log.name, "rb") as log:
            return "\n".join(log.read().decode(errors="replace").splitlines()[-lines:])

    def active_bridge(self):
        """The bridge whose /readyz says active; two at once is a violation (the later-started one is killed)."""
        deadline = time.monotonic() + TAKEOVER_WAIT_S
        while time.monotonic() < deadline:
            active = [bridge for bridge in self.bridges if bridge.role() == "active"]
            if len(active) > 1:
                self.two_active += 1
                self.violations.append(f"kill {self.kills + 1}: both bridges' /readyz say active")
            if active:
                return active[-1]
            self.pump(0.05)
        raise RuntimeError(f"no bridge's /readyz said active for {TAKEOVER_WAIT_S} s")

    def kill_active(self):
        victim = self.active_bridge()
        self.kill_time = time.monotonic()
        self.successor = next(bridge for bridge in self.bridges if bridge is not victim)
        fault = self.args.signal if self.args.signal != "MIX" else self.rng.choice(MIXED_FAULTS)
        self.faults[fault] = self.faults.get(fault, 0) + 1
        stop = None if fault == "PARTITION" else signal.Signals["SIG" + fault]
        if stop is None:
            victim.proxy.partition()
            self.bridge_log.write(f"== chaos: bridge {victim.name} cut off from PostgreSQL\n".encode())
            self.bridge_log.flush()
        else:
            victim.stop(stop)
        self.kills += 1
        if self.args.sabotage_journal:
            self.cluster.psql(f"TRUNCATE {', '.join(JOURNAL_TABLES)}")
        ready = self.await_role(self.successor, "active", f"no takeover after kill {self.kills}")
        self.takeovers_ready.append(ready - self.kill_time)
        limit = self.args.takeover_limit
        if limit is not None and ready - self.kill_time > limit:
            self.slow_takeovers += 1
            self.violations.append(f"kill {self.kills}: bridge {self.successor.name}'s /readyz said active "
                                   f"{ready - self.kill_time:.1f} s after the kill (limit {limit} s)")
        if stop == signal.SIGSTOP:
            self.resume(victim)
        elif stop is None:
            victim.proxy.heal()
            self.resume(victim, signal_sent=False)
        deadline = time.monotonic() + TAKEOVER_WAIT_S
        while victim.alive() and time.monotonic() < deadline:
            self.pump(0.05)
        if victim.alive():
            raise RuntimeError(f"bridge {victim.name} had not ended {TAKEOVER_WAIT_S} s after {fault}")
        victim.start(self.binary)
        self.await_role(victim, "standby", f"bridge {victim.name} did not come back as standby")

    def resume(self, victim, signal_sent=True):
        """SIGCONT to a bridge paused past its lease (or, `signal_sent` False, the end of its partition): it must go
        back to standby in its process, or exit, and its /readyz must never say active beside its successor; then it
        is stopped and restarted like a killed one."""
        resumed = time.monotonic()
        if signal_sent:
            victim.process.send_signal(signal.SIGCONT)
        last_active = None
        deadline = resumed + TAKEOVER_WAIT_S
        while victim.alive() and time.monotonic() < deadline:
            role = victim.role()
            if role == "standby":
                self.resumed_standby += 1
                break
            if role == "active":
                last_active = time.monotonic()
            self.pump(0.005)
        if victim.alive():
            victim.stop(signal.SIGKILL)
        else:
            self.resumed_exited += 1
        if last_active is not None:
            self.two_active += 1
            self.violations.append(f"kill {self.kills}: bridge {victim.name}'s /readyz still said active "
                                   f"{(last_active - resumed) * 1000:.0f} ms after its fault ended, beside bridge "
                                   f"{self.successor.name}")

    # -- messages (the Lazy Pirate client)

    def writable(self, bridge):
        return bridge.sock is not None and bool(bridge.sock.getsockopt(zmq.EVENTS) & zmq.POLLOUT)

    def send(self, command, avoid=None):
        """Sends to a bridge whose socket has a peer (the one that answered last first, `avoid` last)."""
        candidates = [bridge for bridge in self.bridges if self.writable(bridge)]
        candidates.sort(key=lambda bridge: (bridge is avoid, bridge is not self.serving))
        for bridge in candidates:
            try:
                bridge.sock.send_multipart([b"", json.dumps(command).encode()], flags=zmq.NOBLOCK)
            except zmq.Again:
                continue
            if command["id"] in self.commands:
                self.sent[command["id"]] = (time.monotonic(), bridge)
            return
        self.unsent.append(command)

    def flush_and_retry(self):
        """Sends what waited for a peer, and again every sale unanswered for retry-ms (to the other bridge)."""
        waiting, self.unsent = self.unsent, []
        for command in waiting:
            self.send(command)
        now = time.monotonic()
        for ident in list(self.in_flight.values()):
            sent_at, bridge = self.sent.get(ident, (None, None))
            if sent_at is not None and now - sent_at >= self.retry_s:
                self.resent += 1
                del self.sent[ident]
                self.send(self.commands[ident], avoid=bridge)

    def receive(self, timeout_ms):
        deadline = time.monotonic() + timeout_ms / 1000
        poller = zmq.Poller()
        for bridge in self.bridges:
            if bridge.sock is not None:
                poller.register(bridge.sock, zmq.POLLIN)
        while True:
            self.flush_and_retry()
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready = dict(poller.poll(max(1, int(min(left, 0.05) * 1000))))
            for bridge in self.bridges:
                if bridge.sock is not None and ready.get(bridge.sock):
                    reply = json.loads(bridge.sock.recv_multipart()[-1])
                    self.serving = bridge
                    if self.kill_time is not None and bridge is self.successor:
                        self.takeovers_reply.append(time.monotonic() - self.kill_time)
                        self.kill_time = None
                    return reply

    def take(self, reply):
        ident = reply.get("id")
        if ident not in self.commands or ident != self.in_flight.get(self.commands[ident]["lane"]):
            return super().take(reply)
        if reply.get("outcome") == "rejected" and (reply.get("error") or {}).get("code") == "shutting_down":
            # Not journaled: the same id goes again, to the other bridge once it has a peer (retried each
            # SHUTDOWN_RETRY_S meanwhile, wherever a peer is).
            self.shutting_down += 1
            self.sent[ident] = (time.monotonic() - self.retry_s + SHUTDOWN_RETRY_S, self.serving)
            return None
        self.sent.pop(ident, None)
        return super().take(reply)

    def pump(self, seconds):
        """Keeps the load going for `seconds` (a sale on each free lane unless closing, replies taken, retries
        sent)."""
        if self.bridges[0].sock is None:
            time.sleep(seconds)
        elif self.closing:
            reply = self.receive(int(seconds * 1000))
            if reply is not None:
                self.take(reply)
        else:
            self.load(seconds)

    # -- checks

    def check_false_answers(self, requests):
        """(c): no `failure` or `undeliverable` for a sale whose URL reached its relay, unless the terminal's own
        outcome is a failure (the simulator fails amounts ending in 51, 52 and 53)."""
        opened = {ref for _, ref, _, _ in requests}
        for ident, reply in sorted(self.acknowledged.items()):
            outcome = reply.get("outcome")
            if ident not in opened or outcome not in ("failure", "undeliverable"):
                continue
            amount = self.commands[ident]["amount"]
            if outcome == "undeliverable":
                self.violations.append(f"{ident}: answered undeliverable although its URL reached the relay")
            elif amount % 100 not in (51, 52, 53):
                self.violations.append(f"{ident}: answered failure although its URL reached the relay and the "
                                       f"terminal approves amount {amount}")

    def check_lost(self, requests):
        """(d): no result lost: a sale whose URL reached its relay, and that the terminal approves (every amount but
        those ending in 51, 52 and 53), is not `unknown` in the journal at the end: its callback, held by the relay
        until a bridge said `received`, reached a bridge that journaled it."""
        opened = {ref for _, ref, _, _ in requests}
        for ident, outcome in sorted(self.final_outcomes.items()):
            if outcome == "unknown" and ident in opened and self.commands[ident]["amount"] % 100 not in (51, 52, 53):
                self.lost += 1
                self.violations.append(f"{ident}: the terminal approved it, the journal says unknown (result lost)")

    # -- the run

    def run(self):
        started = time.monotonic()
        endpoints = self.start_simulator()
        self.start_bridges(endpoints)
        while self.kills < self.args.kills:
            self.load(self.rng.uniform(self.args.min_up, self.args.max_up))
            self.kill_active()
            checking, self.unchecked = self.unchecked, []
            self.check(checking)
            if self.kills % 10 == 0 or self.kills == self.args.kills:
                print(f"chaos: {self.kills} kills, {len(self.acknowledged)} sales acknowledged, "
                      f"{len(self.violations)} violations", flush=True)
        # Let the last sales finish, then one more takeover and every acknowledged result checked on it.
        self.closing = True
        end = time.monotonic() + SALE_TIMEOUT_MS / 1000 + self.retry_s + 10
        while self.in_flight and time.monotonic() < end:
            reply = self.receive(200)
            if reply is not None:
                self.take(reply)
        self.kill_active()
        self.kills -= 1  # the closing takeover only makes the final check ask a bridge that read the journal anew
        # The callbacks the relays held for the new active, sent again after its hello, journaled first.
        self.pump(2)
        self.check(sorted(self.acknowledged))
        for bridge in self.bridges:
            bridge.process.send_signal(signal.SIGTERM)
        for bridge in self.bridges:
            bridge.process.wait(timeout=30)
        self.simulator.send_signal(signal.SIGTERM)
        self.simulator.wait(timeout=30)
        before = len(self.violations)
        requests = recorded_requests(self.record)
        for lane, ref, count in repeated_references(requests):
            self.violations.append(f"{ref}: its URL reached {lane}'s relay {count} times")
        repeated = len(self.violations) - before
        self.check_false_answers(requests)
        false_answers = len(self.violations) - before - repeated
        self.check_lost(requests)
        if self.violations or self.args.keep:
            self.cluster.dump(os.path.join(self.workdir, "journal.sql"))
        seconds = time.monotonic() - started
        ready, reply = self.takeovers_ready, self.takeovers_reply
        return report("chaos summary (standby)", [
            f"kills {self.kills} (+1 closing takeover)", f"sales acknowledged {len(self.acknowledged)}",
            f"outcomes {outcome_counts(self.outcomes)}",
            f"re-sent (Lazy Pirate) {self.resent} (of them after shutting_down {self.shutting_down})",
            f"still unanswered {len(self.in_flight)}", f"requests at the relays {len(requests)}",
            f"takeover to /readyz 200 p50 {median(ready):.2f} s max {max(ready):.2f} s ({len(ready)})",
            f"to the first reply p50 {median(reply) or 0:.2f} s max {max(reply, default=0):.2f} s ({len(reply)})",
            f"faults {outcome_counts(self.faults)}",
            f"violations {len(self.violations)} ({before - self.two_active - self.slow_takeovers} results, "
            f"{repeated} repeated requests, {false_answers} false answers, {self.lost} results lost, "
            f"{self.two_active} two active, {self.slow_takeovers} slow takeovers)",
        ] + self.resumed_summary() + [f"seconds {seconds:.0f}"], self.violations, before)

    def resumed_summary(self):
        if self.args.signal not in ("STOP", "PARTITION", "MIX"):
            return []
        return [f"paused or cut-off bridges once resumed: back to standby {self.resumed_standby}, exited "
                f"{self.resumed_exited}"]

    def cleanup(self):
        for bridge in self.bridges:
            if bridge.alive():
                bridge.process.kill()
                bridge.process.wait()
            if bridge.sock is not None:
                bridge.sock.close(linger=0)
            if bridge.proxy is not None:
                bridge.proxy.stop()
        if self.simulator is not None and self.simulator.poll() is None:
            self.simulator.kill()
            self.simulator.wait()
        self.cluster.stop()
        self.context.term()
