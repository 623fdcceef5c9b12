"""`colosseum serve` over real SSH (asyncssh clients on 127.0.0.1, random ports, tmp dirs,
generated keys), with strict timeouts."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from colosseum.core.games.colosseum import to_act
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.ssh import start_server
from colosseum.tui.net.host.testing import Player, free_port, plain
from colosseum.tui.net.host.tokens import load_secret, make_token

GAME_SCREEN_MARK = "Round 1/"  # the game header (the lobby has no such text)


def run(coro, timeout: float = 40.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


@pytest.fixture(scope="module")
def keys():
    return {n: asyncssh.generate_private_key("ssh-ed25519") for n in ("alice", "bob", "stranger")}


def write_authorized(path: Path, keys, names=("alice", "bob")) -> Path:
    lines = [
        "# players",
        *('no-pty,command="x" ' + keys[n].export_public_key().decode().strip() + f" {n}" for n in names),
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


async def serve(tmp_path, keys, **kw):  # noqa: D103
    kw.setdefault("bot_delay", 0.02)
    auth = write_authorized(tmp_path / "authorized_keys", keys)
    port = free_port()
    srv = await start_server(listen=f"127.0.0.1:{port}", data=tmp_path / "data", authorized_keys=auth, **kw)
    return srv, port


def connect(port, key, user="alice", **kw):
    return asyncssh.connect(
        "127.0.0.1",
        port,
        username=user,
        client_keys=[key] if key else None,
        known_hosts=None,
        agent_path=None,
        preferred_auth=kw.pop("preferred_auth", "publickey"),
        **kw,
    )


async def read_until(proc, pred, timeout: float = 30.0) -> bytes:
    buf = b""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred(buf):
        left = end - loop.time()
        if left <= 0:
            raise AssertionError(f"screen never showed what was expected; last: {plain(buf)[-600:]!r}")
        try:
            data = await asyncio.wait_for(proc.stdout.read(65536), min(left, 1.0))
        except TimeoutError:
            continue
        if not data:
            raise AssertionError(f"session ended; last: {plain(buf)[-600:]!r}")
        buf += data
    return buf


def test_no_pty_gets_one_line_and_is_closed(tmp_path, keys, caplog):
    caplog.set_level(logging.WARNING, logger="colosseum.net")

    async def go():
        srv, port = await serve(tmp_path, keys)
        try:
            async with connect(port, keys["alice"]) as conn:
                r = await asyncio.wait_for(conn.run(check=False), 10)
                out = r.stdout.decode() if isinstance(r.stdout, bytes) else r.stdout
                assert "terminal" in out and out.count("\n") == 1 and r.exit_status == 1
                r = await asyncio.wait_for(conn.run("ls /", check=False), 10)  # a command: same
                assert r.exit_status == 1
            assert not srv.hub.clients  # no client process was started
        finally:
            await srv.close()

    run(go())
    assert "without a PTY" in caplog.text


def test_unknown_key_and_wrong_password_are_refused(tmp_path, keys, caplog):
    caplog.set_level(logging.WARNING, logger="colosseum.net")

    async def go():
        srv, port = await serve(tmp_path, keys, password="sesame")
        try:
            with pytest.raises(asyncssh.PermissionDenied):
                async with connect(port, keys["stranger"], user="mallory"):
                    pass
            with pytest.raises(asyncssh.PermissionDenied):
                async with connect(port, None, user="mallory", password="guess", preferred_auth="password"):
                    pass
            # the right password is let in; a known key too
            async with connect(port, None, user="carol", password="sesame", preferred_auth="password") as conn:
                r = await asyncio.wait_for(conn.run(check=False), 10)
                assert r.exit_status == 1  # (no PTY)
            async with connect(port, keys["bob"], user="bob") as conn:
                assert conn is not None
        finally:
            await srv.close()
        # --open lets an unknown key in
        srv2, port2 = await serve(tmp_path / "open", keys, open_to_all=True)
        try:
            async with connect(port2, keys["stranger"], user="mallory") as conn:
                assert conn is not None
        finally:
            await srv2.close()

    (tmp_path / "open").mkdir()
    run(go())
    assert "unknown key" in caplog.text and "wrong password" in caplog.text


def test_pty_session_shows_the_lobby_creates_a_table_and_opens_the_game(tmp_path, keys):
    """Through SSH with a PTY: the lobby screen, a new table from the keyboard, two players
    joining at the protocol level, the game screen; a window resize reaches the client."""

    async def go():
        srv, port = await serve(tmp_path, keys, bot_timeout=60)
        try:
            async with connect(port, keys["alice"]) as conn:
                proc = await conn.create_process(term_type="xterm-256color", term_size=(110, 34), encoding=None)
                out = await read_until(proc, lambda b: "Lobby - you are" in plain(b) and "alice" in plain(b))
                assert b"\x1b[38;5;" in out and b"\x1b[38;2;" not in out  # 256 colours, as TERM says
                # a second session of the same connection asks for true colour: it gets it
                tc = await conn.create_process(
                    term_type="xterm-256color", term_size=(80, 24), encoding=None, env={"COLORTERM": "truecolor"}
                )
                await read_until(tc, lambda b: "Lobby - you are" in plain(b) and b"\x1b[38;2;" in b)
                tc.close()
                proc.stdin.write(b"n")
                await read_until(proc, lambda b: "New table" in plain(b))
                proc.stdin.write(b"Arena\r")  # the name; Enter creates the table
                await read_until(proc, lambda b: "waiting for players" in plain(b))
                tables = srv.tables.tables
                assert len(tables) == 1
                ((tid, table),) = tables.items()
                assert table.meta.seats[0].holder.startswith("key:SHA256:") and table.meta.seats[0].name == "alice"
                # a resize is forwarded to the client's pty: it redraws for 40 rows
                proc.change_terminal_size(120, 40)
                await read_until(proc, lambda b: b"\x1b[40;" in b, timeout=20)
                # two more players sit down (protocol level): the game starts
                others = []
                for i, who in ((1, "bob"), (2, "carol")):
                    c = await ProtoClient.connect(srv.tables.address, srv.tables.token_for(f"key:{who}", who))
                    c.send(P.Join(table=tid, seat=i))
                    assert isinstance(await c.expect(lambda m: isinstance(m, (P.Joined, P.Error))), P.Joined)
                    others.append(c)
                assert table.state is not None
                # alice's client leaves the lobby for the game screen
                out = await read_until(proc, lambda b: GAME_SCREEN_MARK in plain(b), timeout=30)
                await asyncio.sleep(0.5)
                assert 0 in table.present, plain(out)[-3000:]  # her client sits at her seat
                # her turn comes (bob and carol play at the protocol level): Enter in her dialog acts
                drivers = [Player(c, tid, i + 1, seed=i) for i, c in enumerate(others)]
                for _ in range(400):
                    if to_act(table.state) == 0:
                        break
                    for d in drivers:
                        await d.pump()
                        if d.my_turn():
                            await d.act_once()
                    await asyncio.sleep(0.02)
                assert to_act(table.state) == 0
                n = len(table.actions)
                await asyncio.sleep(1.0)  # the dialog opens
                proc.stdin.write(b"\r")
                for _ in range(200):
                    if len(table.actions) > n:
                        break
                    await asyncio.sleep(0.05)
                assert len(table.actions) > n and table.actions[n].player == 0, plain(out)[-2000:]
                proc.close()
            # the SSH connection is gone: her seat is kept, absent
            for _ in range(200):
                if 0 not in table.present and not srv.hub.clients:
                    break
                await asyncio.sleep(0.05)
            assert 0 not in table.present and table.meta.seats[0].name == "alice"
            assert not srv.hub.clients  # the client process ended with the connection
        finally:
            await srv.close()

    run(go(), 80)


def _ppid(d: Path) -> int:
    try:
        return int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _start_serve(tmp_path: Path, port: int, auth: Path, lines: list | None = None) -> subprocess.Popen:
    env = dict(os.environ, COLOSSEUM_BOT_DELAY="0.01")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "colosseum",
            "serve",
            "--listen",
            f"127.0.0.1:{port}",
            "--data",
            str(tmp_path / "data"),
            "--authorized-keys",
            str(auth),
            "--bot-timeout",
            "600",
            "--fixed-seeds",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    end = time.monotonic() + 30
    lines = [] if lines is None else lines
    while time.monotonic() < end:
        line = proc.stdout.readline().decode()
        lines.append(line)
        if "listening on" in line:
            return proc
        if proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("server did not start: " + "".join(lines))


def test_restart_after_sigkill_resumes_every_acknowledged_action(tmp_path, keys):
    auth = write_authorized(tmp_path / "authorized_keys", keys)
    port = free_port()
    clients: list[int] = []
    out1: list[str] = []
    server = _start_serve(tmp_path, port, auth, out1)
    data = tmp_path / "data"
    try:
        fingerprint = next(x for x in out1 if "fingerprint" in x).split()[-1]
        assert fingerprint.startswith("SHA256:") and any("created host key" in x for x in out1)

        async def phase1():
            # a player in the lobby over SSH: their client process must not outlive the server
            conn = await connect(port, keys["alice"]).__aenter__()
            term = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            await read_until(term, lambda b: "Lobby - you are" in plain(b))
            kids = [int(d.name) for d in Path("/proc").iterdir() if d.name.isdigit() and _ppid(d) == server.pid]
            assert kids
            clients.extend(kids)
            secret = load_secret(data)
            address = f"unix:{data / 'tables.sock'}"
            cs = [await ProtoClient.connect(address, make_token(secret, f"key:{n}", n)) for n in ("a", "b", "c")]
            cs[0].send(P.CreateTable(seats=["human", "human", "human", "random"], seed=11, sit=0))
            j = await cs[0].expect(lambda m: isinstance(m, P.Joined))
            tid = j.table.id
            for i in (1, 2):
                cs[i].send(P.Join(table=tid, seat=i))
                await cs[i].expect(lambda m: isinstance(m, P.Joined))
            players = [Player(c, tid, i, seed=i) for i, c in enumerate(cs)]
            for p in players:
                await p.pump(timeout=2)
            acked = 0
            for _ in range(200):
                for p in players:
                    await p.pump()
                    if p.my_turn() and p.state.result is None:
                        if isinstance(await p.act_once(), P.Ack):
                            acked = max(acked, max(q.n for q in players))
                if acked >= 15:
                    break
                await asyncio.sleep(0.005)
            best = max(players, key=lambda p: p.n)
            return tid, acked, best.n, best.state

        tid, acked, seen, seen_state = run(phase1())
        assert acked >= 5
        server.send_signal(signal.SIGKILL)  # no chance to tidy up
        server.wait(10)
        for _ in range(200):  # the client lost its terminal (SIGHUP) and its table server: it ends
            if not any(_alive(pid) for pid in clients):
                break
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in clients)
        out2: list[str] = []
        server = _start_serve(tmp_path, port, auth, out2)
        assert any(fingerprint in x for x in out2) and not any("created" in x for x in out2)  # same host key

        async def phase2():
            secret = load_secret(data)
            c = await ProtoClient.connect(f"unix:{data / 'tables.sock'}", make_token(secret, "key:b", "b"))
            assert (tid, 1) in [tuple(x) for x in c.welcome.seats]
            c.send(P.Join(table=tid, seat=1))
            j = await c.expect(lambda m: isinstance(m, P.Joined))
            assert len(j.actions) >= seen >= acked  # every action anyone was told of is back
            assert j.table.status in ("playing", "over")
            return j

        j = run(phase2())
        codec = P.Codec.of(j.table.game)
        assert codec.state(j.state).actions == len(j.actions)
        from colosseum.core.games.colosseum import replay
        from colosseum.core.games.colosseum.view import player_view
        from colosseum.tui.net.host import gamelog_io

        # the very same actions; the seed is the server's (players are sent none)
        setup = gamelog_io.load(data / "games" / f"{tid}.jsonl").setup
        assert codec.setup(j.setup).seed == 0 and setup.seed == 11
        assert player_view(replay(setup, codec.actions(j.actions)[:seen])[0]) == seen_state

        # and the SSH side answers again
        async def ssh_again():
            async with connect(port, keys["bob"], user="bob") as conn:
                r = await asyncio.wait_for(conn.run(check=False), 10)
                assert r.exit_status == 1

        run(ssh_again())
    finally:
        server.kill()
        server.wait(10)


def test_three_ssh_players_a_spectator_and_the_same_final_ranking(tmp_path, keys):
    """Three players over SSH (each with a PTY) join one table from the lobby with the
    keyboard; a spectator picks the game mid-way and sees the current position; the players
    hand their seats to bots (Ctrl+B) and every screen shows the same final ranking."""
    import re

    names = ("alice", "bob", "carol")

    async def go():
        keys2 = dict(
            keys, carol=asyncssh.generate_private_key("ssh-ed25519"), dave=asyncssh.generate_private_key("ssh-ed25519")
        )
        auth = tmp_path / "authorized_keys"
        write_authorized(auth, keys2, names=("alice", "bob", "carol", "dave"))
        port = free_port()
        srv = await start_server(
            listen=f"127.0.0.1:{port}", data=tmp_path / "data", authorized_keys=auth, bot_delay=0.01, bot_timeout=60
        )
        conns = {}
        try:

            async def session(who):
                conn = await connect(port, keys2[who], user=who).__aenter__()
                conns[who] = conn
                proc = await conn.create_process(term_type="xterm-256color", term_size=(120, 36), encoding=None)
                return proc

            procs = list(await asyncio.gather(*(session(n) for n in (*names, "dave"))))
            list(await asyncio.gather(*(read_until(p, lambda b: "Lobby - you are" in plain(b)) for p in procs)))
            alice, bob, carol, dave = procs
            alice.stdin.write(b"n")
            await read_until(alice, lambda b: "New table" in plain(b))
            alice.stdin.write(b"Final\r")  # seats: alice + 2 free human seats + a greedy/random bot
            await read_until(alice, lambda b: "waiting for players" in plain(b))
            ((tid, table),) = srv.tables.tables.items()
            for p, who in ((bob, "bob"), (carol, "carol")):
                p.stdin.write(b"r\r")  # refresh, Enter: join the first free seat
                for _ in range(200):
                    if any(s.name == who for s in table.meta.seats):
                        break
                    await asyncio.sleep(0.05)
                assert any(s.name == who for s in table.meta.seats), f"{who} did not sit down"
            assert table.state is not None and table.meta.status == "playing"
            for p in (alice, bob, carol):
                await read_until(p, lambda b: re.search(r"Round \d+/\d+", plain(b)) is not None)
            for _ in range(100):
                if len(table.present) == 3:
                    break
                await asyncio.sleep(0.05)
            assert set(table.present) == {0, 1, 2}
            # bob's connection is cut: his seat is kept; he reconnects and is back in his game
            conns["bob"].close()
            for _ in range(200):
                if 1 not in table.present:
                    break
                await asyncio.sleep(0.05)
            assert 1 not in table.present and table.meta.seats[1].name == "bob"
            procs[1] = bob = await session("bob")
            await read_until(bob, lambda b: re.search(r"Round \d+/\d+", plain(b)) is not None, timeout=40)
            for _ in range(100):
                if 1 in table.present:
                    break
                await asyncio.sleep(0.05)
            assert 1 in table.present
            # the spectator: lobby, refresh, s on the (only) table
            dave.stdin.write(b"rs")
            await read_until(
                dave,
                lambda b: (
                    re.search(r"Round \d+/\d+", plain(b)) is not None and "alice" in plain(b) and "carol" in plain(b)
                ),
            )
            assert any(c.name == "dave" and s < 0 for c, s in table.conns.items())
            # the players let bots play their seats: the game runs to its end
            for p in (alice, bob, carol):
                p.stdin.write(b"\x02")
            for _ in range(600):
                if table.meta.status == "over":
                    break
                await asyncio.sleep(0.05)
            assert table.meta.status == "over", f"game stuck at {len(table.actions)} actions"
            winner = table.state.players[table.state.result.winner].name
            line = f"{winner} wins with {table.state.players[table.state.result.winner].acclaim} Acclaim"
            for p in procs:
                out = await read_until(p, lambda b: "wins with" in plain(b), timeout=30)
                text = plain(out)
                assert line in text, text[-1500:]
        finally:
            for c in conns.values():
                c.close()
            await srv.close()

    run(go(), 85)


def test_ssh_join_code_goes_straight_to_a_private_table(tmp_path, keys):
    """``ssh -t ... join CODE``: the session opens at the private table's seat, not the lobby."""

    async def go():
        srv, port = await serve(tmp_path, keys, bot_timeout=60)
        try:
            a = await ProtoClient.connect(srv.tables.address, srv.tables.token_for("key:carol", "carol"))
            a.send(P.CreateTable(seats=["human", "human", "human"], sit=0, private=True, name="[b]secret"))
            j = await a.expect(lambda m: isinstance(m, (P.Joined, P.Error)))
            assert isinstance(j, P.Joined) and j.table.code
            async with connect(port, keys["bob"], user="bob") as conn:
                proc = await conn.create_process(
                    f"join {j.table.code.lower()}", term_type="xterm-256color", term_size=(80, 24), encoding=None
                )
                await read_until(proc, lambda b: "invite people with the code" in plain(b))
                table = srv.tables.tables[j.table.id]
                assert table.meta.seats[1].name == "bob" and table.meta.invited
                proc.close()
            await a.close()
        finally:
            await srv.close()

    run(go(), timeout=60)
