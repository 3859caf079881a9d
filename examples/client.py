#!/usr/bin/env python3
"""Send one sale to vivabridge and print its reply; exit 0 when the sale succeeded.

    python3 examples/client.py                       # 12.00 on lane-1
    python3 examples/client.py --lane lane-3 --amount 1251
    python3 examples/client.py --key-file till.key --server-key bridge.pub   # a bridge with security

Needs pyzmq (Debian: apt-get install python3-zmq; or pip install pyzmq).
"""
import argparse
import json
import os
import sys
import uuid

import vivabridge_curve
from vivabridge_client import Client


def main():
    parser = argparse.ArgumentParser(description="Send one sale to vivabridge.")
    parser.add_argument("--command-endpoint", "--endpoint", dest="endpoint", default=os.environ.get("VIVABRIDGE_COMMAND", "tcp://127.0.0.1:5555"), help="the bridge's command endpoint")
    parser.add_argument("--lane", default="lane-1")
    parser.add_argument("--amount", type=int, default=1200, help="in cents (1200 is 12.00)")
    parser.add_argument("--wait-ms", type=int, default=125_000, help="how long to wait for the reply")
    vivabridge_curve.add_arguments(parser)
    args = parser.parse_args()

    # The id is the idempotency key: sending the same command again returns the same outcome.
    command = {"id": f"py-{uuid.uuid4().hex[:12]}", "lane": args.lane, "action": "sale", "amount": args.amount}

    with Client(args.endpoint, apply=lambda socket: vivabridge_curve.apply(socket, args)) as client:
        reply = client.request(command, wait_ms=args.wait_ms)  # a typed Reply (vivabridge_client.py)
    if reply is None:
        print(f"no reply within {args.wait_ms} ms: is the bridge running at {args.endpoint}?", file=sys.stderr)
        return 5

    print(json.dumps(reply.body, indent=2))
    if reply.outcome == "failure":
        print(f"declined or failed: {reply.reason}", file=sys.stderr)
    # Never treat "unknown" as a failure: the payment may have happened (ask "status" later).
    return 0 if reply.outcome == "success" else 1


if __name__ == "__main__":
    sys.exit(main())
