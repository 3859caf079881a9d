"""CURVE for the examples: connect to a bridge with `security:` (docs/SECURITY.md).

A client needs its own secret key (a file from `vivabridge keygen --out NAME`, whose NAME.pub the operator
puts on the bridge's allow-list) and the bridge's public key (40 characters of Z85, or the bridge's .pub
file). The secret key never leaves this process and is never printed.
"""
import os

import zmq


def add_arguments(parser):
    """--key-file and --server-key, defaulting to VB_CLIENT_KEY_FILE and VB_CLIENT_SERVER_KEY."""
    parser.add_argument("--key-file", default=os.environ.get("VB_CLIENT_KEY_FILE"),
                        help="this client's CURVE secret key file (a bridge with security)")
    parser.add_argument("--server-key", default=os.environ.get("VB_CLIENT_SERVER_KEY"),
                        help="the bridge's CURVE public key: 40 characters of Z85, or its .pub file "
                             "(a key that begins with '-' is given as --server-key=KEY)")


def _read_key(text_or_path, what):
    if len(text_or_path) == 40 and not os.path.exists(text_or_path):
        return text_or_path.encode()
    try:
        with open(text_or_path, encoding="ascii") as file:
            key = file.read().strip()
    except OSError as error:
        raise SystemExit(f"{what} {text_or_path}: cannot read it ({error.strerror})")
    if len(key) != 40:
        raise SystemExit(f"{what} {text_or_path}: not a CURVE key (one line of 40 Z85 characters)")
    return key.encode()


def apply(socket, args):
    """Makes `socket` a CURVE client of the bridge when --key-file is given; call before connect."""
    if not args.key_file:
        if args.server_key:
            raise SystemExit("--server-key needs --key-file (this client's secret key)")
        return
    if not args.server_key:
        raise SystemExit("--key-file needs --server-key (the bridge's public key or its .pub file)")
    if not zmq.has("curve"):
        raise SystemExit("this libzmq has no CURVE: install Debian's python3-zmq (its libzmq5 has it)")
    secret = _read_key(args.key_file, "--key-file")
    socket.curve_secretkey = secret
    socket.curve_publickey = zmq.curve_public(secret)
    socket.curve_serverkey = _read_key(args.server_key, "--server-key")
