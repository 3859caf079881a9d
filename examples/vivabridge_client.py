"""A small Python client of vivabridge: typed replies and events (dataclasses), a command connection and an
event subscription. The field lists are those of the schemas under schema/ (reply.schema.json,
event.schema.json); docs/PROTOCOL.md has the rules.

    from vivabridge_client import Client, Subscriber
    with Client("tcp://127.0.0.1:5555") as client:
        reply = client.request({"id": "pos7-1", "lane": "lane-1", "action": "sale", "amount": 1200})
        if reply.outcome == "success": ...
        elif reply.outcome == "unknown": ...   # never a failure: ask "status" later

    # Two bridges sharing a journal: the same command, under the same id, to whichever answers.
    reply, endpoint = failover_request(["tcp://10.0.0.1:5555", "tcp://10.0.0.2:5555"], {"id": "pos7-2", ...})

    with Subscriber("tcp://127.0.0.1:5556", prefixes=["lane-1."]) as events:
        event = events.next(timeout_ms=5000)   # an Event, or None
        if event and event.kind == "end": print(event.reply.outcome)

`parse_reply` and `parse_event` read a reply or an event body (already a dict) and raise ContractError
naming the member when it is not what the contract says; members they do not know are kept in `body` and
otherwise ignored, so a client keeps working when a later bridge adds one.

When the environment variable VIVABRIDGE_CONTRACT_RECORD names a file, every reply and event received is
appended to it as one JSON line, as BridgeClient's ContractRecorder does, for scripts/check-contract.
Needs pyzmq for Client and Subscriber (Debian: apt-get install python3-zmq); the parsers need nothing.
"""
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

OUTCOMES = ("success", "failure", "aborted", "nothing_to_abort", "superseded", "rejected", "undeliverable", "unknown")
REASONS = ("cardholder_cancel", "declined", "host_error", "timeout_at_terminal", "other")
PLATFORMS = ("ios", "android")
RECORD_VARIABLE = "VIVABRIDGE_CONTRACT_RECORD"


class ContractError(ValueError):
    """A reply or event that is not what the contract says: `member` and what was expected."""

    def __init__(self, member, expected):
        super().__init__(f"{member}: {expected}")
        self.member = member
        self.expected = expected


# -- Reading members ------------------------------------------------------------------------------------------

def _get(body, key, types, path, required=False, choices=None):
    value = body.get(key)
    if value is None:
        if required:
            raise ContractError(path + key, "required")
        return None
    # bool is an int in Python: an integer member never takes true or false.
    if not isinstance(value, types) or (int in _tuple(types) and bool not in _tuple(types) and isinstance(value, bool)):
        raise ContractError(path + key, f"a {'/'.join(t.__name__ for t in _tuple(types))}, not {value!r}")
    if choices is not None and value not in choices:
        raise ContractError(path + key, f"one of {', '.join(choices)}, not {value!r}")
    return value


def _tuple(types):
    return types if isinstance(types, tuple) else (types,)


# -- Replies --------------------------------------------------------------------------------------------------

@dataclass
class RejectionError:
    code: str
    message: str
    platforms: Optional[List[str]] = None


@dataclass
class AmountMismatch:
    requested: Optional[int]
    approved: Optional[int]
    requested_tip: Optional[int] = None
    approved_tip: Optional[int] = None


@dataclass
class Refund:
    kind: str  # "unreferenced" or "fast"
    amount: Optional[int]


@dataclass
class Earlier:
    outcome: Optional[str]
    message: Optional[str] = None


@dataclass
class Resolution:
    by: Optional[str]
    at: str
    note: Optional[str] = None


@dataclass
class Reply:
    """A reply (reply.schema.json); a command's `result`, `unknown`, `late_result` and `resolved` events carry one."""
    id: Optional[str]
    outcome: str
    late: bool
    lane: Optional[str] = None
    action: Optional[str] = None
    client: Optional[str] = None
    reason: Optional[str] = None
    message: Optional[str] = None
    result: Optional[Dict[str, Any]] = None
    ref: Optional[str] = None
    error: Optional[RejectionError] = None
    amount_mismatch: Optional[AmountMismatch] = None
    authorisation: Optional[str] = None
    refund: Optional[Refund] = None
    earlier: Optional[Earlier] = None
    resolved: Optional[Resolution] = None
    body: Dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def amount(self):
        """The amount the terminal reported, in cents, when it is an integer."""
        value = (self.result or {}).get("amount")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def _mismatch(body, path):
    return AmountMismatch(
        requested=_get(body, "requested", int, path), approved=_get(body, "approved", int, path),
        requested_tip=_get(body, "requestedTip", int, path), approved_tip=_get(body, "approvedTip", int, path))


