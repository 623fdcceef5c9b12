"""A browser session against an SSH session, in the same run.  Prints figures; asserts nothing.

Starts ``colosseum serve --listen … --web …`` in its own process on loopback ports, then opens
``--sessions`` sessions of each kind, one after the other, each in the lobby:

* **browser**: a one-time link (asked for over the table protocol, as ``w`` in the lobby asks)
  opened in its own context of Debian's Chromium (Playwright, ``executable_path``); the screen is
  read from the terminal's buffer in the page;
* **SSH**: an asyncssh session with a PTY, its screen kept by ``host.testing.Terminal``.

For each: the **time to the first screen** (from opening the link or the connection to the
lobby's title on screen), the **time from a key to the screen's change** (``w`` opens the
screen with a web link, Escape closes it: a small screen whose one request to the table server
takes well under a millisecond on loopback, so the figure is the front's own: the key in, the
client's redraw, the screen out; ``--keys`` of each), and the
**memory of the session's client process** on the server (RSS, and PSS from
``/proc/PID/smaps_rollup``: pages shared with the other clients counted by their share), with the
server's own RSS before and after.

    python benchmarks/bench_web.py [--sessions 3] [--keys 10] [--settle 1]

Needs Chromium (``apt-get install chromium``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.testing import SSHScreen, free_port
from colosseum.tui.net.host.tokens import load_secret, make_token

LOBBY = "Lobby - you are"  # the lobby's title (tui/net/lobby.py)
FORM = "Play in a browser"  # the web link's screen (tui/net/ranks.py)
COLS, ROWS = 100, 30
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"]
SCREEN_JS = """() => {
  const t = (window.colosseumTerminals || [])[0];
  if (!t) return "";
  const b = t.terminal.buffer.active, out = [];
  for (let y = 0; y < t.terminal.rows; y++) { const l = b.getLine(y); out.push(l ? l.translateToString(true) : ""); }
  return out.join("\\n");
}"""


def kb(pid: int, path: str, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/{path}").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def clients_of(server: int) -> dict[int, str]:
    """The server's client processes: pid -> 'web' or 'ssh' (by the front its environment names)."""
    found = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) != server:
                continue
            env = (d / "environ").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if b"COLOSSEUM_NET_TOKEN" in env:
            found[int(d.name)] = "web" if b"COLOSSEUM_FRONT=web" in env else "ssh"
    return found


async def until(check, timeout: float = 60.0, step: float = 0.002) -> float:
    """Seconds until ``check()`` (a coroutine function) is true."""
    t0 = time.monotonic()
    while not await check():
        if time.monotonic() - t0 > timeout:
            raise TimeoutError("the screen never showed it")
        await asyncio.sleep(step)
    return time.monotonic() - t0


class Web:
    def __init__(self, page) -> None:
        self.page = page

    async def text(self) -> str:
        return str(await self.page.evaluate(SCREEN_JS))

    async def press(self, key: str) -> None:
        await self.page.keyboard.press(key)


async def key_times(s: Web | SSHScreen, keys: int) -> list[float]:
    out = []
    for _ in range(keys):
        t0 = time.monotonic()
        await s.press("w")
        await until(lambda: _has(s, FORM))
        out.append(time.monotonic() - t0)
        t0 = time.monotonic()
        await s.press("Escape")
        await until(lambda: _lacks(s, FORM))
        out.append(time.monotonic() - t0)
    return out


async def _has(s: Web | SSHScreen, text: str) -> bool:
    return text in await s.text()


async def _lacks(s: Web | SSHScreen, text: str) -> bool:
    return text not in await s.text()


