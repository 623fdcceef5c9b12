"""A failover drill for several hosts (issue 30), shared by tests/net/test_cluster_failover.py and
scripts/cluster_failover.py: real ``colosseum serve --host-id`` processes on one throwaway
PostgreSQL database, players that are protocol clients (``tui.net.hosts.HostsClient``, the very
client of the SSH sessions' client processes) each on a host of their own, a host killed with
SIGKILL (or paused with SIGSTOP) in the middle of play, the players reconnecting to the hosts
still up, and the logs checked in the database afterwards.

Every player keeps the actions the server acknowledged (the position number and the action):
after the games, each must be in the table's final log at that number (so none twice), the log's
digest chain must verify and the game must be over.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from colosseum.core.logread import parse_log
from colosseum.core.registry import rules as rules_of
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import NetError
from colosseum.tui.net.host.tokens import make_token
from colosseum.tui.net.hosts import HostsClient

LEASE = "3"  # seconds: a dead host's tables are taken over this long after its last renewal


class Host:
    """One ``colosseum serve`` host of several."""

    def __init__(self, root: Path, name: str, url: str, tls: bool = False, lease: str = LEASE) -> None:
        self.name, self.url, self.tls, self.lease = name, url, tls, lease
        self.data = root / name
        self.proc: subprocess.Popen[bytes] | None = None
        self.peer = ""
        self.ssh_port = 0
        self.out: list[str] = []

    def start(self) -> None:
        env = dict(os.environ) | {"COLOSSEUM_LEASE_SECONDS": self.lease, "COLOSSEUM_BOT_DELAY": "0.01"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "colosseum", "serve", "--listen", "127.0.0.1:0", "--data", str(self.data)]
            + ["--database", self.url, "--host-id", self.name, "--peer-listen", "127.0.0.1:0", "--open"]
            + ["--turn-timeout", "0", "--bot-timeout", "600", "--idle-minutes", "0", "--fixed-seeds"]
            + (["--peer-tls"] if self.tls else []),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
        )

    def wait_started(self, timeout: float = 60.0) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            line = self.proc.stdout.readline().decode()
            self.out.append(line)
            if line.startswith("listening on "):
                self.ssh_port = int(line.split()[2].rpartition(":")[2])
            if "served to the other hosts on " in line:
                self.peer = line.rsplit(" ", 1)[1].strip()
                threading.Thread(target=self._drain, daemon=True).start()
                return
            if not line and self.proc.poll() is not None:
                break
        raise AssertionError(f"host {self.name} did not start: " + "".join(self.out))

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.out.append(raw.decode(errors="replace"))

    def wait_logged(self, text: str, timeout: float = 30.0) -> None:
        """Until ``text`` is in what the host has printed (it is started)."""
        end = time.monotonic() + timeout
        while not any(text in line for line in list(self.out)):
            if time.monotonic() > end:
                raise AssertionError(f"host {self.name} did not log {text!r}: " + "".join(self.out))
            time.sleep(0.1)

    @property
    def up(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)
        if sig == signal.SIGKILL:
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGCONT)
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def db(url: str, fn: Any) -> Any:
    """``fn(conn)`` on the database, from the drill (its own engine, its own loop)."""
    from colosseum.tui.net.host.store.db import make_engine

    async def go() -> Any:
        engine = make_engine(url)
        try:
            async with engine.begin() as conn:
                return await fn(conn)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def shared_secret(url: str) -> bytes:
    from sqlalchemy import select

    from colosseum.tui.net.host.store import schema as S

    async def read(conn: Any) -> str:
        row = (await conn.execute(select(S.store_meta.c.value).where(S.store_meta.c.key == "cluster_secret"))).first()
        return str(row.value)

    return bytes.fromhex(db(url, read))


@dataclass
class Player:
    """A person at one table: their host, what the server acknowledged of theirs."""

    name: str
    host: int
    secret: bytes
    hosts: list[Host]
    game: str = ""
    table: str = ""
    seat: int = -1
    client: HostsClient | None = None
    acked: list[tuple[int, bytes]] = field(default_factory=list)
    reconnects: int = 0
    session: Any = None  # the game's session once it is over
    error: str = ""
    done: bool = False
    # the kill point: from ``hold_at`` actions on, no move until ``hold`` is set (so that the
    # kill lands in the middle of the game, however fast the random players play)
    hold_at: int = -1
    hold: threading.Event | None = None

    def connect(self) -> HostsClient:
        token = make_token(self.secret, f"key:{self.name}", self.name)
        self.client = HostsClient(self.hosts[self.host].peer, token)
        return self.client

    def rejoin(self, deadline: float) -> Any:
        """Back at the seat: through this player's host, else another that is up."""
        while time.monotonic() < deadline:
            try:
                if self.client is None or self.client.closed.is_set():
                    if not self.hosts[self.host].up:  # as a player's ssh would land on another host
                        self.host = next(i for i, h in enumerate(self.hosts) if h.up)
                    self.connect()
                assert self.client is not None
                joined = self.client.join(self.table, self.seat)
                self.reconnects += 1
                return self.client.session_for(joined)
            except (NetError, OSError, ConnectionError, StopIteration):
                time.sleep(0.3)
        raise AssertionError(f"{self.name} could not get back to table {self.table}")

    def play(self, session: Any, rng: random.Random, deadline: float) -> None:
        """Random legal moves whenever it is this seat's turn, until the game is over."""
        from colosseum.core.errors import RuleError

        rules = rules_of(self.game)
        while time.monotonic() < deadline:
            state = session.state
            if rules.to_act(state) < 0:
                self.done, self.session = True, session
                return
            if session.lost or session.client.closed.is_set():
                session = self.rejoin(deadline)
                continue
            if rules.to_act(state) != self.seat:
                time.sleep(0.005)
                continue
            if self.hold is not None and 0 <= self.hold_at <= len(session.actions) and not self.hold.is_set():
                self.hold.wait(max(0.0, deadline - time.monotonic()))
                continue
            options = rules.legal_actions(state)
            action = options[rng.randrange(len(options))]
            at = len(session.actions)
            try:
                session.submit(action)
            except RuleError:
                time.sleep(0.02)  # refused (a stale view, the table moving): look again
                continue
            self.acked.append((at, rules.encode(action)))
        raise AssertionError(f"{self.name}: the game at {self.table} did not end in time")