def parse_reply(body, path=""):
    """A Reply from a reply's dict (or the reply members of an event body)."""
    if not isinstance(body, dict):
        raise ContractError(path or "(reply)", "a JSON object")
    if "late" not in body:
        raise ContractError(path + "late", "required")
    error = _get(body, "error", dict, path)
    mismatch = _get(body, "amountMismatch", dict, path)
    refund = _get(body, "refund", dict, path)
    earlier = _get(body, "earlier", dict, path)
    resolved = _get(body, "resolved", dict, path)
    reply = Reply(
        id=_get(body, "id", str, path),
        outcome=_get(body, "outcome", str, path, required=True, choices=OUTCOMES),
        late=_get(body, "late", bool, path, required=True),
        lane=_get(body, "lane", str, path),
        action=_get(body, "action", str, path),
        client=_get(body, "client", str, path),
        reason=_get(body, "reason", str, path, choices=REASONS),
        message=_get(body, "message", str, path),
        result=_get(body, "result", dict, path),
        ref=_get(body, "ref", str, path),
        error=None if error is None else RejectionError(
            code=_get(error, "code", str, path + "error.", required=True),
            message=_get(error, "message", str, path + "error.", required=True),
            platforms=_get(error, "platforms", list, path + "error.")),
        amount_mismatch=None if mismatch is None else _mismatch(mismatch, path + "amountMismatch."),
        authorisation=_get(body, "authorisation", str, path),
        refund=None if refund is None else Refund(
            kind="fast" if refund.get("fast") is True else "unreferenced", amount=_get(refund, "amount", int, path + "refund.")),
        earlier=None if earlier is None else Earlier(
            outcome=_get(earlier, "outcome", str, path + "earlier.", choices=OUTCOMES),
            message=_get(earlier, "message", str, path + "earlier.")),
        resolved=None if resolved is None else Resolution(
            by=_get(resolved, "by", str, path + "resolved."), at=_get(resolved, "at", str, path + "resolved.", required=True),
            note=_get(resolved, "note", str, path + "resolved.")),
        body=body,
    )
    if (reply.outcome == "rejected") != (reply.error is not None):
        raise ContractError(path + "error", "present exactly when the outcome is rejected")
    return reply


# -- Events ---------------------------------------------------------------------------------------------------

# The kind of each topic, as event.schema.json's kinds give them: first match wins.
_TOPICS = [
    (re.compile(r"^bridge\.heartbeat\.beat$"), "heartbeat"),
    (re.compile(r"^bridge\.journal\.(unavailable|available)$"), "journal"),
    (re.compile(r"^bridge\.role\.active$"), "role"),
    (re.compile(r"^[^.]+\.lane\.(connected|disconnected)$"), "link"),
    (re.compile(r"^[^.]+\.lane\.returned$"), "returned"),
    (re.compile(r"^[^.]+\.lane\.(added|changed|removed)$"), "reload"),
    (re.compile(r"^[^.]+\.batch\.(opened|closed)$"), "batch"),
    (re.compile(r"\.(accepted|forwarded|delivered)$"), "progress"),
    (re.compile(r"\.(result|unknown|late_result|resolved)$"), "end"),
    (re.compile(r"\.mismatch$"), "mismatch"),
    (re.compile(r"\.orphan$"), "orphan"),
]


