"""A PostgreSQL cluster of the standby run's own, as Sources/LocalPostgres/PostgresCluster.swift starts one: Debian's
`postgresql` package (scripts/setup-deps), `initdb` into a temporary folder, `pg_ctl start` on a free loopback
port with trust authentication, then one role and one database for the journal. The server refuses to run as
root: as root, `initdb`, `pg_ctl` and `psql` run as the `postgres` user (`runuser`), in a folder it owns."""
import os
import shutil
import subprocess
import tempfile

from .common import free_port


def binaries():
    """PostgreSQL 15's binaries (Debian 12), else the newest version installed."""
    root = "/usr/lib/postgresql"
    try:
        versions = sorted(int(name) for name in os.listdir(root) if name.isdigit())
    except OSError:
        versions = []
    chosen = 15 if 15 in versions else (versions[-1] if versions else 15)
    return os.path.join(root, str(chosen), "bin")


class PostgresCluster:
    """initdb, pg_ctl start, a role and a database; `stop` ends the server and removes the folder."""

    def __init__(self, database="chaos", user="chaos"):
        self.bin = binaries()
        if not os.access(os.path.join(self.bin, "pg_ctl"), os.X_OK):
            raise RuntimeError(f"no PostgreSQL at {self.bin}: run scripts/setup-deps (it installs postgresql)")
        self.database = database
        self.user = user
        self.folder = tempfile.mkdtemp(prefix="vivabridge-chaos-pg-")
        self.data = os.path.join(self.folder, "data")
        self.log = os.path.join(self.folder, "server.log")
        self.port = None
        self.started = False

    @property
    def url(self):
        """The journal URL the bridges are given (no password: the cluster trusts loopback)."""
        return self.url_via(self.port)

    def url_via(self, port):
        """The journal URL through a proxy listening on `port`."""
        return f"postgresql://{self.user}@127.0.0.1:{port}/{self.database}"

    def start(self):
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self.as_server_user([os.path.join(self.bin, "initdb"), "-D", self.data, "-U", "postgres", "--auth=trust",
                             "--no-sync", "--encoding=UTF8", "--locale=C"])
        self.port = free_port()
        # No fsync: the bridges are killed, never the server, and commits are then cheap on a shared machine.
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.as_server_user([os.path.join(self.bin, "pg_ctl"), "start", "-w", "-t", "60", "-D", self.data,
                             "-l", self.log, "-o", options])
        self.started = True
        self.psql(f"CREATE ROLE {self.user} LOGIN", database="postgres")
        self.psql(f"CREATE DATABASE {self.database} OWNER {self.user}", database="postgres")

    def psql(self, sql, database=None):
        """Runs `sql` as the superuser on `database` (default: the journal's); returns its unaligned output."""
        return self.as_server_user([os.path.join(self.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                                    "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                                    "-d", database or self.database, "-c", sql])

    def dump(self, path):
        """Writes the journal's database as SQL (pg_dump) to `path`, for a run that is kept."""
        text = self.as_server_user([os.path.join(self.bin, "pg_dump"), "-h", "127.0.0.1", "-p", str(self.port),
                                    "-U", "postgres", self.database])
        with open(path, "w") as out:
            out.write(text)

    def stop(self):
        if self.started:
            self.started = False
            try:
                self.as_server_user([os.path.join(self.bin, "pg_ctl"), "stop", "-w", "-m", "immediate",
                                     "-D", self.data])
            except RuntimeError:
                pass
        shutil.rmtree(self.folder, ignore_errors=True)

    def as_server_user(self, command):
        """Runs `command` (as `postgres` when this process is root) to its end; its output, or RuntimeError."""
        if os.geteuid() == 0:
            command = ["/usr/sbin/runuser", "-u", "postgres", "--"] + command
        # The output goes to a file, not a pipe: the server pg_ctl starts would hold a pipe open as long as it runs.
        with tempfile.TemporaryFile() as output:
            done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output, cwd="/tmp")
            output.seek(0)
            text = output.read().decode(errors="replace")
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {text.strip()}")
        return text
