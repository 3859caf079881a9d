#!/usr/bin/env python3
"""A small live dashboard of vivabridge's events: one line per event, and what each lane is doing.

    python3 examples/dashboard.py                    # every lane, until Ctrl-C
    python3 examples/dashboard.py --lane lane-1      # one lane (topics are "<lane>.<...>")
    python3 examples/dashboard.py --count 3          # exit after 3 events (for CI)
    python3 examples/dashboard.py --key-file wall.key --server-key bridge.pub   # a bridge with security

Needs pyzmq (Debian: apt-get install python3-zmq; or pip install pyzmq).
"""
import argparse
import os
import json
import sys

import zmq

import vivabridge_contract
import vivabridge_curve


def main():
    parser = argparse.ArgumentParser(description="Print vivabridge's events as a small live dashboard.")
    parser.add_argument("--events-endpoint", "--endpoint", dest="endpoint", default=os.environ.get("VIVABRIDGE_EVENTS", "tcp://127.0.0.1:5556"), help="the bridge's event endpoint")
    parser.add_argument("--lane", help="only this lane")
    parser.add_argument("--count", type=int, help="exit after this many events")
    vivabridge_curve.add_arguments(parser)
    args = parser.parse_args()

    context = zmq.Context()
    socket = context.socket(zmq.SUB)
    socket.setsockopt(zmq.LINGER, 0)
    vivabridge_curve.apply(socket, args)
    socket.setsockopt_string(zmq.SUBSCRIBE, f"{args.lane}." if args.lane else "")
    socket.connect(args.endpoint)
    print(f"listening to {args.endpoint}", flush=True)

    lanes = {}  # lane -> what it is doing, from the events seen
    last = None  # (epoch, seq) of the last event
    seen = 0
    try:
        while args.count is None or seen < args.count:
            topic, body = socket.recv_multipart()
            topic, event = topic.decode(), json.loads(body)
            vivabridge_contract.event(topic, event)
            lane, kind, name = topic.split(".", 2)
            if last and not args.lane and (event["epoch"], event["seq"]) != (last[0], last[1] + 1):
                print("  (missed events or the bridge restarted: ask 'lanes' and 'status' on the command socket)")
            last = (event["epoch"], event["seq"])
            if lane == "bridge" and kind == "heartbeat":
                continue  # the bridge is alive; nothing to show (a bridge that stopped sends none)
            seen += 1

            if name in ("accepted", "forwarded", "delivered") and kind != "abort":
                lanes[lane] = f"{kind} {event['id']} in flight"
            elif name in ("result", "unknown", "late_result"):
                lanes[lane] = f"last: {kind} {event['outcome']}" + (" (late)" if event.get("late") else "")
            elif kind == "lane":
                lanes[lane] = name

            detail = event.get("outcome") or event.get("batchName") or ""
            board = "  ".join(f"[{key}: {value}]" for key, value in sorted(lanes.items()))
            print(f"{event['time'][11:19]}  {topic:<26} {event.get('id', ''):<22} {detail:<10} {board}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        socket.close()
        context.term()
    return 0


if __name__ == "__main__":
    sys.exit(main())
