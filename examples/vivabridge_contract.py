"""Records the replies and events the examples receive, for scripts/check-contract.

When the environment variable VIVABRIDGE_CONTRACT_RECORD names a file, each reply and each event body is
appended to it as one JSON line, `{"kind": "reply", "body": {...}}` or `{"kind": "event", "topic": "...",
"body": {...}}`, exactly as BridgeClient's ContractRecorder writes them; CI then validates the file against
the schemas under schema/. Without the variable nothing is written.
"""
import json
import os

VARIABLE = "VIVABRIDGE_CONTRACT_RECORD"


def _append(record):
    path = os.environ.get(VARIABLE)
    if not path:
        return
    line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, line)  # one write: lines of several processes do not interleave
    finally:
        os.close(descriptor)


def reply(body):
    """Records a reply (a dict) as received."""
    _append({"kind": "reply", "body": body})


def event(topic, body):
    """Records an event: its topic (str) and its body (a dict)."""
    _append({"kind": "event", "topic": topic, "body": body})
