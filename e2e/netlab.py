"""A small internet in network namespaces, for live play between two homes (e2e/test_netplay.py).

```
 home "a" 10.77.1.2 ─ router "ra" 203.0.113.2 ─┐  ordinary NATs (MASQUERADE)
 home "b" 10.77.2.2 ─ router "rb" 203.0.113.3 ─┤
 home "c" 10.77.3.2 ─ router "rc" 203.0.113.4 ─┤  symmetric NATs (MASQUERADE --random-fully)
 home "d" 10.77.4.2 ─ router "rd" 203.0.113.5 ─┴─ bridge in "pub": 203.0.113.1 (their gateway),
                                                  .10 and .11 (coturn: STUN on both, TURN)
```

Each home serves the site to itself on its own loopback, 127.0.0.1:8080: a secure origin
(service worker, SubtleCrypto) for Chromium's headless shell, which will not take the plain-http
public address as one, as the whole browser can be told to (half again the CPU per page).  The
codes travel between the homes' pages by the test's hand, and the connection through the NATs.

Routers "ra" and "rb" masquerade their home keeping ports (an ordinary home NAT); "rc" and "rd"
with `--random-fully`, so every destination gets a new random port (a symmetric NAT, as on
mobile carriers). Every router drops what comes unsolicited from outside, as home routers do. Only
addresses inside these namespaces are used (documentation ranges); IPv6 is off in them, since
Chromium aborts page loads with ERR_NETWORK_CHANGED when addresses come and go. Everything is
removed by `close()`, which deleting the namespaces does.

`Lab.chromium_wrapper(home)` writes an executable that runs Chromium inside that home, for
Playwright's `executable_path` (one Playwright process drives browsers in several namespaces).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

PUBLIC_SITE = "203.0.113.1"  # the "internet" side of the routers
SITE_HOST = "127.0.0.1"  # where each home serves the site to itself
STUN_IPS = ("203.0.113.10", "203.0.113.11")
TURN_USER = "wizard"
TURN_PASSWORD = "staff-and-wand"
TURN_REALM = "lab.wavinghands.test"
# home: (its LAN prefix, its router's public address, whether the NAT is symmetric)
HOMES = {
    "a": ("10.77.1", "203.0.113.2", False),
    "b": ("10.77.2", "203.0.113.3", False),
    "c": ("10.77.3", "203.0.113.4", True),
    "d": ("10.77.4", "203.0.113.5", True),
}
# Bounds the wait for the site server and coturn to answer: a Python start-up and the import of
# sitebuild.serve take seconds on a machine at load 12; the wait ends as soon as they answer.
READY_S = 60.0


def run(*cmd: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run one command, failing with its stderr."""
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {done.stderr.strip() or done.returncode}")
    return done


