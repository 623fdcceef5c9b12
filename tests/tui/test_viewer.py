"""The game-log viewer (colosseum.tui.viewer): navigation keys (Pilot), opening from a running
game without disturbing it, ``colosseum view``, and snapshots at 80x24 and 120x40."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

import pytest
from textual.app import App

from colosseum.core.games.colosseum import GameSetup, encode_state
from colosseum.core.logread import parse_log
from colosseum.core.timeline import GameLog
from colosseum.tui.base import BaseApp
from colosseum.tui.cli import main as cli
from colosseum.tui.games.colosseum.hand import HandPanel
from colosseum.tui.plain import Static
from colosseum.tui.review_app import ViewerApp
from colosseum.tui.viewer import HistoryPanel, ViewerScreen

NAMES = ("Becky", "Kat", "Laura")


SAMPLE = Path(__file__).parent / "data" / "viewer-sample.jsonl"


def sample_log(cut: int | None = None, damage: bool = False) -> GameLog:
    """The stored sample game (greedy and random bots, 137 actions): a file in the log format,
    so the snapshots do not change when a bot or the order of legal actions does."""
    data = SAMPLE.read_bytes()
    if cut is not None:
        data = b"".join(line + b"\n" for line in data.split(b"\n")[: cut + 1])
    if damage:
        data += b'{"i":999,"a":"roll","player":0}\n'
    return parse_log(data, path=Path("sample.jsonl"))


def test_the_sample_log_still_replays():
    """Format version 1 files stay readable (and the sample is still a legal game)."""
    log = sample_log()
    assert log.error is None, log.error
    assert log.finished and len(log.actions) == 137


def run_async(fn):
    """Run an async Pilot test without an asyncio pytest plugin."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


def viewer(app: App) -> ViewerScreen:
    screen = app.screen
    assert isinstance(screen, ViewerScreen)
    return screen


@run_async
async def test_navigation_keys():
    log = sample_log()
    tl = log.timeline
    app = ViewerApp(log)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        v = viewer(app)
        assert v.index == tl.end  # opens at the end
        await pilot.press("home")
        assert v.index == 0
        await pilot.press("right", "right", "right")
        assert v.index == 3
        await pilot.press("left")
        assert v.index == 2
        await pilot.press("l", "h", "h")
        assert v.index == 1
        await pilot.press("down")
        assert v.index == tl.next("turn", 1)
        turn = v.index
        await pilot.press("j", "k")
        assert v.index == turn
        await pilot.press("pagedown")
        p1 = v.index
        assert p1 == tl.next("phase", turn) and tl.is_start("phase", p1)
        await pilot.press("pagedown", "pageup")
        assert v.index == p1
        await pilot.press("n", "p")
        assert v.index == p1
        await pilot.press("right_square_bracket")
        r2 = v.index
        assert v.state.round == 2 and tl.state(r2 - 1).round == 1
        await pilot.press("right_square_bracket", "left_square_bracket")
        assert v.index == r2
        await pilot.press("up")
        assert v.index == tl.prev("turn", r2)
        await pilot.press("end")
        assert v.index == tl.end and v.state.phase == "over"
        await pilot.press("right")  # nothing past the end
        assert v.index == tl.end
        await pilot.press("g")
        assert v.index == 0
        await pilot.press("left")
        assert v.index == 0
        await pilot.press("G")
        assert v.index == tl.end


