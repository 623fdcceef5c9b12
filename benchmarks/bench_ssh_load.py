"""Load benchmark for `colosseum serve`.  Prints figures; asserts nothing.

Starts the SSH server in its own process on a random loopback port, opens N concurrent SSH
sessions with a PTY (each gets its own Textual client process on the server side): per table
``--players`` seated players who join from the lobby with the keyboard and then hand their seat
to a bot (Ctrl+B, so the game runs on its own at ``--bot-delay`` seconds per move), the rest
spectators spread over the tables, who pick their table in the lobby and press s.

For every action a protocol-level observer at the table receives (t0, taken on the observer's
own thread the moment the update arrives, so a busy event loop here cannot make it late), it
looks for the
action's log line on every SSH screen at that table and reports the time from t0 to its
appearance there: per screen (median, p95, worst) and per action on every screen (median,
worst).  Then the server's memory (its own RSS, and its client processes').

    python benchmarks/bench_ssh_load.py [--sessions 50] [--tables 5] [--players 3] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import asyncssh

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.sockets import connect_socket
from colosseum.tui.net.host.testing import free_port, plain
from colosseum.tui.net.host.tokens import load_secret, make_token

GAME_MARK = r"Round \d+/\d+"  # the game header; the lobby has no such text
LOBBY_MARK = "Lobby - you are"  # the lobby's title (tui/net/lobby.py)
SESSIONS_PER_SOURCE = 5  # sessions from one loopback address (the server allows 6)


class Screen:
    """One SSH session with a PTY; keeps every output chunk with its arrival time."""

    def __init__(self, name: str, proc) -> None:
        self.name = name
        self.proc = proc
        self.chunks: list[tuple[float, str]] = []
        self.text = ""  # recent plain text (for waiting on words)
        self.table = ""
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                data = await self.proc.stdout.read(65536)
                if not data:
                    return
                t = time.monotonic()
                txt = plain(data)
                self.chunks.append((t, txt))
                self.text = (self.text + txt)[-20000:]
        except (OSError, asyncssh.Error):  # the session ended
            return

    async def wait_for(self, word: str, timeout: float = 60.0, since: int = 0) -> None:
        """Wait for ``word`` (a regular expression) on the screen."""
        end = time.monotonic() + timeout
        pat = re.compile(word)
        while time.monotonic() < end:
            if pat.search("".join(c for _, c in self.chunks[since:])):
                return
            await asyncio.sleep(0.05)
        raise TimeoutError(f"{self.name}: {word!r} never appeared")

    def send(self, keys: str) -> None:
        self.proc.stdin.write(keys.encode())


class Observer:
    """Watches one table over a blocking socket on its own thread and notes when each update
    arrives.  (Timed in this script's event loop, an update could be noted after a fast screen
    had already drawn it, and that screen's delivery would then be looked for in vain until
    the next move.)"""

    def __init__(self, address: str, token: str, table: str) -> None:
        self.sock = connect_socket(address)
        self.frames = P.FrameBuffer()
        self.sock.sendall(P.encode(P.Hello(version=P.PROTOCOL_VERSION, token=token, client="bench")))
        self.sock.sendall(P.encode(P.Watch(table=table)))
        self.recording = False
        self.updates: list[tuple[float, str]] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                return
            t = time.monotonic()
            if not data:
                return
            for body in self.frames.feed(data):
                m = P.decode(body)
                if self.recording and isinstance(m, P.Update) and m.events:
                    self.updates.append((t, m.events[-1].text[:14]))

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def pss_kb(pid: int) -> int:
    """Proportional set size: pages shared with other processes counted by their share."""
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


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process."""
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def system_cpu() -> tuple[int, int, int]:
    """(all, idle, stolen) jiffies of the machine since boot (stolen: a virtual machine's
    processors busy with others on its host)."""
    f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(f), f[3] + f[4], f[7] if len(f) > 7 else 0


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Host:
    """One ``colosseum serve`` process (``--host-id`` when several share ``database``)."""

    def __init__(self, data: Path, index: int, args, database: str | None) -> None:
        self.data = data
        self.port = free_port()
        env = dict(os.environ, COLOSSEUM_BOT_DELAY=str(args.bot_delay))
        cmd = [sys.executable, "-m", "colosseum", "serve", "--open", "--listen", f"127.0.0.1:{self.port}"]
        cmd += ["--data", str(data), "--bot-timeout", "3600"]
        cmd += ["--fixed-seeds"]  # the tables are made with seeds: the same games each run
        if database:
            cmd += ["--database", database, "--host-id", f"h{index + 1}", "--peer-listen", "127.0.0.1:0"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        self.pid = self.proc.pid
        self.address = f"unix:{data / 'tables.sock'}"
        want = "served to the other hosts on" if database else "listening on"
        while True:
            line = self.proc.stdout.readline().decode()
            if want in line:
                if database:
                    self.address = line.rsplit(" ", 1)[1].strip()
                break
            if not line:
                raise SystemExit(f"host {index + 1} did not start")
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def shared_secret(database: str) -> bytes:
    from colosseum.tui.net.host.store import cluster
    from colosseum.tui.net.host.store.db import make_engine

    engine = make_engine(database)
    try:
        async with engine.connect() as conn:
            return bytes.fromhex(await cluster.shared_secret(conn, ""))
    finally:
        await engine.dispose()


async def main(args) -> dict:
    """One load run; prints its figures and returns them.  ``args.hosts`` > 1: that many hosts
    on ``args.database`` (PostgreSQL), the sessions spread over them in turn."""
    tmp = Path(tempfile.mkdtemp(prefix="colosseum-bench-"))
    n_hosts = max(1, getattr(args, "hosts", 1))
    database = getattr(args, "database", None) if n_hosts > 1 else None
    servers = [Host(tmp / f"data{k + 1}", k, args, database) for k in range(n_hosts)]
    data = servers[0].data
    print(f"{n_hosts} server(s): " + ", ".join(f"pid {h.pid} on 127.0.0.1:{h.port}" for h in servers))
    figures: dict = {"hosts": n_hosts, "sessions": args.sessions}
    screens: list[Screen] = []
    observers: dict[str, Observer] = {}
    hosts: list[ProtoClient] = []
    conns = []
    try:
        secret = await shared_secret(database) if database else load_secret(data)
        n_players = args.tables * args.players
        n_spect = max(0, args.sessions - n_players)
        # the tables, each created by a host that watches it (a player may open only a few)
        tids = []
        where: dict[str, str] = {}
        for i in range(args.tables):
            address = servers[i % n_hosts].address  # the tables spread over the hosts
            host = await ProtoClient.connect(address, make_token(secret, f"key:bench-host-{i}", f"host{i}"))
            hosts.append(host)
            seats = ["human"] * args.players + ["random"] * (args.seats - args.players)
            host.send(P.CreateTable(seats=seats, sit=-1, name=f"bench {i + 1}", seed=1000 + i))
            j = await host.expect(lambda m: isinstance(m, P.Joined))
            tids.append(j.table.id)
            where[j.table.id] = address
            await asyncio.sleep(0.01)  # the lobby lists waiting tables oldest first
        for tid in tids:
            observers[tid] = Observer(where[tid], make_token(secret, f"key:obs-{tid}", f"obs-{tid}"), tid)
        if database:  # every host's lobby lists every table (published within a second)
            await asyncio.sleep(2.0)

        # open every SSH session (each starts a client process on the server)
        t_open = time.monotonic()
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(args.sessions)]
        sem = asyncio.Semaphore(args.batch)

        async def open_one(i: int) -> Screen:
            name = f"p{i:02d}" if i < n_players else f"s{i:02d}"
            async with sem:
                # players come from several addresses (the server caps sessions per address)
                source = f"127.0.0.{2 + i // SESSIONS_PER_SOURCE}"
                conn = await asyncssh.connect(
                    "127.0.0.1",
                    servers[i % n_hosts].port,  # as a TCP balancer would spread them
                    username=name,
                    client_keys=[keys[i]],
                    known_hosts=None,
                    agent_path=None,
                    local_addr=(source, 0),
                )
                conns.append(conn)
                env = {"COLORTERM": args.colorterm} if args.colorterm else {}
                proc = await conn.create_process(
                    term_type=args.term, term_size=(args.cols, args.rows), encoding=None, env=env
                )
                sc = Screen(name, proc)
                await sc.wait_for(LOBBY_MARK, timeout=180)
                return sc

        screens = list(await asyncio.gather(*(open_one(i) for i in range(args.sessions))))
        print(f"{len(screens)} SSH sessions with a PTY in the lobby after {time.monotonic() - t_open:.1f} s")

        # players join from the lobby, table after table (the first waiting table is row 0)
        async def seated(tid: str, name: str) -> bool:
            host.send(P.ListTables())
            m = await host.expect(lambda m: isinstance(m, P.Tables), timeout=10)
            t = next(t for t in m.tables if t.id == tid)
            if os.environ.get("BENCH_DEBUG"):
                print(name, [(s.name, s.holder) for s in t.seats])
            return any(s.holder and s.name == name for s in t.seats)

        for i, sc in enumerate(screens[:n_players]):
            tid = tids[i // args.players]
            sc.table = tid
            for _attempt in range(5):
                sc.send("r\r")
                for _ in range(40):
                    await asyncio.sleep(0.05)
                    if await seated(tid, sc.name):
                        break
                else:
                    continue
                break
            else:
                print(f"{sc.name} could not join table {tid}; its screen: {sc.text[-1500:]!r}")
        t_join = time.monotonic()
        for sc in screens[:n_players]:
            await sc.wait_for(GAME_MARK, timeout=120)
            sc.send("\x02")  # Ctrl+B: a bot plays my seat
        # spectators: lobby row k = table k (all tables playing, oldest first)
        order = list(tids)
        for i, sc in enumerate(screens[n_players:]):
            tid = tids[i % len(tids)]
            sc.table = tid
            sc.send("r" + "\x1b[B" * order.index(tid) + "s")
        for sc in screens[n_players:]:
            await sc.wait_for(GAME_MARK, timeout=120)
        print(f"everyone at a table {time.monotonic() - t_join:.1f} s after the joins")
        # Fifty clients have just drawn their first game screen (and collected the lobby's
        # garbage): let that settle so what follows measures play, not the table starting.
        await asyncio.sleep(args.settle)
        print(f"measuring {args.seconds} s (after {args.settle} s to settle)")

        # measure
        marks = {sc.name: len(sc.chunks) for sc in screens}
        kids0 = {k: cpu_s(k) for h in servers for k in children(h.pid)}
        srv_cpu0 = sum(cpu_s(h.pid) for h in servers)
        me_cpu0 = time.process_time()
        sys0 = system_cpu()
        t_meas = time.monotonic()
        for o in observers.values():
            o.recording = True
        await asyncio.sleep(args.seconds)
        for o in observers.values():
            o.recording = False
        updates = sorted((tid, t, needle) for tid, o in observers.items() for t, needle in o.updates)
        kids_cpu = sum(cpu_s(k) - c0 for k, c0 in kids0.items())
        srv_cpu = sum(cpu_s(h.pid) for h in servers) - srv_cpu0
        me_cpu = time.process_time() - me_cpu0
        sys1 = system_cpu()
        machine_busy = 1 - (sys1[1] - sys0[1]) / max(1e-9, sys1[0] - sys0[0])
        stolen = (sys1[2] - sys0[2]) / max(1e-9, sys1[0] - sys0[0])
        wall = time.monotonic() - t_meas
        await asyncio.sleep(3)  # let the last frames arrive

        first_paint: list[float] = []  # first output on a screen after the action
        per_screen: list[float] = []  # the action's log line on a screen
        per_action: list[float] = []  # ... on every screen of its table
        missed = busy = drawn_early = 0
        slowest: list[tuple[float, str, str, str]] = []
        for tid, t0, needle in updates:
            worst = 0.0
            complete = True
            for sc in screens:
                if sc.table != tid:
                    continue
                chunks = sc.chunks[marks[sc.name] :]
                if any(t0 - 0.3 <= t < t0 for t, _ in chunks):
                    busy += 1  # still drawing something else: first output is ambiguous
                else:
                    nxt = next((t for t, _ in chunks if t >= t0), None)
                    if nxt is not None and nxt - t0 < 5:
                        first_paint.append(nxt - t0)
                early = "".join(c for t, c in chunks if t0 - 0.5 <= t < t0)
                if needle in early:
                    # drawn before the observer's clock saw the update (this script's process
                    # was not scheduled): no honest figure for this delivery
                    drawn_early += 1
                    complete = False
                    continue
                acc = ""
                seen = None
                for t, txt in chunks:
                    if t < t0:
                        continue
                    if t > t0 + 5:
                        break
                    acc += txt
                    if needle in acc:
                        seen = t - t0
                        break
                if seen is not None and seen > 1.0 and os.environ.get("BENCH_DEBUG"):
                    before = "".join(c for t, c in chunks if t0 - 1.0 <= t < t0)
                    after = [(round(t - t0, 3), c) for t, c in chunks if t0 <= t <= t0 + seen]
                    with open(os.environ["BENCH_DEBUG"], "a") as fh:
                        fh.write(f"=== {sc.name} {needle!r} seen {seen:.3f}\nBEFORE t0 (1 s): {before!r}\n")
                        for dt, c in after:
                            fh.write(f"AFTER +{dt}: {c!r}\n")
                if seen is None:
                    missed += 1
                    complete = False
                    continue
                per_screen.append(seen)
                slowest.append((seen, sc.name, tid, needle))
                worst = max(worst, seen)
            if complete:
                per_action.append(worst)
        ms = 1000.0
        print(
            f"actions observed: {len(updates)} on {len(tids)} tables; screens per table: "
            f"{args.players} players + ~{n_spect / max(1, len(tids)):.0f} spectators"
        )
        if first_paint:
            print(
                f"action -> first redraw on a screen: median {statistics.median(first_paint) * ms:.0f} ms, "
                f"p95 {pct(first_paint, 0.95) * ms:.0f} ms, worst {max(first_paint) * ms:.0f} ms "
                f"({len(first_paint)} deliveries; {busy} skipped, the screen was busy)"
            )
        if per_screen:
            figures["screen_median_ms"] = statistics.median(per_screen) * ms
            figures["screen_p95_ms"] = pct(per_screen, 0.95) * ms
            figures["screen_worst_ms"] = max(per_screen) * ms
            print(
                f"action -> its log line on a screen: median {statistics.median(per_screen) * ms:.0f} ms, "
                f"p95 {pct(per_screen, 0.95) * ms:.0f} ms, worst {max(per_screen) * ms:.0f} ms "
                f"({len(per_screen)} found, {missed} not found within 5 s: wrapped or scrolled past; "
                f"{drawn_early} left out: drawn before the observer noted the update)"
            )
        for seen, name, tid, needle in sorted(slowest)[-args.show_worst :][::-1] if args.show_worst else ():
            print(f"  slow: {seen * ms:.0f} ms on {name} (table {tid}) for {needle!r}")
        if per_action:
            figures["action_median_ms"] = statistics.median(per_action) * ms
            figures["action_worst_ms"] = max(per_action) * ms
            print(
                f"action -> its log line on every screen of its table: median "
                f"{statistics.median(per_action) * ms:.0f} ms, worst {max(per_action) * ms:.0f} ms "
                f"({len(per_action)} actions)"
            )
        screen_updates = sum(1 for tid, _, _ in updates for sc in screens if sc.table == tid)
        print(
            f"CPU while measuring ({wall:.0f} s): server {srv_cpu:.1f} s "
            f"({1000 * srv_cpu / max(1, len(updates)):.1f} ms per action), client processes {kids_cpu:.1f} s "
            f"({1000 * kids_cpu / max(1, screen_updates):.0f} ms per screen update), "
            f"this load script (the 50 SSH clients) {me_cpu:.1f} s; the machine was {100 * machine_busy:.0f}% busy "
            f"({100 * stolen:.0f}% stolen by its host); "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
        )
        srv_kb = sum(rss_kb(h.pid) for h in servers)
        kids = [k for h in servers for k in children(h.pid)]
        kids_kb = sum(rss_kb(k) for k in kids)
        kids_pss = sum(pss_kb(k) for k in kids)
        n = max(1, len(screens))
        figures["server_mib"] = srv_kb / 1024
        figures["pss_mib_per_session"] = kids_pss / 1024 / n
        figures["rss_mib_per_session"] = kids_kb / 1024 / n
        figures["actions"] = len(updates)
        print(
            f"server memory: {srv_kb / 1024:.0f} MiB RSS (the SSH + table server process of each host, in all); "
            f"{len(kids)} processes under it for {len(screens)} sessions (the clients, and the fork server "
            f"if any): {kids_kb / 1024:.0f} MiB RSS in all ({kids_kb / 1024 / n:.0f} MiB a session; "
            f"proportional share {kids_pss / 1024:.0f} MiB, {kids_pss / 1024 / n:.1f} MiB a session)"
        )
    finally:
        for o in observers.values():
            o.close()
        for sc in screens:
            sc.task.cancel()
        for c in conns:
            c.close()
        for h in hosts:
            await h.close()
        await asyncio.sleep(1)
        for h in servers:
            h.stop()
        if not args.keep:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
    return figures


def arguments() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=50)
    ap.add_argument("--tables", type=int, default=5)
    ap.add_argument("--players", type=int, default=3, help="SSH players per table")
    ap.add_argument("--seats", type=int, default=5, help="seats per table (the rest are bots)")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long to measure")
    ap.add_argument("--show-worst", type=int, default=3, help="print the slowest deliveries")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds between everyone seated and measuring")
    ap.add_argument(
        "--bot-delay", type=float, default=2.0, help="seconds between moves at a table (a brisk human pace)"
    )
    ap.add_argument("--batch", type=int, default=10, help="sessions opened at once")
    ap.add_argument("--term", default="xterm-256color", help="terminal type the SSH clients ask for")
    ap.add_argument("--colorterm", default="", help="COLORTERM the SSH clients send (e.g. truecolor)")
    ap.add_argument("--cols", type=int, default=110)
    ap.add_argument("--rows", type=int, default=32)
    ap.add_argument("--keep", action="store_true", help="keep the data folder")
    ap.add_argument("--hosts", type=int, default=1, help="several hosts on --database (benchmarks/bench_cluster.py)")
    ap.add_argument("--database", default=None, help="with --hosts: the PostgreSQL URL they share")
    return ap


if __name__ == "__main__":
    asyncio.run(main(arguments().parse_args()))
