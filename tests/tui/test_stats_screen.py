"""The statistics screen at 80x24: opened from the new-game screen (F2, shown in its key bar)
and from the palette; the figures per game and edition, each in its own words (D-97), with plots
of the spread and of the score by round (``textual-plotext``), text tables where colour is off or
chosen with ``t``; scrollable."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from colosseum.core.gamelog import make_header
from colosseum.core.logwriter import LogWriter
from colosseum.core.registry import rules
from colosseum.tui.app import ColosseumApp
from colosseum.tui.storage import games_dir


def save_game(folder: Path, name: str, game: str, seed: int, kinds: tuple[str, ...], **options) -> Path:
    r = rules(game)
    names = ("Becky", "小明", "[/a]", "Aurelia Maximiliana Cornelia")[: len(kinds)]
    setup = r.spec.make_setup(names, seed=seed, **options)
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("normal" if k == "human" else k, seed + i) for i, k in enumerate(kinds)]
    while not r.is_over(state):
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)
    w = LogWriter.create_at(folder / f"{name}.jsonl", make_header(setup, kinds), actions, end=True, fsync=False)
    w.close()
    return w.path


@pytest.fixture
def saved_games():
    folder = games_dir(create=True)
    save_game(folder, "a", "colosseum", 1, ("human", "random", "random"))
    save_game(folder, "b", "colosseum", 2, ("random", "human", "random"), variant="original")
    save_game(folder, "c", "municipium", 3, ("human", "random"))
    return folder


@pytest.fixture
def fixed_length_data_dir(monkeypatch):
    """A data folder whose path has the same length in every run, with or without workers: the
    screen's last line names the games folder, and a longer path wraps onto another line."""
    import os
    import shutil

    where = Path(f"/tmp/colosseum-stats-{os.getpid():07d}")
    shutil.rmtree(where, ignore_errors=True)
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(where))
    yield where
    shutil.rmtree(where, ignore_errors=True)


async def _open_from_new_game(pilot):
    assert "f2 Statistics" in _keybar(pilot.app)
    await pilot.press("f2")
    for _ in range(100):
        await pilot.pause(0.02)
        screen = pilot.app.screen
        if type(screen).__name__ == "StatsScreen" and screen.tally is not None:
            break
    await pilot.pause()
    return pilot.app.screen


def _keybar(app) -> str:
    from colosseum.tui.widgets.keybar import KeyBar

    return "  ".join(f"{k} {d}" for k, d in app.screen.query_one(KeyBar).items())


def _text(screen) -> str:
    from colosseum.tui.plain import Static

    return "\n".join(str(s.render()) for s in screen.query(Static))


async def _test_the_screen_from_the_new_game_screen_plots_and_tables(saved_games):
    from textual_plotext import PlotextPlot

    app = ColosseumApp(None, theme="colosseum-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_from_new_game(pilot)
        text = _text(screen)
        assert "Colosseum - The Grand Spectacle\n  1 game of the people at this keyboard" in text
        assert "Colosseum - Original 2007\n  1 game of the people at this keyboard" in text
        assert "Municipium\n  1 game of the people at this keyboard" in text
        assert "(3 saved games in" in text
        plots = list(screen.query(PlotextPlot))
        assert [p.name for p in plots] == [  # each game and edition: the spread and the score by round
            "Colosseum - The Grand Spectacle: Acclaim, how often (games)",
            "Colosseum - The Grand Spectacle: average Acclaim by round",
            "Colosseum - Original 2007: Spectators, how often (games)",
            "Colosseum - Original 2007: average Spectators by round",
            "Municipium: decurions, how often (games)",
            "Municipium: average decurions by turn",
        ]
        body = screen.query_one("#stats-body")
        assert body.max_scroll_y > 0  # more than a screen: it scrolls
        await pilot.press("end")
        await pilot.pause()
        assert body.scroll_y > 0
        assert all(w.region.right <= 80 for w in screen.query("*") if w.display)
        await pilot.press("t")  # the tables instead
        await pilot.pause()
        assert not list(screen.query(PlotextPlot))
        text = _text(screen)
        assert "Acclaim spread:" in text and "Spectators spread:" in text
        assert "average Acclaim at the end of each round:\n      1-4: " in text
        assert "average Spectators at the end of each round:\n      1-5: " in text
        assert "average decurions at the end of each turn:" in text
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "NewGameScreen"


async def _test_no_color_shows_text_tables(saved_games):
    from textual_plotext import PlotextPlot

    app = ColosseumApp(None, theme="colosseum-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        app.no_color = True  # (Textual reads NO_COLOR when the app is made)
        screen = await _open_from_new_game(pilot)
        assert not list(screen.query(PlotextPlot))
        assert "Acclaim spread:" in _text(screen)


async def _test_from_the_palette_and_with_no_saved_games():
    app = ColosseumApp(None, theme="colosseum-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"statistics")
        await pilot.pause(0.3)
        await pilot.press("enter")
        for _ in range(100):
            await pilot.pause(0.02)
            if type(app.screen).__name__ == "StatsScreen" and app.screen.tally is not None:
                break
        assert type(app.screen).__name__ == "StatsScreen"
        assert f"No saved games in {games_dir()} yet." in _text(app.screen)


def test_snapshot_of_the_plots(snap_compare, fixed_length_data_dir, saved_games):
    app = ColosseumApp(None, theme="colosseum-dark")

    async def opened(pilot):
        await _open_from_new_game(pilot)
        await pilot.press("pagedown")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=opened)


def test_the_screen_from_the_new_game_screen_plots_and_tables(saved_games):
    asyncio.run(_test_the_screen_from_the_new_game_screen_plots_and_tables(saved_games))


def test_no_color_shows_text_tables(saved_games):
    asyncio.run(_test_no_color_shows_text_tables(saved_games))


def test_from_the_palette_and_with_no_saved_games():
    asyncio.run(_test_from_the_palette_and_with_no_saved_games())


def test_closing_the_screen_before_the_games_are_read_is_harmless(saved_games):
    async def go():
        app = ColosseumApp(None, theme="colosseum-dark")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f2", "escape")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert type(app.screen).__name__ == "NewGameScreen"

    asyncio.run(go())
