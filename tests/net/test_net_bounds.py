"""Issue 24's logs: 10,000 refused chat lines made 9,997 warning lines in the server's log, and
a table's chat grew its game log without a limit.  Both are bounded now."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

from colosseum.core.games.colosseum import GameSetup
from colosseum.core.logread import read_log
from colosseum.tui.net.host.conn import REFUSALS_LOGGED, Conn
from colosseum.tui.net.host.gamelog_io import TableLog
from colosseum.tui.net.host.hub import TableServer


class _Writer:
    def __init__(self) -> None:
        self.out = bytearray()
        self.transport = SimpleNamespace(get_write_buffer_size=lambda: 0)

    def write(self, data: bytes) -> None:
        self.out += data

    def close(self) -> None:
        pass


def test_a_flood_of_refusals_is_logged_a_few_times_a_minute(tmp_path, caplog):
    async def go():
        srv = TableServer(tmp_path)
        conn = Conn(id=1, writer=_Writer(), name="flooder")  # type: ignore[arg-type]
        with caplog.at_level(logging.WARNING, logger="colosseum.net"):
            for _ in range(10_000):
                srv.refuse(conn, "you are talking too fast; wait a little", code="flood")
        assert srv.refusals == 10_000
        lines = [r for r in caplog.records if "refused" in r.getMessage()]
        assert len(lines) == REFUSALS_LOGGED
        # the next minute: its first refusal is logged, and how many went unlogged before
        start, logged, quiet = conn.refusals["flood"]
        conn.refusals["flood"] = (start - 61.0, logged, quiet)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="colosseum.net"):
            srv.refuse(conn, "again", code="flood")
        said = [r.getMessage() for r in caplog.records]
        assert any(f"{10_000 - REFUSALS_LOGGED} more times" in m for m in said) and any("again" in m for m in said)

    asyncio.run(go())


def test_a_games_log_keeps_a_bounded_talk(tmp_path, monkeypatch):
    monkeypatch.setattr(TableLog, "MAX_LOGGED_CHAT", 20)
    log = TableLog(tmp_path / "t.jsonl")
    setup = GameSetup(players=("Kat", "Becky", "Laura"), seed=1)
    log.begin(setup, ["human", "human", "human"], [])
    line = SimpleNamespace(name="Kat", text="ave", seat=0, time=1.0)
    for _ in range(100):
        log.chat(line)
    assert log.writer is not None
    log.writer.close()
    back = read_log(tmp_path / "t.jsonl")
    assert len(back.chat) == 21  # the first 20, then one line saying later talk is not kept
    assert "not kept" in back.chat[-1].chat
