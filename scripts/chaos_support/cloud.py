"""The cloud-lane run of scripts/chaos: one bridge whose lanes are cloud lanes of Viva's simulated back office
(`vivabridge simulate --cloud`), SIGKILLed and restarted in place. The simulator's record then holds one line a
cloud session posted (lane cloud:TID, reference the sale's merchantReference): check (b) finds a sale posted
under two sessions, or one session posted twice."""
import os
import subprocess

from .common import recorded_requests, repeated_references
from .single import Chaos

# The demo credentials the simulated back office takes (TerminalSimulator's CloudCredentials.demo).
DEMO = {"clientId": "demo-pos", "clientSecret": "DEMO-CLIENT-SECRET", "merchantId": "demo-merchant",
        "apiKey": "DEMO-API-KEY"}


class CloudChaos(Chaos):
    def start_simulator(self):
        self.simulator = subprocess.Popen(
            [self.binary, "simulate", "--lanes", "1", "--base-port", "0", "--zero-delay", "--record", self.record,
             "--cloud", "0", "--cloud-session-ms", str(self.args.card_ms + self.args.host_ms),
             "--cloud-lost-posts", str(self.args.cloud_lost_posts),
             "--cloud-5xx-rate", str(self.args.cloud_5xx_rate), "--seed", str(self.args.seed)],
            stdout=subprocess.PIPE, stderr=self.bridge_log)
        while True:
            line = self.simulator.stdout.readline().decode()
            if not line:
                raise RuntimeError("the simulator ended before printing its back office's URL")
            if line.startswith("viva-cloud "):
                return line.split()[1]

    def terminal_and_lanes(self, url):
        """`vivaCloud` (the back office at `url`, the demo secrets in files) and one cloud lane a lane."""
        secrets = {}
        for name, value in (("client-secret", DEMO["clientSecret"]), ("api-key", DEMO["apiKey"])):
            path = os.path.join(self.workdir, name)
            with open(path, "w") as out:
                out.write(value)
            os.chmod(path, 0o600)
            secrets[name] = path
        lines = [
            "vivaCloud:",
            f"  accountsURL: {url}", f"  apiURL: {url}", f"  legacyURL: {url}",
            f"  clientId: {DEMO['clientId']}", f"  clientSecretFile: {secrets['client-secret']}",
            f"  merchantId: {DEMO['merchantId']}", f"  apiKeyFile: {secrets['api-key']}",
            "  pollMs: 200",
            # Unknown results stay unknown for the run: check (a) compares what was acknowledged.
            "  resolveUnknownAfterMs: 3600000",
            "lanes:",
        ]
        for index, lane in enumerate(self.lanes, start=1):
            lines.append(f"  - {{id: {lane}, cloud: {{terminalId: \"1600{index:04d}\", cashRegisterId: till-{index}}}}}")
        return lines

    def check_record(self):
        """(b): no sale posted under two sessions, no session posted twice (each would be a second charge)."""
        requests = [(lane, ref, ctid, url) for lane, ref, ctid, url in recorded_requests(self.record)]
        for lane, ref, count in repeated_references(requests):
            self.violations.append(f"{ref}: posted to Viva's cloud for {lane} {count} times")
        return len(requests)
