"""Issue 26's "done when" over real OpenSSH: two people (``ssh`` client processes in
pseudo-terminals, keys made by ``ssh-keygen``) and two bots finish a rated table of the
server's ``start_server`` (what ``colosseum serve`` runs: SQLite store, fixed seeds); each
sees their new rating on the leaderboard (``L``) and the game among their finished games
(``h``, ``m``), opens it in the viewer and steps through it; one asks for a rematch (``m`` on
the end screen), the other accepts, the new table starts.

The people's decisions are made through the host (the table's own ``act`` with each ssh
session's connection: the same check and commit as a key press's ``Act``), so that a whole
game takes seconds; everything checked is read from the ssh terminals.  Every wait is for
text on a screen or a state of the server, never a fixed sleep.  Skipped without ``ssh``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from pathlib import Path

import asyncssh
import pytest
from ptyspawn import spawn_in_pty

from colosseum.core.registry import rules as rules_of
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.ssh import start_server
from colosseum.tui.net.host.testing import free_port, plain

SSH = shutil.which("ssh")
KEYGEN = shutil.which("ssh-keygen")
pytestmark = pytest.mark.skipif(not (SSH and KEYGEN), reason="no OpenSSH client (ssh, ssh-keygen)")

COLS, ROWS = 80, 24


class Term:
    """A real ``ssh`` client in a pseudo-terminal; what it printed, searchable as plain text."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc, self.fd = spawn_in_pty(argv, env, COLS, ROWS)
        self.buf = b""
        self.eof = False
        self.grew = asyncio.Event()
        asyncio.get_running_loop().add_reader(self.fd, self._read)

    def _read(self) -> None:
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            asyncio.get_running_loop().remove_reader(self.fd)
        self.buf += data
        self.grew.set()

    def mark(self) -> int:
        return len(self.buf)

    def text(self, since: int = 0) -> str:
        return plain(self.buf[since:])

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    async def wait(self, *words: str, since: int = 0, timeout: float = 30.0) -> str:
        """Until every one of ``words`` was printed after ``since``; the text printed since."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            text = self.text(since)
            if all(w in text for w in words):
                return text
            left = end - loop.time()
            if left <= 0 or self.eof:
                raise AssertionError(f"{words} not on the screen; last: {text[-1500:]!r}")
            self.grew.clear()
            try:
                await asyncio.wait_for(self.grew.wait(), left)
            except TimeoutError:
                pass

    async def wait_re(self, *patterns: str, since: int = 0, timeout: float = 30.0) -> str:
        """Until each regular expression matches the text printed after ``since``."""
        found = re.compile("|".join(f"(?:{p})" for p in patterns))  # (a cheap first test)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            text = self.text(since)
            if found.search(text) and all(re.search(p, text) for p in patterns):
                return text
            left = end - loop.time()
            if left <= 0 or self.eof:
                raise AssertionError(f"{patterns} not on the screen; last: {text[-1500:]!r}")
            self.grew.clear()
            try:
                await asyncio.wait_for(self.grew.wait(), left)
            except TimeoutError:
                pass

    async def keys(self, keys: bytes, *words: str, timeout: float = 30.0) -> str:
        at = self.mark()
        self.send(keys)
        return await self.wait(*words, since=at, timeout=timeout)

    def close(self) -> None:
        if not self.eof:
            asyncio.get_running_loop().remove_reader(self.fd)
        self.proc.kill()
        self.proc.wait(5)
        os.close(self.fd)


def keygen(path: Path) -> tuple[str, str]:
    """A new ed25519 key (no passphrase): its public line and its fingerprint."""
    subprocess.run([KEYGEN or "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    public = path.with_suffix(".pub").read_text().strip()
    return public, asyncssh.import_public_key(public).get_fingerprint()


def ssh_argv(port: int, key: Path, user: str) -> list[str]:
    return [
        SSH or "ssh",
        "-tt",
        "-F",
        "/dev/null",
        "-i",
        str(key),
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-p",
        str(port),
        f"{user}@127.0.0.1",
    ]


async def until(cond, timeout: float = 30.0, what: str = "") -> None:
    """Poll the server's state (not a screen) until ``cond()``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        await asyncio.sleep(0.02)


