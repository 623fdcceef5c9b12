"""Abuse benchmark for `colosseum serve`.  Prints figures; asserts nothing.

Starts the SSH server in its own process on a random loopback port (127.0.0.1) with a password
and ``--open``, and a 2-player game (two protocol-level players and a bot) that plays on
throughout.  Then, one after the other, each flood for at most ``--seconds`` seconds, every loop
bounded in count and time, every connection to this machine only (sources 127.0.0.x):

* password guessing from one address (many connections at once, 3 tries each);
* password guessing for one name from many addresses;
* sessions from one address, a new key for every connection (``--open``);
* sessions from many addresses until the server is full (``--memory-budget``): the memory of
  the client processes at the cap, and the message a refused session gets;
* tables (``--tables``): 100 new identities from one address each asking for a table of hard
  bots (how many the server makes), then ``--tables`` tables of hard bots from as many
  addresses as they need, nobody watching: a message's round trip to the server (median and
  worst, before and during) and the game's moves meanwhile.

For each: tries per second the server let through (answered), sessions one address can hold,
memory at the cap, and the longest gap between two moves of the game while it ran (and before
any flood, for comparison).

    python benchmarks/bench_abuse.py [--seconds 10] [--budget-sessions 12] [--tables 50]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import asyncssh

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import NetError, ProtoClient
from colosseum.tui.net.host.ssh import SESSION_MB
from colosseum.tui.net.host.testing import Player, free_port, plain
from colosseum.tui.net.host.tokens import load_secret, make_token

PASSWORD = "correct horse battery staple"
LOBBY_MARK = "Lobby - you are"  # the lobby's title (tui/net/lobby.py)
SERVE = (
    "import argparse, sys\n"
    "from colosseum.tui.net.host.ssh import add_serve_arguments, cmd_serve\n"
    "ap = argparse.ArgumentParser()\n"
    "add_serve_arguments(ap)\n"
    "sys.exit(cmd_serve(ap.parse_args(sys.argv[1:])))\n"
)


def rss_kb(pid: int, field: str = "VmRSS:") -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def pss_kb(pid: int) -> int:
    """Proportional set size: shared pages divided among the processes sharing them."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    """Every process under ``pid``: the client processes, forked by the fork server or started
    by the server itself, and the fork server."""
    parent: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            parent[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [k for k, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


class Game:
    """Two protocol-level players and a bot, on their own thread and event loop (so that the
    floods this script makes cannot hold them up); notes when each move arrives."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self, address: str, secret: bytes) -> None:
        async def run() -> None:
            a = await ProtoClient.connect(address, make_token(secret, "key:game-a", "ann"))
            b = await ProtoClient.connect(address, make_token(secret, "key:game-b", "ben"))
            task = asyncio.ensure_future(self._games(a, b))
            while not self.stop.is_set() and not task.done():
                await asyncio.sleep(0.1)
            task.cancel()

        self.thread = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
        self.thread.start()

    async def _games(self, a: ProtoClient, b: ProtoClient) -> None:
        """One game after another, for as long as the benchmark runs."""
        for _ in range(1000):
            a.send(P.CreateTable(seats=["human", "human", "random"], sit=0))
            tid = (await a.expect(lambda m: isinstance(m, P.Joined))).table.id
            b.send(P.Join(table=tid, seat=1))
            joined = await b.expect(lambda m: isinstance(m, P.Joined))
            players = [Player(a, tid, 0, seed=0), Player(b, tid, 1, seed=1)]
            for p in players:
                p.take(joined)
            await self._play(players)
            for c in (a, b):
                c.send(P.Leave(table=tid))

    async def _play(self, players: list[Player]) -> None:
        """The two people play their bots' moves; every move heard of is timed."""
        n = 0
        while not all(p.over() for p in players):
            for p in players:
                try:
                    await p.pump(timeout=0.01)
                    if p.n > n:
                        n = p.n
                        self.times.append(time.monotonic())
                    if p.my_turn():
                        await p.act_once()
                except (TimeoutError, NetError):
                    continue

    def longest_gap(self, t0: float, t1: float) -> float:
        ts = [t for t in self.times if t0 <= t <= t1]
        if len(ts) < 2:
            return float("inf")
        return max(b - a for a, b in zip(ts, ts[1:], strict=False))

    def moves(self, t0: float, t1: float) -> int:
        return sum(1 for t in self.times if t0 <= t <= t1)


class Guesser(asyncssh.SSHClient):
    """Three wrong passwords on one connection; counts the answers."""

    answered = 0

    def __init__(self) -> None:
        self.left = 3

    def password_auth_requested(self) -> str | None:
        if self.left == 0:
            return None
        if self.left < 3:
            Guesser.answered += 1  # the previous try was answered (refused)
        self.left -= 1
        return f"guess-{time.monotonic()}"


