"""`colosseum serve` over real SSH (asyncssh clients on 127.0.0.1, random ports, tmp dirs,
generated keys), with strict timeouts.  Issue 6."""

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

from colosseum.core import to_act
from colosseum.tui.net import protocol as P
from colosseum.tui.net.remote import ProtoClient
from colosseum.tui.net.server import start_server
from colosseum.tui.net.tables import load_secret, make_token
from colosseum.tui.net.testing import Player, free_port, plain


GAME_SCREEN_MARK = "Round 1/"  # the game header (the lobby has no such text)


def run(coro, timeout: float = 40.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


@pytest.fixture(scope="module")
def keys():
    return {n: asyncssh.generate_private_key("ssh-ed25519") for n in ("alice", "bob", "stranger")}


def write_authorized(path: Path, keys, names=("alice", "bob")) -> Path:
    lines = ["# players", *(f'no-pty,command="x" ' + keys[n].export_public_key().decode().strip() + f" {n}" for n in names)]
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
        "127.0.0.1", port, username=user, client_keys=[key] if key else None, known_hosts=None,
        agent_path=None, preferred_auth=kw.pop("preferred_auth", "publickey"), **kw
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
        except asyncio.TimeoutError:
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
                await read_until(proc, lambda b: "Colosseum lobby" in plain(b) and "alice" in plain(b))
                proc.stdin.write(b"n")
                await read_until(proc, lambda b: "New table" in plain(b))
                proc.stdin.write(b"Arena\r")  # the name; Enter creates the table
                await read_until(proc, lambda b: "waiting for players" in plain(b))
                tables = srv.tables.tables
                assert len(tables) == 1
                (tid, table), = tables.items()
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


def _start_serve(tmp_path: Path, port: int, auth: Path) -> subprocess.Popen:
    env = dict(os.environ, COLOSSEUM_BOT_DELAY="0.01")
    proc = subprocess.Popen(
        [sys.executable, "-m", "colosseum", "serve", "--listen", f"127.0.0.1:{port}", "--data",
         str(tmp_path / "data"), "--authorized-keys", str(auth), "--bot-timeout", "600"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
    )
    end = time.monotonic() + 30
    lines = []
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
    server = _start_serve(tmp_path, port, auth)
    data = tmp_path / "data"
    try:
        fp = server  # noqa: F841
        first = server.stdout.readline  # noqa: F841

        async def phase1():
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
            return tid, acked, max(p.n for p in players)

        tid, acked, seen = run(phase1())
        assert acked >= 5
        server.send_signal(signal.SIGKILL)  # no chance to tidy up
        server.wait(10)
        server = _start_serve(tmp_path, port, auth)

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
        assert j.state.actions == len(j.actions)
        # and the SSH side answers again
        async def ssh_again():
            async with connect(port, keys["bob"], user="bob") as conn:
                r = await asyncio.wait_for(conn.run(check=False), 10)
                assert r.exit_status == 1

        run(ssh_again())
    finally:
        server.kill()
        server.wait(10)
