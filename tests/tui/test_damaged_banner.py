"""A damaged log resumed is said in the game, where the player looks (issue 23): the save banner
shows one line naming the damaged line and where the game goes on, until the player's next
move; the command line still says it before the screen opens."""

from __future__ import annotations

import asyncio

import pytest
from rich.cells import cell_len

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui import saved
from colosseum.tui.app import ColosseumApp
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import start_recording
from colosseum.tui.widgets.save_banner import SaveBanner

NAMES = ("Aurelia Maximiliana Cornelia", "小明", "[/a]")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def play(s: LocalSession, n: int) -> None:
    """``n`` moves: the bots', and the first legal action for the human seat 0."""
    for _ in range(n):
        if s.rules.to_act(s.state) == 0:
            s.submit(s.rules.legal_actions(s.state)[0])
        elif not s.step_bot():
            break


def test_the_banner_says_the_log_was_damaged_until_the_players_move(tmp_path, data_dir, capsys):
    s = LocalSession(GameSetup(players=NAMES, seed=6), (Seat("human"), Seat("random"), Seat("random")))
    path = start_recording(s, tmp_path / "g.jsonl")
    play(s, 40)
    kept = len(s.actions)
    s.recorder.close()
    with open(path, "ab") as f:
        f.write(b'{"i":99,"a":"ro')  # cut while saving
    prepared = saved.prepare_resume(str(path))
    assert not isinstance(prepared, int)
    session, new_path = prepared
    assert new_path.name == "g-resumed-1.jsonl"
    assert "g.jsonl: line " in capsys.readouterr().err  # said before the screen opens, as before
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(40):  # the bots play on to seat 0's turn
                await pilot.pause(0.02)
                if session.rules.to_act(session.state) == 0:
                    break
            await pilot.pause()
            banner = app.screen.query_one(SaveBanner)
            assert banner.display and banner.has_class("-shown")
            assert banner.region.height == 1  # one line, cut to fit
            text = str(banner.render())
            assert text.startswith(
                f"LOG DAMAGED at line {kept + 2} of g.jsonl: {kept} moves kept, going on in g-resumed-1"
            )
            # cut in ASCII ("…" is two cells in some East Asian terminals)
            assert text.endswith("...") and "…" not in text
            assert cell_len(text) <= banner.content_size.width
            assert session.rules.to_act(session.state) == 0
            session.submit(session.rules.legal_actions(session.state)[0])
            await pilot.pause()
            assert not banner.has_class("-shown")

    asyncio.run(go())