def test_two_people_over_openssh_finish_a_rated_table_review_it_and_rematch(tmp_path):
    names = ("alice", "小明")

    async def go() -> None:
        keys = {n: tmp_path / f"id_{i}" for i, n in enumerate(names)}
        found = {n: keygen(keys[n]) for n in names}
        auth = tmp_path / "authorized_keys"
        auth.write_text("".join(f"{found[n][0]} {n}\n" for n in names))
        port = free_port()
        srv = await start_server(
            listen=f"127.0.0.1:{port}",
            data=tmp_path / "data",
            authorized_keys=auth,
            bot_delay=0.0,
            bot_timeout=600,
            fixed_seeds=True,
        )
        hub = srv.tables
        env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path))
        terms: dict[str, Term] = {}
        try:
            # alice made a rated table (Municipium's short game: 2 people, 2 bots) and went away
            ident = {n: f"key:{found[n][1]}" for n in names}
            maker = await ProtoClient.connect(hub.address, hub.token_for(ident["alice"], "alice"))
            maker.send(
                P.CreateTable(
                    seats=["human", "human", "greedy", "random"],
                    game="municipium",
                    options={"options": ["short"]},
                    sit=0,
                    rated=True,
                    seed=11,
                    name="Final",
                )
            )
            joined = await maker.expect(lambda m: isinstance(m, P.Joined | P.Error))
            assert isinstance(joined, P.Joined), joined
            table = hub.tables[joined.table.id]
            # alice logs in and sits at her seat again; 小明 joins the table from the lobby: it starts
            terms["alice"] = Term(ssh_argv(port, keys["alice"], "alice"), env)
            await terms["alice"].wait("Lobby - you are alice", "Final")
            await terms["alice"].keys(b"\r", "waiting for players")
            await maker.close()  # (a waiting table that everyone left would be removed)
            terms[names[1]] = Term(ssh_argv(port, keys[names[1]], names[1]), env)
            await terms[names[1]].wait(f"Lobby - you are {names[1]}")
            await terms[names[1]].keys(b"r\r", "decurions")
            await until(lambda: table.meta.status == "playing" and set(table.present) == {0, 1}, what="both seated")
            started = {n: terms[n].mark() for n in names}
            # the people's decisions (the table's own check and commit, from each ssh session)
            rules = rules_of("municipium")
            bots = {s: rules.make_bot("greedy", s) for s in (0, 1)}
            while table.meta.status != "over":
                seat, n = table.to_act(), len(table.actions)
                if seat in (0, 1) and seat in table.present and table.state is not None:
                    action = bots[seat].act(rules.player_view(table.state, seat))
                    msg = P.Act(table=table.id, action=rules.encode(action), at=n)
                    assert table.act(table.present[seat], msg) is None
                    table.kick()
                await until(
                    lambda n=n: len(table.actions) > n or table.meta.status == "over",
                    what=f"a move after {n} ({table.to_act()} to act, {sorted(table.present)} present)",
                )
            assert not table.standin, "a bot played a person's seat"
            for who in names:  # the end screen, its key bar offering the rematch
                await terms[who].wait("Result", "Rematch", since=started[who])
            # the rematch: alice asks on her end screen, 小明 accepts; the new table starts
            await until(lambda: set(table.present) == {0, 1}, what="both still at the finished table")
            terms["alice"].send(b"m")
            await terms[names[1]].wait("asks for a rematch")
            at = {n: terms[n].mark() for n in names}
            terms[names[1]].send(b"y")
            await until(
                lambda: any(t.meta.rematch_of == table.id and set(t.present) == {0, 1} for t in hub.tables.values()),
                what="the rematch's table with both people",
            )
            (again,) = [t for t in hub.tables.values() if t.meta.rematch_of == table.id]
            assert again.meta.status == "playing" and again.meta.rated
            for who in names:
                await terms[who].wait("D decurions", since=at[who])  # the new game on screen
            # the ratings the store wrote
            store = hub.store
            assert store is not None
            shown = {}
            for who in names:
                player = await store.player_for_key(found[who][1])
                assert player is not None
                rating = await store.rating(player.id, "municipium")
                assert rating.games == 1
                shown[who] = rating.shown
            for who in names:
                term = terms[who]
                # back to the lobby (Ctrl+Q twice: the rematch is a game going on)
                await term.keys(b"\x11", "Back to the lobby?")
                await term.keys(b"\x11", "Lobby - you are")
                text = await term.keys(b"L", "Leaderboard - Municipium")
                # each row: place, name, the rating with "?" (provisional), one rated game
                rows = [
                    rf"{i + 1}\s+{n}\s+{shown[n]}\?\s+1\s" for i, n in enumerate(sorted(names, key=lambda n: -shown[n]))
                ]
                await term.wait_re(*rows, since=len(term.buf) - len(text.encode()))
                assert "[1-2 of 2]" in text
                await term.keys(b"\x1b", "Lobby - you are")
                text = await term.keys(b"h", "of 1 finished game]")  # (one game: no plural)
                text = await term.keys(b"m", "of 1 my finished game]")
                assert table.id in term.text(len(term.buf) - 6000)
                await term.keys(b"\r", "REVIEW  end")
                await term.keys(b"\x1b[H", "REVIEW  start")
                await term.keys(b"\x1b[C", "REVIEW  action 1 (1/")
                await term.keys(b"\x1b[C", "REVIEW  action 2 (2/")
        finally:
            for term in terms.values():
                term.close()
            await srv.close()

    asyncio.run(asyncio.wait_for(go(), 150))
