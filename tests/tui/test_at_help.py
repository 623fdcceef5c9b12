"""``--at`` refused says what this game takes: its own rounds (before: "r1, r2, ..." for a
round nine of a four-round game)."""

from __future__ import annotations

import argparse

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.saved import cmd_fork
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import start_recording


def test_a_round_the_game_lacks_is_refused_with_the_rounds_it_has(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path / "data"))
    s = LocalSession(GameSetup(players=("[/a]", "小明", "Laura"), seed=4), tuple(Seat("normal") for _ in range(3)))
    path = start_recording(s, tmp_path / "g.jsonl")
    while s.step_bot():
        pass
    s.recorder.close()
    args = argparse.Namespace(file=str(path), at="r9", humans=None, bots=None, reseed=False, no_play=True, seat=None)
    assert cmd_fork(args) == 2
    assert "or a round (r1 to r4)" in capsys.readouterr().err
