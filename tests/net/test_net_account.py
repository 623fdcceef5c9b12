"""A player's account from a session (D-79): the lobby's ``a`` renames (unique, the name rules)
and adds another SSH key (its public line pasted); the added key logs in as that player, under
whatever user name, with the account's identity (the same seats and results)."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.account import parse_public_key
from colosseum.tui.net.host.proto_client import ProtoClient
from colosseum.tui.net.host.ssh import start_server
from colosseum.tui.net.host.testing import free_port, plain


def run(coro, timeout: float = 60.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


async def ask(client: ProtoClient, what: str = "show", value: str = "") -> P.AccountInfo | P.Error:
    client.send(P.Account(what=what, value=value))
    found = await client.expect(lambda m: isinstance(m, P.AccountInfo | P.Error))
    assert isinstance(found, P.AccountInfo | P.Error)
    return found


async def screen_until(proc, *words: str, timeout: float = 30.0) -> str:
    buf = b""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not all(w in plain(buf) for w in words):
        left = end - loop.time()
        assert left > 0, f"{words} not on the screen; last: {plain(buf)[-800:]!r}"
        try:
            data = await asyncio.wait_for(proc.stdout.read(65536), min(left, 1.0))
        except TimeoutError:
            continue
        assert data, f"session ended; last: {plain(buf)[-800:]!r}"
        buf += data
    return plain(buf)


def test_public_key_lines_are_read_and_private_keys_refused():
    key = asyncssh.generate_private_key("ssh-ed25519")
    public = key.export_public_key().decode().strip()
    fp = key.get_fingerprint()
    assert parse_public_key(public)[0] == fp
    assert parse_public_key(f'no-pty,command="x" {public} me@laptop')[0] == fp
    with pytest.raises(ValueError, match="private key"):
        parse_public_key(key.export_private_key().decode())
    with pytest.raises(ValueError, match="not an SSH public key"):
        parse_public_key("hello there")


def test_rename_and_add_a_key_from_a_session_then_log_in_with_it(tmp_path):
    keys = {n: asyncssh.generate_private_key("ssh-ed25519") for n in ("alice", "bob", "carol", "laptop")}
    auth = tmp_path / "authorized_keys"
    auth.write_text(
        "".join(keys[n].export_public_key().decode().strip() + f" {n}\n" for n in ("alice", "bob", "carol"))
    )

    async def login(port: int, key, user: str):
        conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username=user,
            client_keys=[key],
            known_hosts=None,
            agent_path=None,
            preferred_auth="publickey",
        )
        proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        return conn, proc

    async def go():
        port = free_port()
        srv = await start_server(
            listen=f"127.0.0.1:{port}", data=tmp_path / "data", authorized_keys=auth, bot_delay=0.01
        )
        hub = srv.tables
        conns = []
        try:
            # both log in once (their accounts are made by the first login)
            for who in ("alice", "bob"):
                conn, proc = await login(port, keys[who], who)
                conns.append(conn)
                await screen_until(proc, f"Lobby - you are {who}")
            ident = f"key:{keys['alice'].get_fingerprint()}"
            store = hub.store
            assert store is not None
            for _ in range(200):
                if await store.player_for_key(keys["bob"].get_fingerprint()) is not None:
                    break
                await asyncio.sleep(0.02)
            alice = await ProtoClient.connect(hub.address, hub.token_for(ident, "alice"))
            shown = await ask(alice)
            assert isinstance(shown, P.AccountInfo) and shown.name == "alice"
            assert shown.keys == [keys["alice"].get_fingerprint()]
            # another player's name (any case, look-alikes folded) and an empty one are refused
            for taken in ("BOB", "bob\u200b", "   "):
                refused = await ask(alice, "rename", taken)
                assert isinstance(refused, P.Error), taken
            assert "belongs to another player" in (await ask(alice, "rename", "Bob")).message  # type: ignore[union-attr]
            done = await ask(alice, "rename", "小明 [b]x[/b]")
            assert isinstance(done, P.AccountInfo) and done.name.startswith("小明 [b]x[") and "You are now" in done.note
            new = done.name  # (as the name rules keep it)
            # a key: another player's is refused, a private key is refused, a public line is added
            bobs = keys["bob"].export_public_key().decode()
            assert "another player" in (await ask(alice, "add_key", bobs)).message  # type: ignore[union-attr]
            private = keys["laptop"].export_private_key().decode()
            assert "private key" in (await ask(alice, "add_key", private)).message  # type: ignore[union-attr]
            line = keys["laptop"].export_public_key().decode().strip() + " alice@laptop"
            added = await ask(alice, "add_key", line)
            assert isinstance(added, P.AccountInfo) and added.keys[1] == keys["laptop"].get_fingerprint()
            assert "already" in (await ask(alice, "add_key", line)).message  # type: ignore[union-attr]
            await alice.close()
            # the new key (in no authorized_keys file) logs in as her, whatever the user name
            conn, proc = await login(port, keys["laptop"], "someone")
            conns.append(conn)
            await screen_until(proc, f"Lobby - you are {new}")
            # the account's identity (the same seats and results); her first session is renamed too
            assert len([c for c in hub.conns if c.name == new and c.player == ident]) == 2
            # from the lobby's account screen: a - the new name - Enter
            proc.stdin.write(b"a")
            await screen_until(proc, "Your account", "Keys (2)")
            proc.stdin.write(b"Aurelia\r")
            await screen_until(proc, "You are now Aurelia.")
            proc.stdin.write(b"\x1b")
            await screen_until(proc, "Lobby - you are Aurelia")
            player = await store.player_for_key(keys["alice"].get_fingerprint())
            assert player is not None and player.name == "Aurelia"
            # a first login under her new name (free in the server's book of names) is refused
            with pytest.raises(asyncssh.PermissionDenied):
                await login(port, keys["carol"], "aurelia")
            conn, proc = await login(port, keys["carol"], "carol")
            conns.append(conn)
            await screen_until(proc, "Lobby - you are carol")
        finally:
            for c in conns:
                c.close()
            await srv.close()

    run(go(), 90)
