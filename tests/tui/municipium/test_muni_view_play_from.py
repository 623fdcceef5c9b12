"""``colosseum view`` of a Municipium game: "play from here" asks over the review itself (not
over a Colosseum new-game screen), Cancel goes back to the same position (it used to quit the
program), Start plays the fork; the family sheet names the review's follow key (``0``), not the
game screen's ``f`` (which plays from here in the review)."""

from __future__ import annotations

import asyncio

import pytest
from test_muni_records import muni_game

from colosseum.core.logread import read_log
from colosseum.tui import saved as saved_module
from colosseum.tui.storage import finish_recording


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLOSSEUM_FSYNC", "0")
    return tmp_path / "data"


def recorded(steps: int = 40):
    s = muni_game(steps=steps)
    path = s.recorder.path
    finish_recording(s)
    return read_log(path)


def in_review(keys: tuple[str, ...], then=None):
    """A review of a recorded game at action 12 (80x24): ``keys`` pressed, then ``then(app)``
    (it presses what it likes); the app after it ended."""
    from colosseum.tui.review_app import ViewerApp

    app = ViewerApp(recorded(), start_index=12)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            if then is not None:
                await then(app, pilot)

    asyncio.run(go())
    return app


def test_cancel_goes_back_to_the_review_at_the_same_position(data_dir):
    from colosseum.tui.screens.playfrom import PlayFromScreen
    from colosseum.tui.viewer import ViewerScreen

    async def then(app, pilot):
        assert isinstance(app.screen, PlayFromScreen)
        assert [type(s).__name__ for s in app.screen_stack][-2] == "ViewerScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ViewerScreen) and app.screen.index == 12
        assert app.is_running and app.play_from is None
        await pilot.press("q")

    in_review(("f",), then)


def test_start_ends_the_review_with_the_seats_chosen(data_dir):
    async def then(app, pilot):
        app.screen.query_one("#pf-kind-1").value = "human"
        await pilot.press("ctrl+s")
        await pilot.pause()

    app = in_review(("f",), then)
    assert app.play_from is not None and app.play_from.at == 12
    assert app.choice is not None and app.choice.kinds[1] == "human"


def test_view_plays_the_fork_of_the_game_it_shows(data_dir, monkeypatch, capsys):
    """The command starts the Municipium fork itself (no new-game screen in between)."""
    from colosseum.tui import review_app, viewer
    from colosseum.tui.screens.playfrom import PlayFromChoice

    log = recorded()
    played = []

    def fake_view(found, theme=None):
        return 0, (viewer.ViewerScreen.PlayFrom(found, 12), PlayFromChoice(("human", "normal", "normal"), False))

    monkeypatch.setattr(review_app, "view_log", fake_view)
    monkeypatch.setattr("colosseum.tui.app.run_session", lambda session, **kw: played.append(session) or 0)
    assert saved_module.cmd_view(type("A", (), {"file": str(log.path), "theme": None})()) == 0
    (session,) = played
    assert session.rules.spec.name == "municipium" and session.actions == log.actions[:12]
    assert [s.kind for s in session.seats] == ["human", "normal", "normal"]
    session.recorder.close()
    fork = read_log(capsys.readouterr().out.strip().splitlines()[-1])
    assert fork.header.fork_of == log.path.name and fork.header.fork_at == 12


def test_the_family_sheet_names_the_review_s_follow_key(data_dir):
    from colosseum.tui.games.municipium.panels import PlayersPanel

    seen = []

    async def then(app, pilot):
        seen.append(str(app.screen.query_one(PlayersPanel).border_subtitle))
        await pilot.press("0")
        await pilot.pause()
        seen.append(str(app.screen.query_one(PlayersPanel).border_subtitle))
        await pilot.press("q")

    in_review(("2",), then)
    assert seen[0] == "0: every family" and "every family" not in seen[1]


def test_f1_lists_the_review_s_keys(data_dir):
    """``colosseum view`` has the help every screen has: F1 lists the keys the bar has no room
    for (h/l, n/p, 0 follow, f play from here)."""
    from colosseum.tui.screens.help import HelpScreen

    seen = []

    async def then(app, pilot):
        assert isinstance(app.screen, HelpScreen)
        seen.append(str(app.screen.query_one("#help-text").render()))
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "ViewerScreen"
        await pilot.press("q")

    in_review(("f1",), then)
    text = seen[0]
    for words in ("Play from here", "Follow", "Next phase", "Board 3", "Turn back"):
        assert words in text, text
    assert "Board 4" not in text and "Turn Turn" not in text and "Turn Next turn" not in text