@dataclass
class Event:
    """An event (event.schema.json). `kind` says which members mean something: progress (id, lane, action),
    end (reply), mismatch (id, lane, action, amount_mismatch), orphan (lane, action), link (lane, up,
    endpoint), returned (lane, in_flight), reload (lane, endpoint, platform), batch (lane, batch_name,
    batch_id, reason), heartbeat (in_flight_count, lanes_up), journal (available), role (instance: the bridge
    that became active; `epoch` is its lease's), snapshot (lanes, on /events only), other (a topic this
    version does not know). `event` is the topic's last part."""
    topic: str
    kind: str
    seq: Optional[int]
    epoch: int
    time: Optional[str]
    event: str
    lane: Optional[str] = None
    id: Optional[str] = None
    action: Optional[str] = None
    reply: Optional[Reply] = None
    amount_mismatch: Optional[AmountMismatch] = None
    up: Optional[bool] = None
    endpoint: Optional[str] = None
    platform: Optional[str] = None
    in_flight: Optional[str] = None
    batch_name: Optional[str] = None
    batch_id: Optional[str] = None
    reason: Optional[str] = None
    in_flight_count: Optional[int] = None
    lanes_up: Optional[int] = None
    available: Optional[bool] = None
    instance: Optional[str] = None
    lanes: Optional[List[Dict[str, Any]]] = None
    body: Dict[str, Any] = field(default_factory=dict, repr=False)


def parse_event(topic, body):
    """An Event from its topic and its body (a dict; on /events the topic is inside it as well)."""
    if not isinstance(body, dict):
        raise ContractError("(event)", "a JSON object")
    if topic == "lanes":  # the snapshot that starts /events: no time, seq of the last event before it
        return Event(topic=topic, kind="snapshot", seq=_get(body, "seq", int, "", required=True),
                     epoch=_get(body, "epoch", int, "", required=True), time=None, event="lanes",
                     lanes=_get(body, "lanes", list, "", required=True), body=body)
    kind = next((name for pattern, name in _TOPICS if pattern.search(topic)), "other")
    event = Event(
        topic=topic, kind=kind, seq=_get(body, "seq", int, "", required=True), epoch=_get(body, "epoch", int, "", required=True),
        time=_get(body, "time", str, "", required=True), event=topic.rsplit(".", 1)[-1], body=body,
        lane=_get(body, "lane", str, ""), id=_get(body, "id", str, ""), action=_get(body, "action", str, ""))
    if kind == "progress":
        for key in ("id", "lane", "action"):
            _get(body, key, str, "", required=True)
    elif kind == "end":
        event.reply = parse_reply(body)
    elif kind == "mismatch":
        event.amount_mismatch = _mismatch(_get(body, "amountMismatch", dict, "", required=True), "amountMismatch.")
    elif kind == "link":
        event.up = event.event == "connected"
        event.endpoint = _get(body, "endpoint", str, "", required=True)
    elif kind == "returned":
        event.in_flight = _get(body, "inFlight", str, "")
    elif kind == "reload":
        event.endpoint = _get(body, "endpoint", str, "", required=True)
        event.platform = _get(body, "platform", str, "", choices=PLATFORMS)
    elif kind == "batch":
        event.batch_name = _get(body, "batchName", str, "")
        event.batch_id = _get(body, "batchId", str, "")
        event.reason = _get(body, "reason", str, "", choices=("command", "replaced", "expired"))
    elif kind == "heartbeat":
        event.in_flight_count = _get(body, "inFlight", int, "", required=True)
        event.lanes_up = _get(body, "lanesUp", int, "", required=True)
    elif kind == "journal":
        event.available = event.event == "available"
        event.reason = _get(body, "reason", str, "")
    elif kind == "role":
        event.instance = _get(body, "instance", str, "", required=True)
    return event


# -- Recording ------------------------------------------------------------------------------------------------

def record(kind, body, topic=None):
    """Appends one received message to $VIVABRIDGE_CONTRACT_RECORD, when it names a file (one write a line:
    lines of several processes do not interleave)."""
    path = os.environ.get(RECORD_VARIABLE)
    if not path:
        return
    line = {"kind": kind, "body": body} if topic is None else {"kind": kind, "topic": topic, "body": body}
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode())
    finally:
        os.close(descriptor)


# -- Sockets --------------------------------------------------------------------------------------------------

