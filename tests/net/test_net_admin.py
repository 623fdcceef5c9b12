"""``colosseum serve admin`` from the command line (``--data``/``--database`` as ``serve`` has
them, before or after ``admin``), and a blocked player refused at SSH login with one line."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from test_net_ssh import connect, keys, run, serve  # noqa: F401 - keys: the module's fixture

from colosseum.tui.cli import main as cli_main
from colosseum.tui.cli import parse_args
from colosseum.tui.net.host.store import Store


def _players(data) -> None:
    async def setup():
        store = await Store.open(data)
        await store.login("ベッキー", "SHA256:b")
        await store.login("Kat [b]", "SHA256:k")
        await store.close()

    asyncio.run(setup())


def test_serve_admin_is_a_command(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    _players(data)
    assert cli_main(["serve", "--data", str(data), "admin", "players"]) == 0
    out = capsys.readouterr().out
    assert "ベッキー" in out and "Kat [b]" in out and "2 player(s)" in out
    assert cli_main(["serve", "admin", "--data", str(data), "block", "Kat [b]", "--why", "spam"]) == 0
    assert capsys.readouterr().out == "Kat [b] is blocked\n"
    assert cli_main(["serve", "admin", "--data", str(data), "players", "--blocked"]) == 0
    assert "BLOCKED: spam" in capsys.readouterr().out
    assert cli_main(["serve", "admin", "--data", str(data), "unblock", "kat [B]"]) == 0
    assert "no longer blocked" in capsys.readouterr().out
    assert cli_main(["serve", "admin", "--data", str(data), "ratings"]) == 0
    assert capsys.readouterr().out == "0 rating(s)\n"
    assert cli_main(["serve", "admin", "--data", str(data), "ratings", "--rebuild"]) == 0
    assert "every one as before" in capsys.readouterr().out
    assert cli_main(["serve", "admin", "--data", str(tmp_path / "none"), "players"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no server data folder" in err
    # a database URL that is not one: one line
    assert cli_main(["serve", "admin", "--data", str(data), "--database", "mysql://x", "players"]) == 1
    assert "unknown database URL" in capsys.readouterr().err


def test_serve_without_admin_parses_as_before(tmp_path):
    args = parse_args(["serve", "--listen", "127.0.0.1:0", "--database", "sqlite+aiosqlite:///x.db"])
    assert args.serve_command is None and args.database == "sqlite+aiosqlite:///x.db"


def test_a_blocked_player_is_refused_at_login_with_one_line(tmp_path, keys):  # noqa: F811
    banners: list[str] = []

    class Client(asyncssh.SSHClient):
        def auth_banner_received(self, msg: str, lang: str) -> None:
            banners.append(msg)

    async def go():
        srv, port = await serve(tmp_path, keys)
        store = srv.tables.store
        assert store is not None
        try:
            async with connect(port, keys["alice"]) as conn:  # the first login makes the account
                assert conn is not None
            for _ in range(50):
                if await store.player_for_key(keys["alice"].get_fingerprint()) is not None:
                    break
                await asyncio.sleep(0.05)
            await store.set_blocked("alice", True, "cheating")
            with pytest.raises(asyncssh.PermissionDenied):
                async with connect(port, keys["alice"], client_factory=Client):
                    pass
            assert banners == ["This account is blocked: cheating.\r\n"]
            async with connect(port, keys["bob"], user="bob") as conn:  # others still come in
                assert conn is not None
            await store.set_blocked("alice", False)
            async with connect(port, keys["alice"]) as conn:
                assert conn is not None
        finally:
            await srv.close()

    run(go())