async def guess_flood(port: int, sources: list[str], user: str | None, seconds: float, workers: int) -> int:
    """Wrong passwords from ``sources`` for ``seconds``; returns the tries answered."""
    Guesser.answered = 0
    end = time.monotonic() + seconds
    done = 0

    async def worker(i: int) -> None:
        nonlocal done
        while time.monotonic() < end:
            try:
                async with asyncssh.connect(
                    "127.0.0.1",
                    port,
                    username=user or f"user{i}-{done}",
                    client_factory=Guesser,
                    known_hosts=None,
                    agent_path=None,
                    client_keys=None,
                    preferred_auth="password",
                    local_addr=(sources[i % len(sources)], 0),
                    login_timeout=max(1.0, end - time.monotonic()),
                ):
                    pass
            except asyncssh.PermissionDenied:
                done += 1  # refused: the last try of the connection was answered too
                Guesser.answered += 1
            except (TimeoutError, asyncssh.Error, OSError):
                await asyncio.sleep(0.05)  # cut off (too many connections): try again soon

    tasks = [asyncio.ensure_future(worker(i)) for i in range(workers)]
    await asyncio.wait(tasks, timeout=seconds + 5)
    for t in tasks:
        t.cancel()
    return Guesser.answered


async def open_sessions(
    port: int, sources: list[str], limit: int, seconds: float, conns: list, prefix: str
) -> tuple[int, str]:
    """Sessions with a PTY, a new key each, from ``sources`` in turn, until one is refused (or
    ``limit``); returns (sessions in the lobby, the refusal line)."""
    end = time.monotonic() + seconds
    ok = 0
    refusal = ""
    for i in range(limit):
        if time.monotonic() > end:
            break
        try:
            conn = await asyncssh.connect(
                "127.0.0.1",
                port,
                username=f"{prefix}{i}",
                client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                known_hosts=None,
                agent_path=None,
                local_addr=(sources[i % len(sources)], 0),
            )
        except (asyncssh.Error, OSError) as exc:
            refusal = f"connection refused: {exc}"
            break
        conns.append(conn)
        proc = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        buf = b""
        while time.monotonic() < end + 30:
            try:
                data = await asyncio.wait_for(proc.stdout.read(65536), 1.0)
            except TimeoutError:
                continue
            if not data:
                break
            buf += data
            if LOBBY_MARK.encode() in buf or b"Colosseum:" in buf:
                break
        text = plain(buf)
        if LOBBY_MARK in text:
            ok += 1
        else:
            refusal = text.strip().splitlines()[-1] if text.strip() else "(closed)"
            break
    return ok, refusal


async def round_trips(c: ProtoClient, seconds: float) -> list[float]:
    """Ping the server for ``seconds`` (ten a second): each answer's time in seconds."""
    out: list[float] = []
    end = time.monotonic() + seconds
    ref = 0
    while time.monotonic() < end:
        ref += 1
        t0 = time.monotonic()
        c.send(P.Ping(ref=ref))
        await c.expect(lambda m, r=ref: isinstance(m, P.Pong) and m.ref == r, timeout=30)
        out.append(time.monotonic() - t0)
        await asyncio.sleep(0.1)
    return out


def trips(ts: list[float]) -> str:
    ts = sorted(ts)
    return f"median {1000 * ts[len(ts) // 2]:.1f} ms, worst {1000 * ts[-1]:.1f} ms ({len(ts)} pings)"


async def table_flood(address: str, secret: bytes, tables: int, seconds: float) -> tuple[str, str, list]:
    """Issue 24's table floods (see the module's text).  Returns what each showed, and the
    connections to close."""
    bots = ["hard", "hard", "hard"]
    made = 0
    refusals: set[str] = set()
    for i in range(100):  # identities are free; the address is one
        c = await ProtoClient.connect(address, make_token(secret, f"key:flood-{i}", f"flood{i}", "127.0.3.1"))
        c.send(P.CreateTable(seats=bots, sit=-1))
        m = await c.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
        if isinstance(m, P.Joined):
            made += 1
            c.send(P.Leave(table=m.table.id))
        else:
            refusals.add(m.message)
        await c.close()
    one = f"{made} tables made of 100 asked; refused with {sorted(refusals)!r}"
    probe = await ProtoClient.connect(address, make_token(secret, "key:probe", "probe"))
    quiet = await round_trips(probe, min(5.0, seconds))
    conns = []
    made = 0
    for i in range(tables):
        source = f"127.0.4.{i // 10 + 1}"
        c = await ProtoClient.connect(address, make_token(secret, f"key:hard-{i}", f"hard{i}", source))
        conns.append(c)
        c.send(P.CreateTable(seats=bots, sit=-1))
        m = await c.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
        if isinstance(m, P.Joined):
            made += 1
            c.send(P.Leave(table=m.table.id))  # nobody watches: the bots play on alone
    busy = await round_trips(probe, seconds)
    conns.append(probe)
    many = (
        f"{made} tables of hard bots from {(tables + 9) // 10} addresses; round trip before {trips(quiet)}, "
        f"during {trips(busy)}"
    )
    return one, many, conns