def start_server(data: Path, ssh_port: int, web_port: int) -> subprocess.Popen:
    env = dict(os.environ, COLOSSEUM_BOT_DELAY="0.05")
    proc = subprocess.Popen(
        [sys.executable, "-m", "colosseum", "serve", "--listen", f"127.0.0.1:{ssh_port}", "--web"]
        + [f"127.0.0.1:{web_port}", "--data", str(data), "--open", "--sessions-per-address", "100"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    assert proc.stdout is not None
    end = time.monotonic() + 30
    while time.monotonic() < end:
        line = proc.stdout.readline().decode()
        if line.startswith("web pages on"):
            return proc
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("the server did not start")


def row(name: str, values: list[float], unit: str = "ms", scale: float = 1000.0) -> str:
    v = sorted(x * scale for x in values)
    p95 = v[min(len(v) - 1, int(round(0.95 * (len(v) - 1))))]
    return (
        f"  {name:<28} median {statistics.median(v):7.0f} {unit}   p95 {p95:7.0f}   worst {v[-1]:7.0f}   (n={len(v)})"
    )


async def run(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("bench_web: Chromium is not installed (apt-get install chromium)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-web-"))
    ssh_port, web_port = free_port(), free_port()
    server = start_server(tmp / "data", ssh_port, web_port)
    base_rss = kb(server.pid, "status", "VmRSS:")
    first: dict[str, list[float]] = {"web": [], "ssh": []}
    keys: dict[str, list[float]] = {"web": [], "ssh": []}
    key = asyncssh.generate_private_key("ssh-ed25519")
    secret = load_secret(tmp / "data")
    conns = []
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
            try:
                for i in range(args.sessions):
                    # a browser session: its link, asked for as w asks, opened in a context of its own
                    name = f"Web {i + 1}"
                    c = await ProtoClient.connect(
                        f"unix:{tmp / 'data' / 'tables.sock'}", make_token(secret, f"guest:w{i}", name)
                    )
                    c.send(P.WebLinkRequest())
                    link = await c.expect(lambda m: isinstance(m, P.WebLink))
                    await c.close()
                    context = await browser.new_context(viewport={"width": 900, "height": 560})
                    page = await context.new_page()
                    w = Web(page)
                    t0 = time.monotonic()
                    await page.goto(link.url)
                    await until(lambda w=w: _has(w, LOBBY))
                    first["web"].append(time.monotonic() - t0)
                    keys["web"] += await key_times(w, args.keys)
                    # an SSH session
                    t0 = time.monotonic()
                    s = await SSHScreen.open(ssh_port, key, f"Ssh {i + 1}", COLS, ROWS)
                    conns.append(s.conn)
                    await until(lambda s=s: _has(s, LOBBY))
                    first["ssh"].append(time.monotonic() - t0)
                    keys["ssh"] += await key_times(s, args.keys)
                await asyncio.sleep(args.settle)  # (let the clients settle before their memory is read)
                clients = clients_of(server.pid)
                mem = {
                    kind: [
                        (kb(p, "status", "VmRSS:"), kb(p, "smaps_rollup", "Pss:"))
                        for p, k in clients.items()
                        if k == kind
                    ]
                    for kind in ("web", "ssh")
                }
                server_rss = kb(server.pid, "status", "VmRSS:")
                cols = (await Web(page).text()).split("\n")[0]
                print(
                    f"bench_web: {args.sessions} browser and {args.sessions} SSH sessions, in the lobby; {os.cpu_count()} cores"
                )
                print(f"  (browser terminal {len(cols)} columns; SSH {COLS}x{ROWS})")
                for kind, label in (("web", "browser"), ("ssh", "SSH")):
                    print(f"{label}:")
                    print(row("time to first screen", first[kind]))
                    print(row("key to screen change", keys[kind]))
                    if mem[kind]:
                        rss = [r for r, _ in mem[kind]]
                        pss = [p for _, p in mem[kind]]
                        print(
                            f"  client process memory        RSS {statistics.mean(rss) / 1024:5.1f} MB   PSS {statistics.mean(pss) / 1024:5.1f} MB   (mean of {len(rss)})"
                        )
                print(
                    f"server process RSS: {base_rss / 1024:.1f} MB at start, {server_rss / 1024:.1f} MB with the sessions open"
                )
            finally:
                await browser.close()
    finally:
        for conn in conns:
            conn.close()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=3, help="sessions of each kind")
    ap.add_argument("--keys", type=int, default=10, help="w / Escape pairs per session")
    ap.add_argument("--settle", type=float, default=1.0, help="seconds before the memory is read")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
