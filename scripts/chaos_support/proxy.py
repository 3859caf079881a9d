"""A loopback TCP proxy between one bridge and PostgreSQL, for the standby run's partition fault: `partition()`
stops every byte both ways and holds new connections unanswered (a network that drops packets, not one that
refuses them); `heal()` closes what it held and forwards again."""
import select
import socket
import threading
import time

from .common import free_port


class PartitionProxy:
    def __init__(self, upstream_port):
        self.upstream = ("127.0.0.1", upstream_port)
        self.port = free_port()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.listener.listen(64)
        self.lock = threading.Lock()
        self.cut = False
        self.sockets = set()
        self.stopped = False
        threading.Thread(target=self.accept, daemon=True).start()

    def partition(self):
        with self.lock:
            self.cut = True

    def heal(self):
        """Ends every connection made or held so far (the bridge reconnects), then forwards again."""
        with self.lock:
            held, self.sockets = self.sockets, set()
            self.cut = False
        for held_socket in held:
            held_socket.close()

    def stop(self):
        self.stopped = True
        self.heal()
        self.listener.close()

    def accept(self):
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.sockets.add(client)
                cut = self.cut
            if cut:
                continue  # held: never answered, closed by heal()
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets.add(server)
            threading.Thread(target=self.forward, args=(client, server), daemon=True).start()

    def forward(self, client, server):
        pair = {client: server, server: client}
        try:
            while True:
                with self.lock:
                    cut = self.cut
                if cut:
                    time.sleep(0.05)  # bytes stay in the kernel's buffers: dropped, as far as either side can tell
                    continue
                readable, _, _ = select.select(list(pair), [], [], 0.05)
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    pair[source].sendall(data)
        except (OSError, ValueError):
            return
        finally:
            client.close()
            server.close()