@run_async
async def test_panels_show_the_position_and_the_history_highlights_it():
    log = sample_log()
    tl = log.timeline
    app = ViewerApp(log)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        v = viewer(app)
        history = app.screen.query_one(HistoryPanel)
        for target in (0, 7, tl.next("phase", 20), tl.end // 2, tl.end):
            v.go(target)
            await pilot.pause()
            assert v.state is tl.state(target)
            for panel in ("#board", "#players", "#v-header"):
                assert app.screen.query_one(panel).state is tl.state(target)
            assert history.current == target
            top = history.scroll_offset.y
            assert top <= history.current_line < top + history.scrollable_content_region.height
            bar = str(app.screen.query_one("#v-bar", Static).render())
            assert f"({target}/{tl.end})" in bar and "sample.jsonl" in bar
        # the entry text is the engine's own sentence
        v.go(1)
        ev = tl.events(1)[0].text
        assert ev in history.entries[1][1]


@run_async
async def test_any_seat_can_be_shown():
    log = sample_log()
    app = ViewerApp(log)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        v = viewer(app)
        hand = app.screen.query_one(HandPanel)
        await pilot.press("home", "right", "right", "right", "right")
        acted = log.actions[3].player
        assert hand.seat == acted  # follows who acted
        for key, seat in (("1", 0), ("2", 1), ("3", 2)):
            await pilot.press(key)
            assert hand.seat == seat and hand.state is v.state
        await pilot.press("right")
        assert hand.seat == 2  # stays on the chosen seat while stepping
        await pilot.press("5")  # no fifth seat: nothing changes
        assert hand.seat == 2
        await pilot.press("0")
        assert hand.seat == log.actions[v.index - 1].player


@run_async
async def test_escape_leaves_the_viewer():
    app = ViewerApp(sample_log())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0


@run_async
async def test_opens_from_a_running_game_without_disturbing_it():
    from colosseum.tui.session import LocalSession, Seat

    s = LocalSession(GameSetup(players=NAMES, seed=9), (Seat("random"),) * 3)
    for _ in range(40):
        s.step_bot()
    before = encode_state(s.state)

    class Host(BaseApp):
        pass

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        first = app.screen
        screen = ViewerScreen.from_session(s, start_index=5)
        app.push_screen(screen)
        await pilot.pause()
        assert app.screen is screen and screen.index == 5
        s.step_bot()  # the game goes on meanwhile; the viewer holds its own copy
        await pilot.press("end")
        assert screen.index == 40
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is first
    assert len(s.actions) == 41 and encode_state(s.state) != before


@run_async
async def test_damaged_log_is_shown_with_a_note():
    log = sample_log(cut=30, damage=True)
    assert log.error is not None
    app = ViewerApp(log)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        v = viewer(app)
        assert v.index == 30
        bar = str(app.screen.query_one("#v-bar", Static).render())
        assert "damaged at line 32" in bar and "1-3: boards" in bar


def test_view_command(tmp_path, monkeypatch, capsys):
    opened = []
    # view_log: the viewer's exit status and its "play from here" request (none here)
    monkeypatch.setattr("colosseum.tui.review_app.view_log", lambda log, theme=None: (opened.append(log) or 0, None))
    good = tmp_path / "g.jsonl"
    good.write_bytes(SAMPLE.read_bytes())
    assert cli(["view", str(good)]) == 0
    assert len(opened) == 1 and opened[0].actions == sample_log().actions
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"")
    assert cli(["view", str(bad)]) == 1
    assert "empty" in capsys.readouterr().err and len(opened) == 1
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(good.read_bytes()[:-20])
    assert cli(["view", str(cut)]) == 0
    assert "valid actions" in capsys.readouterr().err


# ------------------------------------------------------------------------------ snapshots


def _phase_start(tl, phase: str, round_: int = 1) -> int:
    i = 0
    while i < tl.end:
        i = tl.next("phase", i)
        s = tl.state(i)
        if s.phase == phase and s.round == round_:
            return i
    raise AssertionError(phase)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_start(snap_compare, size):
    assert snap_compare(ViewerApp(sample_log(), start_index=0), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_auction(snap_compare, size):
    log = sample_log()
    tl = log.timeline
    i = next(i for i in range(len(tl)) if tl.state(i).hire is not None and tl.state(i).hire.auction is not None)
    assert snap_compare(ViewerApp(log, start_index=i), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_perform_with_another_seat(snap_compare, size):
    log = sample_log()
    i = _phase_start(log.timeline, "perform", 3) + 3
    assert snap_compare(ViewerApp(log, start_index=i), press=["3"], terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_end(snap_compare, size):
    assert snap_compare(ViewerApp(sample_log()), terminal_size=size)
