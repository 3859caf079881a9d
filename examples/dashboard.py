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
import sys

import vivabridge_curve
from vivabridge_client import Subscriber


def main():
    parser = argparse.ArgumentParser(description="Print vivabridge's events as a small live dashboard.")
    parser.add_argument("--events-endpoint", "--endpoint", dest="endpoint", default=os.environ.get("VIVABRIDGE_EVENTS", "tcp://127.0.0.1:5556"), help="the bridge's event endpoint")
    parser.add_argument("--lane", help="only this lane")
    parser.add_argument("--count", type=int, help="exit after this many events")
    vivabridge_curve.add_arguments(parser)
    args = parser.parse_args()

    subscriber = Subscriber(args.endpoint, prefixes=[f"{args.lane}." if args.lane else ""],
                            apply=lambda socket: vivabridge_curve.apply(socket, args))
    print(f"listening to {args.endpoint}", flush=True)

    lanes = {}  # lane -> what it is doing, from the events seen
    last = None  # (epoch, seq) of the last event
    seen = 0
    try:
        while args.count is None or seen < args.count:
            event = subscriber.next()  # a typed Event (vivabridge_client.py)
            if last and not args.lane and (event.epoch, event.seq) != (last[0], last[1] + 1):
                print("  (missed events or the bridge restarted: ask 'lanes' and 'status' on the command socket)")
            last = (event.epoch, event.seq)
            if event.kind == "heartbeat":
                continue  # the bridge is alive; nothing to show (a bridge that stopped sends none)
            seen += 1

            if event.kind == "progress" and event.action != "abort":
                lanes[event.lane] = f"{event.action} {event.id} in flight"
            elif event.kind == "end" and event.event != "resolved":
                lanes[event.lane or "bridge"] = f"last: {event.action} {event.reply.outcome}" + (" (late)" if event.reply.late else "")
            elif event.kind in ("link", "returned", "reload"):
                lanes[event.lane] = event.event

            detail = (event.reply.outcome if event.reply else None) or event.batch_name or ""
            board = "  ".join(f"[{key}: {value}]" for key, value in sorted(lanes.items()))
            print(f"{event.time[11:19]}  {event.topic:<26} {event.id or '':<22} {detail:<10} {board}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        subscriber.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