class _Connection:
    """A socket of its own context, closed at once (LINGER 0); `apply` may set CURVE options on it before it
    connects (see vivabridge_curve). A `with` block closes it."""

    def __init__(self, kind, apply):
        import zmq
        self._zmq = zmq
        self.context = zmq.Context()
        self.socket = self.context.socket(kind)
        self.socket.setsockopt(zmq.LINGER, 0)
        if apply:
            apply(self.socket)

    def close(self):
        self.socket.close()
        self.context.term()

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()


class Client(_Connection):
    """A DEALER to the bridge's command socket. `apply` may set CURVE options (see vivabridge_curve)."""

    def __init__(self, endpoint, apply=None):
        import zmq
        super().__init__(zmq.DEALER, apply)
        self.socket.connect(endpoint)

    def send(self, command):
        """Sends one command (a dict) as `["", json]`, as a DEALER does."""
        self.socket.send_multipart([b"", json.dumps(command).encode()])

    def request(self, command, wait_ms=125_000):
        """Sends `command` and returns its Reply, skipping replies to other ids; None when none came in time.

        The send waits at most `wait_ms` too: a DEALER with no connected peer (the bridge down, or its CURVE
        handshake refused this key) blocks on send."""
        self.socket.setsockopt(self._zmq.SNDTIMEO, wait_ms)
        self.socket.setsockopt(self._zmq.RCVTIMEO, wait_ms)
        try:
            self.send(command)
            while True:
                body = json.loads(self.socket.recv_multipart()[-1])
                record("reply", body)
                if body.get("id") in (command.get("id"), None):
                    return parse_reply(body)
        except self._zmq.Again:
            return None


def failover_request(endpoints, command, attempt_ms=10_000, total_ms=125_000, apply=None):
    """Sends `command` to whichever of several bridges answers (two bridges sharing a journal; the Lazy Pirate
    loop of docs/PROTOCOL.md, "Two bridges"): each attempt is a DEALER of its own with ZMQ_IMMEDIATE (the
    command goes out only on a completed connection), the same bytes and so the same id every time; no reply
    within `attempt_ms` closes it (linger 0) and tries the next endpoint, round-robin, until `total_ms`.
    Returns (Reply, endpoint), or None when no bridge answered."""
    import time
    import zmq
    frame = json.dumps(command).encode()
    deadline = time.monotonic() + total_ms / 1000
    context = zmq.Context()
    try:
        attempt = 0
        while time.monotonic() < deadline:
            endpoint = endpoints[attempt % len(endpoints)]
            attempt += 1
            socket = context.socket(zmq.DEALER)
            socket.setsockopt(zmq.LINGER, 0)
            socket.setsockopt(zmq.IMMEDIATE, 1)
            if apply:
                apply(socket)
            socket.connect(endpoint)
            try:
                end = min(deadline, time.monotonic() + attempt_ms / 1000)
                poller = zmq.Poller()
                poller.register(socket, zmq.POLLOUT)
                sent = False
                while end > time.monotonic():
                    if not poller.poll(max(1, int((end - time.monotonic()) * 1000))):
                        continue
                    if not sent:
                        socket.send_multipart([b"", frame])
                        sent = True
                        poller.modify(socket, zmq.POLLIN)
                        continue
                    body = json.loads(socket.recv_multipart()[-1])
                    record("reply", body)
                    if body.get("id") in (command.get("id"), None):
                        return parse_reply(body), endpoint
            finally:
                socket.close()
        return None
    finally:
        context.term()


class Subscriber(_Connection):
    """A SUB to the bridge's events socket, for the topics starting with `prefixes` (everything by default)."""

    def __init__(self, endpoint, prefixes=("",), apply=None):
        import zmq
        super().__init__(zmq.SUB, apply)
        for prefix in prefixes or ("",):
            self.socket.setsockopt_string(zmq.SUBSCRIBE, prefix)
        self.socket.connect(endpoint)

    def next(self, timeout_ms=None):
        """The next Event (waiting up to `timeout_ms`, or for ever), or None on timeout."""
        self.socket.setsockopt(self._zmq.RCVTIMEO, -1 if timeout_ms is None else timeout_ms)
        try:
            frames = self.socket.recv_multipart()
        except self._zmq.Again:
            return None
        topic, body = frames[0].decode(), json.loads(frames[-1])
        record("event", body, topic)
        return parse_event(topic, body)