def why_no_lab() -> str | None:
    """None when this machine can build the lab (root, ip, iptables, coturn), else why not."""
    if os.geteuid() != 0:
        return "network namespaces need root (CI runs as root)"
    for tool in ("ip", "iptables", "turnserver"):
        if not shutil.which(tool):
            return f"`{tool}` is missing (build.py test installs coturn and iptables)"
    probe = f"whprobe{uuid.uuid4().hex[:6]}"
    made = run("ip", "netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"cannot make a network namespace here: {made.stderr.strip()}"
    run("ip", "netns", "del", probe, check=False)
    return None


class Lab:
    """The namespaces, links, NAT rules, site server and coturn of one test module."""

    def __init__(self, site_root: Path, repo_root: Path) -> None:
        tag = uuid.uuid4().hex[:5]
        self.ns = {name: f"wh{tag}{name}" for name in ("pub", *HOMES, *(f"r{h}" for h in HOMES))}
        self.procs: list[subprocess.Popen[bytes]] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="wh-netlab-"))
        self.site_root = site_root
        self.repo_root = repo_root
        self.port = 8080

    # -- building ---------------------------------------------------------------------------

    def ex(self, name: str, *cmd: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a command inside namespace `name`."""
        return run("ip", "netns", "exec", self.ns[name], *cmd, check=check)

    def build(self) -> None:
        """Make namespaces, links and routes; start coturn in "pub" and a site server in each
        home."""
        for ns in self.ns.values():
            run("ip", "netns", "add", ns)
        for name in self.ns:
            self.ex(name, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
            self.ex(name, "sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1")
            self.ex(name, "ip", "link", "set", "lo", "up")
        self.ex("pub", "ip", "link", "add", "br0", "type", "bridge")
        self.ex("pub", "ip", "addr", "add", f"{PUBLIC_SITE}/24", "dev", "br0")
        for ip in STUN_IPS:
            self.ex("pub", "ip", "addr", "add", f"{ip}/24", "dev", "br0")
        self.ex("pub", "ip", "link", "set", "br0", "up")
        # The "internet" needs a default route too: Chromium gathers only on such interfaces.
        self.ex("pub", "ip", "route", "add", "default", "dev", "br0")
        for home, (lan, wan, symmetric) in HOMES.items():
            router = f"r{home}"
            self.veth(router, "wan", "pub", f"p{home}")
            self.ex("pub", "ip", "link", "set", f"p{home}", "master", "br0")
            self.ex("pub", "ip", "link", "set", f"p{home}", "up")
            self.ex(router, "ip", "addr", "add", f"{wan}/24", "dev", "wan")
            self.ex(router, "ip", "link", "set", "wan", "up")
            self.ex(router, "ip", "route", "add", "default", "via", PUBLIC_SITE)
            self.veth(home, "eth0", router, "lan")
            self.ex(router, "ip", "addr", "add", f"{lan}.1/24", "dev", "lan")
            self.ex(router, "ip", "link", "set", "lan", "up")
            self.ex(router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
            # A home router's firewall: nothing unsolicited from outside. Dropped at once, an
            # unanswered packet from the other home never becomes a connection-tracking entry,
            # which would otherwise take the mapping's port and make the NAT pick another.
            for chain in ("INPUT", "FORWARD"):
                self.ex(
                    router,
                    "iptables",
                    "-A",
                    chain,
                    "-i",
                    "wan",
                    "-m",
                    "conntrack",
                    "!",
                    "--ctstate",
                    "ESTABLISHED,RELATED",
                    "-j",
                    "DROP",
                )
            self.ex(home, "ip", "addr", "add", f"{lan}.2/24", "dev", "eth0")
            self.ex(home, "ip", "link", "set", "eth0", "up")
            self.ex(home, "ip", "route", "add", "default", "via", f"{lan}.1")
            self.masquerade(router, symmetric=symmetric)
        self.start_site()
        self.start_coturn()

    def veth(self, ns_a: str, name_a: str, ns_b: str, name_b: str) -> None:
        """A veth pair with one end in each namespace."""
        tmp_a, tmp_b = f"v{uuid.uuid4().hex[:8]}", f"v{uuid.uuid4().hex[:8]}"
        run("ip", "link", "add", tmp_a, "type", "veth", "peer", "name", tmp_b)
        run("ip", "link", "set", tmp_a, "netns", self.ns[ns_a])
        run("ip", "link", "set", tmp_b, "netns", self.ns[ns_b])
        self.ex(ns_a, "ip", "link", "set", tmp_a, "name", name_a)
        self.ex(ns_b, "ip", "link", "set", tmp_b, "name", name_b)

    def masquerade(self, router: str, *, symmetric: bool) -> None:
        """The router masquerades its home: port-preserving, or a random port per destination."""
        rule = ["iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE"]
        self.ex(router, *rule, *(["--random-fully"] if symmetric else []))

    def start_site(self) -> None:
        """build.py's static server for the built site, in each home on its loopback."""
        script = (
            "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path\n"
            "from sitebuild.serve import SiteServer\n"
            "a = sys.argv\n"
            "server = SiteServer(Path(a[2]), host=a[3], port=int(a[4]))\n"
            "server.serve_forever()\n"
        )
        for home in HOMES:
            self.spawn(
                home,
                [
                    sys.executable,
                    "-c",
                    script,
                    str(self.repo_root),
                    str(self.site_root),
                    SITE_HOST,
                    str(self.port),
                ],
                f"site-{home}",
            )
        for home in HOMES:
            self.wait_http(home, f"{self.site_url}index.html")

    def start_coturn(self) -> None:
        """coturn on two addresses (so a symmetric NAT shows two mappings); TURN with a user."""
        args = [
            "turnserver",
            "-n",
            "--no-cli",
            "--no-tls",
            "--no-dtls",
            "--lt-cred-mech",
            f"--user={TURN_USER}:{TURN_PASSWORD}",
            f"--realm={TURN_REALM}",
            "--fingerprint",
            "--listening-port=3478",
            f"--relay-ip={STUN_IPS[0]}",
            "--min-port=49152",
            "--max-port=49999",
            "--no-multicast-peers",
            f"--pidfile={self.tmp / 'turn.pid'}",
            "--log-file=stdout",
            "--simple-log",
        ]
        for ip in STUN_IPS:
            args.append(f"--listening-ip={ip}")
        self.spawn("pub", args, "coturn")
        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline:
            listening = self.ex("pub", "ss", "-lun", check=False).stdout
            if all(f"{ip}:3478" in listening for ip in STUN_IPS):
                return
            time.sleep(0.1)
        raise RuntimeError(
            f"coturn did not listen within {READY_S} s: {self.log('coturn')[-2000:]}"
        )

    def spawn(self, name: str, cmd: list[str], label: str) -> None:
        """Start a long-running process inside a namespace, its output in the lab's folder."""
        out = open(self.tmp / f"{label}.log", "wb")  # noqa: SIM115 (closed with the process)
        self.procs.append(
            subprocess.Popen(
                ["ip", "netns", "exec", self.ns[name], *cmd], stdout=out, stderr=subprocess.STDOUT
            )
        )

    def log(self, label: str) -> str:
        """The output of a process the lab started."""
        path = self.tmp / f"{label}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def wait_http(self, home: str, url: str) -> None:
        """Wait until the site answers at `url` inside `home` (bounded)."""
        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline:
            got = self.ex(
                home,
                sys.executable,
                "-c",
                f"import urllib.request; urllib.request.urlopen({url!r}, timeout=2)",
                check=False,
            )
            if got.returncode == 0:
                return
            time.sleep(0.2)
        raise RuntimeError(
            f"the site did not answer at {url} in home {home}: {self.log(f'site-{home}')[-2000:]}"
        )

    # -- using ------------------------------------------------------------------------------

    @property
    def site_url(self) -> str:
        """The site's address as every home sees it (its own server)."""
        return f"http://{SITE_HOST}:{self.port}/"

    @property
    def stun_text(self) -> str:
        """What a player types in the STUN field to use the lab's STUN servers."""
        return " ".join(f"stun:{ip}:3478" for ip in STUN_IPS)

    def turn_settings(self) -> dict[str, str]:
        """The TURN fields for the lab's coturn."""
        return {
            "url": f"turn:{STUN_IPS[0]}:3478?transport=udp",
            "username": TURN_USER,
            "credential": TURN_PASSWORD,
        }

    def chromium_wrapper(self, home: str, chromium: str) -> str:
        """An executable that runs Chromium inside `home` (for Playwright's executable_path)."""
        path = self.tmp / f"chromium-{home}"
        path.write_text(f'#!/bin/sh\nexec ip netns exec {self.ns[home]} {chromium} "$@"\n')
        path.chmod(0o755)
        return str(path)

    def close(self) -> None:
        """Stop what the lab started and delete every namespace (and with them links and rules)."""
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        for ns in self.ns.values():
            run("ip", "netns", "del", ns, check=False)
        shutil.rmtree(self.tmp, ignore_errors=True)
