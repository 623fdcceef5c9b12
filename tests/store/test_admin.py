"""``colosseum serve admin``: players listed, blocked and unblocked, ratings rebuilt, a table's
log exported, each with one line; a bad name or database says why in one line."""

from __future__ import annotations

import argparse
import asyncio

from colosseum.tui.net.host import admin
from colosseum.tui.net.host.store import Store


def _args(data, *argv):
    parser = argparse.ArgumentParser()
    admin.add_admin_arguments(parser)
    return parser.parse_args(["--data", str(data), *argv])


def test_admin_commands(tmp_path, capsys):
    async def setup():
        store = await Store.open(tmp_path)
        await store.login("ベッキー", "SHA256:b")
        await store.login("Kat", "SHA256:k")
        await store.close()

    asyncio.run(setup())
    assert admin.main(_args(tmp_path, "players")) == 0
    out = capsys.readouterr().out
    assert "ベッキー" in out and "SHA256:k" in out and "2 player(s)" in out
    assert admin.main(_args(tmp_path, "block", "kat", "--why", "rude")) == 0
    assert "Kat is blocked" in capsys.readouterr().out
    assert admin.main(_args(tmp_path, "players", "--blocked")) == 0
    assert "BLOCKED: rude" in capsys.readouterr().out
    assert admin.main(_args(tmp_path, "unblock", "Kat")) == 0
    assert admin.main(_args(tmp_path, "block", "nobody")) == 1
    assert "no player is called" in capsys.readouterr().err
    assert admin.main(_args(tmp_path, "ratings", "--rebuild")) == 0
    assert "rebuilt from 0 rated game(s)" in capsys.readouterr().out
    assert admin.main(_args(tmp_path, "export", "t1", str(tmp_path / "x.jsonl"))) == 1
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "lobby.db").write_bytes(b"garbage" * 300)
    assert admin.main(_args(tmp_path / "bad", "players")) == 1
    assert "damaged" in capsys.readouterr().err