def lobby_has(client: HostsClient, table: str, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if any(t.id == table for t in client.list_page().tables):
            return
        time.sleep(0.1)
    raise AssertionError(f"table {table} never reached this host's lobby")


@dataclass
class Drill:
    """Three hosts, two tables of three people, each table with people on two hosts."""

    root: Path
    url: str
    seed: int = 1
    tls: bool = False  # the hosts' peer ports speak TLS (serve --peer-tls)
    hosts: list[Host] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)

    def start(self, n_hosts: int = 3) -> None:
        self.hosts = [Host(self.root, f"h{i + 1}", self.url, self.tls) for i in range(n_hosts)]
        self.hosts[0].start()
        self.hosts[0].wait_started()  # (the first writes the schema and the shared secret)
        for h in self.hosts[1:]:
            h.start()
        for h in self.hosts[1:]:
            h.wait_started()

    def seat_players(self, layout: list[tuple[str, list[int]]]) -> None:
        """``layout``: per table, its game and the host of each seat's player (the first
        creates the table on their host)."""
        secret = shared_secret(self.url)
        k = 0
        for game, where in layout:
            made: P.Joined | None = None
            for seat, host in enumerate(where):
                p = Player(f"p{k}", host, secret, self.hosts, game=game, seat=seat)
                k += 1
                client = p.connect()
                if made is None:
                    made = client.create_table(
                        seats=["human"] * len(where), sit=0, seed=self.seed + len(self.tables), game=game
                    )
                    p.table = made.table.id
                    self.tables.append(p.table)
                else:
                    p.table = made.table.id
                    lobby_has(client, p.table)
                    client.join(p.table, seat)
                self.players.append(p)

    def play(
        self,
        kill: tuple[int, int] | None = None,
        pause: float = 0.0,
        timeout: float = 240.0,
        outage: Any = None,
        sig: int = signal.SIGKILL,
    ) -> dict[str, Any]:
        """Everyone plays to the end; ``kill`` (table, actions): ``sig`` (SIGKILL; SIGTERM: the
        host stops as an operator stops it) to the host owning that table once it has that many
        actions (``pause`` > 0: SIGSTOP it that many seconds, then SIGCONT, instead; ``outage``:
        call it instead, e.g. to stop the database a while)."""
        deadline = time.monotonic() + timeout
        threads, errors = [], []

        def run(p: Player, rng: random.Random) -> None:
            try:
                assert p.client is not None
                joined = p.client.join(p.table, p.seat)  # (already seated: the game's view)
                p.play(p.client.session_for(joined), rng, deadline)
            except BaseException as exc:  # noqa: BLE001 - reported by the drill
                p.error = f"{type(exc).__name__}: {exc}"
                errors.append(p.error)

        for i, p in enumerate(self.players):
            t = threading.Thread(target=run, args=(p, random.Random(self.seed * 100 + i)), daemon=True)
            threads.append(t)
        held = threading.Event()
        at_table = [p for p in self.players if kill is not None and p.table == self.tables[kill[0]]]
        for p in at_table:
            p.hold_at, p.hold = kill[1] if kill is not None else -1, held
        for t in threads:
            t.start()
        killed = ""
        try:
            if kill is not None:
                table, at = kill
                owner = self._wait_for_actions(self.tables[table], at, deadline, lambda: all(p.done for p in at_table))
                host = next(h for h in self.hosts if h.name == owner)
                killed = owner
                # the players go on as the fault begins: their moves meet it (a paused host's
                # are answered once it wakes up, fenced; the database's are refused while it is away)
                if outage is not None:
                    held.set()
                    outage()
                elif pause > 0:
                    host.signal(signal.SIGSTOP)
                    held.set()
                    time.sleep(pause)
                    host.signal(signal.SIGCONT)
                else:
                    host.signal(sig)
        finally:
            held.set()
        for t in threads:
            t.join(max(1.0, deadline - time.monotonic()))
        return {"killed": killed, "errors": errors}

    def _wait_for_actions(self, table: str, at: int, deadline: float, over: Any = None) -> str:
        from sqlalchemy import func, select

        from colosseum.tui.net.host.store import schema as S

        async def count(conn: Any) -> tuple[int, str]:
            n = (
                await conn.execute(select(func.count()).select_from(S.log_lines).where(S.log_lines.c.table_id == table))
            ).scalar_one()
            row = (await conn.execute(select(S.leases.c.host).where(S.leases.c.table_id == table))).first()
            return int(n), row.host if row else ""

        while time.monotonic() < deadline:
            n, owner = db(self.url, count)
            if n >= at + 1 and owner:  # (the header is line 1)
                return owner
            if over is not None and over():
                raise AssertionError(f"table {table}'s game ended at {n - 1} lines, before the kill point ({at})")
            time.sleep(0.05)
        raise AssertionError(f"table {table} never reached {at} actions")

    def check(self) -> dict[str, Any]:
        """Every acknowledged action in its table's final log at its number; the chain verifies;
        each game over.  Returns figures."""
        from colosseum.tui.net.host.store import cluster

        figures: dict[str, Any] = {"actions": {}, "acked": 0, "gens": {}}
        for tid in self.tables:
            data = db(self.url, lambda c, tid=tid: cluster.export_log(c, tid))
            log = parse_log(data)
            assert log.error is None, f"table {tid}: {log.error}"
            assert log.rules is not None and log.rules.is_over(log.state), f"table {tid}: the game is not over"
            rules = log.rules
            encoded = [rules.encode(a) for a in log.actions]
            for p in self.players:
                if p.table != tid:
                    continue
                for at, action in p.acked:
                    assert at < len(encoded) and encoded[at] == action, (
                        f"{p.name}'s acknowledged action {at + 1} is not in table {tid}'s log"
                    )
                figures["acked"] += len(p.acked)
            figures["actions"][tid] = len(log.actions)
            figures["gens"][tid] = db(self.url, lambda c, tid=tid: _gens(c, tid))
        return figures

    def close(self) -> None:
        for p in self.players:
            if p.client is not None:
                p.client.close()
        for h in self.hosts:
            h.stop()


async def _gens(conn: Any, table: str) -> list[tuple[int, int, int]]:
    """(generation, first line, last line) of the table's log lines: a host that lost the table
    wrote nothing after the next one began."""
    from sqlalchemy import func, select

    from colosseum.tui.net.host.store import schema as S

    ll = S.log_lines
    rows = await conn.execute(
        select(ll.c.gen, func.min(ll.c.n), func.max(ll.c.n)).where(ll.c.table_id == table).group_by(ll.c.gen)
    )
    return sorted((int(g), int(a), int(b)) for g, a, b in rows)