async def main(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="colosseum-abuse-"))
    data = tmp / "data"
    port = free_port()
    budget = args.budget_sessions * SESSION_MB
    out = open(tmp / "serve.out", "wb")  # noqa: SIM115 - open while the server runs
    env = dict(os.environ, COLOSSEUM_BOT_DELAY="0.05", COLOSSEUM_SERVER_PASSWORD=PASSWORD)
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            SERVE,
            "--open",
            "--listen",
            f"127.0.0.1:{port}",
            "--data",
            str(data),
            "--memory-budget",
            str(budget),
        ],
        stdout=out,  # a file: a pipe nobody reads would block the server once full
        stderr=subprocess.STDOUT,
        env=env,
    )
    for _ in range(300):
        if "listening on" in (tmp / "serve.out").read_text() or server.poll() is not None:
            break
        time.sleep(0.1)
    print(f"server pid {server.pid} on 127.0.0.1:{port}; memory budget {budget} MB ({args.budget_sessions} sessions)")
    conns: list = []
    try:
        secret = load_secret(data)
        game = Game()
        game.start(f"unix:{data / 'tables.sock'}", secret)
        t0 = time.monotonic()
        await asyncio.sleep(min(5.0, args.seconds))
        t1 = time.monotonic()
        print(f"quiet: {game.moves(t0, t1)} moves in {t1 - t0:.1f} s, longest gap {game.longest_gap(t0, t1):.2f} s")

        def checks() -> int:
            """The server's count of passwords compared (it logs its counters on SIGUSR1)."""
            mark = (data / "server.log").read_text().count("stats: ")
            server.send_signal(signal.SIGUSR1)
            for _ in range(100):
                text = (data / "server.log").read_text()
                if text.count("stats: ") > mark:
                    return int(text.rsplit("stats: password checks ", 1)[1].split(",")[0])
                time.sleep(0.05)
            return -1

        def report(what: str, t0: float, t1: float, extra: str) -> None:
            print(
                f"{what}: {extra}; game: {game.moves(t0, t1)} moves, longest gap {game.longest_gap(t0, t1):.2f} s",
                flush=True,
            )

        for what, sources, user in (
            ("password flood, 1 address, 20 connections at once", ["127.0.0.2"], None),
            ("password flood on one name, 20 addresses", [f"127.0.1.{k}" for k in range(1, 21)], "victim"),
        ):
            c0 = checks()
            t0 = time.monotonic()
            n = await guess_flood(port, sources, user, args.seconds, workers=20)
            t1 = time.monotonic()
            checked = checks() - c0
            report(
                what,
                t0,
                t1,
                f"{checked / (t1 - t0):.2f} passwords/s checked by the server ({checked} in {t1 - t0:.0f} s; "
                f"{n} refusals seen by the attacker)",
            )

        t0 = time.monotonic()
        held, why = await open_sessions(port, ["127.0.0.3"], 40, args.seconds * 3, conns, "one")
        t1 = time.monotonic()
        report("sessions from 1 address, a new key each", t0, t1, f"{held} held, then: {why!r}")
        for c in conns:
            c.close()
        conns.clear()
        await asyncio.sleep(3)  # the client processes end

        t0 = time.monotonic()
        sources = [f"127.0.2.{k}" for k in range(1, 40)]
        held, why = await open_sessions(port, sources, 200, args.seconds * 6, conns, "many")
        t1 = time.monotonic()
        kids = children(server.pid)
        rss = sum(rss_kb(k) for k in kids) / 1024
        pss = sum(pss_kb(k) for k in kids) / 1024
        report(
            "sessions from many addresses until full",
            t0,
            t1,
            f"{held} held ({len(kids)} processes: the clients and the fork server: {rss:.0f} MB RSS, {pss:.0f} MB PSS, "
            f"{rss / max(1, held):.0f} MB RSS and {pss / max(1, held):.0f} MB PSS a session), then: {why!r}",
        )
        print(f"server process: {rss_kb(server.pid) / 1024:.0f} MB RSS")
        for c in conns:
            c.close()
        conns.clear()
        if args.tables:
            await asyncio.sleep(3)  # the client processes end
            t0 = time.monotonic()
            one, many, flooders = await table_flood(f"unix:{data / 'tables.sock'}", secret, args.tables, args.seconds)
            t1 = time.monotonic()
            print(f"tables of hard bots from 1 address, 100 identities: {one}", flush=True)
            report("tables of hard bots from many addresses", t0, t1, many)
            for c in flooders:
                await c.close()
        game.stop.set()
    finally:
        for c in conns:
            c.close()
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        out.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each flood")
    ap.add_argument("--budget-sessions", type=int, default=12, help="the memory budget, in sessions")
    ap.add_argument("--tables", type=int, default=50, help="tables of hard bots in the table flood (0: none)")
    asyncio.run(asyncio.wait_for(main(ap.parse_args()), 600))
