"""The colour-blind theme (issue 28): every player is a symbol as well as a colour, on the board,
in the players table, the last move's notes, the end screen's ranking and each player's score
sheet, for Colosseum (5 players) and Municipium (4), at 80x24 under NO_COLOR too; one cell each,
no two alike; chosen like the other themes and kept in the settings."""

from __future__ import annotations

import asyncio

import pytest
from rich.cells import cell_len
from rich.color import Color, ColorSystem

from colosseum.core.registry import game_names, rules, spec
from colosseum.themes import _SPECS, SEAT_SYMBOLS, SYMBOLS_THEME, THEME_NAMES, seat_symbols
from colosseum.tui.app import ColosseumApp
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.settings import load_settings, settings_path
from colosseum.tui.widgets.style import player_letters, player_marks

NAMES = ("[/a]", "小明", "Aurelia Maximiliana Cornelia", "Kat", "Becky")
#: (game, players, seed, actions played before the game screen is looked at: past the setup,
#: so every seat has gates or members on the board)
GAMES = [("colosseum", 5, 3, 30), ("municipium", 4, 5, 24)]


def test_the_symbols_are_one_ascii_cell_each_no_two_alike_and_enough_for_every_game():
    assert len(set(SEAT_SYMBOLS)) == len(SEAT_SYMBOLS)
    for sym in SEAT_SYMBOLS:
        assert cell_len(sym) == 1 and sym.isascii() and sym.isprintable() and not sym.isalnum()
        assert sym not in ".*+$~>#"  # the board's and the charts' own marks
    for name in game_names(discover=False):
        assert spec(name).max_players <= len(SEAT_SYMBOLS), name
    assert SYMBOLS_THEME in THEME_NAMES and seat_symbols(SYMBOLS_THEME) == SEAT_SYMBOLS
    assert all(seat_symbols(t) is None for t in THEME_NAMES if t != SYMBOLS_THEME)


def test_the_marks_follow_the_theme():
    names = list(NAMES)
    assert player_marks(names, "colosseum-dark") == player_letters(names)
    assert player_marks(names, SYMBOLS_THEME) == SEAT_SYMBOLS
    assert player_marks(names[:2], SYMBOLS_THEME) == SEAT_SYMBOLS[:2]
    assert player_marks(names, "textual-dark", ("x",) * 5) == ("x",) * 5  # a game's own letters


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_every_theme_keeps_its_five_seat_colours_apart_in_16_colours(theme):
    got = [Color.parse(c).downgrade(ColorSystem.STANDARD).number for c in _SPECS[theme]["seats"]]
    assert len(set(got)) == 5, got


# ---------------------------------------------------------------------- on screen


def _played(game: str, n: int, seed: int, count: int | None):
    """A seeded game of normal bots: its setup, the first ``count`` actions (all: None)."""
    r = rules(game)
    setup = r.spec.make_setup(NAMES[:n], seed=seed)
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("normal", seed * 10 + i) for i in range(n)]
    while not r.is_over(state) and (count is None or len(actions) < count):
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)
    return setup, actions


def _rows(app, widget=None) -> list[str]:
    """The screen (or ``widget``'s part of it) as plain text, a row a line."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    rows = ["".join(seg.text for strip in line for seg in strip) for line in update.strips]
    if widget is None:
        return rows
    r = widget.region
    return [_cells(row, r.x, r.width) for row in rows[r.y : r.y + r.height]]


def _cells(row: str, x: int, width: int) -> str:
    """The part of ``row`` from cell ``x``, ``width`` cells long."""
    out, at = [], 0
    for ch in row:
        if x <= at < x + width:
            out.append(ch)
        at += cell_len(ch)
    return "".join(out)


def _app(setup, actions, n) -> ColosseumApp:
    session = LocalSession(setup, (Seat("human"),) * n, actions=actions)
    app = ColosseumApp(session, bot_delay=0, theme=SYMBOLS_THEME, auto_dialogs=False)
    app.no_color = True  # (Textual reads NO_COLOR when the app is made)
    return app


def _tagged(rows: list[str], sym: str, name: str) -> bool:
    """Whether a row shows ``sym`` then the start of ``name`` (a name may be cut)."""
    return any(f"{sym} {name[:2]}" in row for row in rows)


@pytest.mark.parametrize(("game", "n", "seed", "count"), GAMES, ids=[g[0] for g in GAMES])
def test_the_game_screen_shows_every_player_by_symbol_on_the_board_and_in_the_players_table(game, n, seed, count):
    setup, actions = _played(game, n, seed, count)
    app = _app(setup, actions, n)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(6):
                await pilot.pause()
            assert app.no_color and app.theme == SYMBOLS_THEME
            rows = _rows(app)
            players = app.screen.query("PlayersPanel").first()
            table = _rows(app, players)
            board = _rows(app, app.screen.query("BoardPanel").first())
            for seat in range(n):
                sym = SEAT_SYMBOLS[seat]
                assert _tagged(table, sym, NAMES[seat]), (sym, table)
                assert any(sym in row for row in board), (sym, board)  # a gate, a member
            assert all(cell_len(row) <= 80 for row in rows)
            if game == "colosseum":  # the stacks line: every seat by its symbol, none by a letter
                stacks = next(row for row in table if "Stacks" in row)
                assert all(sym in stacks for sym in SEAT_SYMBOLS)
            app.action_set_theme("colosseum-dark")  # back to letters, redrawn at once
            for _ in range(4):
                await pilot.pause()
            table = _rows(app, players)
            letters = player_letters(list(NAMES[:n])) if game == "colosseum" else None
            if letters is not None:
                assert all(_tagged(table, letters[s], NAMES[s]) for s in range(n)), table
            assert not any(f"{SEAT_SYMBOLS[0]} {NAMES[0][:2]}" in row for row in table)

    asyncio.run(go())


@pytest.mark.parametrize(("game", "n", "seed", "count"), GAMES, ids=[g[0] for g in GAMES])
def test_the_end_screen_ranks_and_sheets_every_player_by_symbol(game, n, seed, count):
    setup, actions = _played(game, n, seed, None)
    app = _app(setup, actions, n)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(50):
                if type(app.screen).__name__ == "EndScreen":
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            screen = app.screen
            assert type(screen).__name__ == "EndScreen"
            ranking = str(screen.query_one("#end-text").render()).splitlines()
            for seat in range(n):
                assert _tagged(ranking, SEAT_SYMBOLS[seat], NAMES[seat]), ranking
            for seat in range(n):
                await pilot.press("right")
                await pilot.pause()
                first = str(screen.query_one("#end-text").render()).splitlines()[0]
                assert first.startswith(f"{SEAT_SYMBOLS[seat]} Where {NAMES[seat][:2]}"), first
                assert not screen.query(".end-plot")  # 80x24 and NO_COLOR: the text alone

    asyncio.run(go())


def test_the_theme_is_chosen_from_the_palette_and_kept():
    setup, actions = _played("colosseum", 3, 3, 10)

    async def go():
        session = LocalSession(setup, (Seat("human"),) * 3, actions=actions)
        app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+p", *"theme colourblind")
            for _ in range(10):
                await pilot.pause(0.05)
            await pilot.press("enter")
            for _ in range(4):
                await pilot.pause()
            assert app.theme == SYMBOLS_THEME

    asyncio.run(go())
    assert load_settings(settings_path()).theme == SYMBOLS_THEME
    again = ColosseumApp(None)
    assert again.theme == SYMBOLS_THEME


# ---------------------------------------------------------------------- the sheet's plot


def test_a_players_parts_for_the_plot_add_up_and_lose_their_shared_head():
    from colosseum.tui.scoresheet import sheet_of
    from colosseum.tui.widgets.sheetplot import parts

    setup, actions = _played("colosseum", 4, 11, None)
    session = LocalSession(setup, (Seat("human"),) * 4, actions=actions)
    sheet = sheet_of(session.rules, session.review_timeline())
    assert sheet is not None
    for seat in range(4):
        got = parts(sheet, seat)
        assert sum(v for _label, v in got) == sheet.totals[seat]
        assert got[0][0] == "the spectacle" and all(": " not in label for label, _v in got)


@pytest.mark.parametrize(("size", "no_color", "plot"), [((120, 40), False, True), ((120, 40), True, False)])
def test_a_players_page_plots_the_parts_when_large_enough_and_in_colour(size, no_color, plot):
    setup, actions = _played("colosseum", 4, 11, None)
    session = LocalSession(setup, (Seat("human"),) * 4, actions=actions)
    app = ColosseumApp(session, bot_delay=0, theme="colosseum-dark", auto_dialogs=False)
    app.no_color = no_color

    async def go():
        async with app.run_test(size=size) as pilot:
            for _ in range(50):
                if type(app.screen).__name__ == "EndScreen":
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            screen = app.screen
            assert not screen.query(".end-plot")  # the result page has its own chart
            await pilot.press("right")
            await pilot.pause()
            assert bool(screen.query(".end-plot")) == plot
            text = str(screen.query_one("#end-text").render())
            assert "Acclaim in all" in text  # the parts and their total, as text, either way
            await pilot.press("right")
            await pilot.pause()
            assert len(screen.query(".end-plot")) == (1 if plot else 0)  # one plot: the page's

    asyncio.run(go())


@pytest.mark.parametrize(("game", "n", "seed", "count"), GAMES, ids=[g[0] for g in GAMES])
def test_switching_to_the_theme_draws_what_starting_in_it_draws(game, n, seed, count):
    """Every panel that shows marks redraws them on a switch (the board keeps its ring's cells
    between moves: its key holds the marks)."""
    setup, actions = _played(game, n, seed, count)

    async def screen(theme: str, switch_to: str | None) -> list[str]:
        session = LocalSession(setup, (Seat("human"),) * n, actions=actions)
        app = ColosseumApp(session, bot_delay=0, theme=theme, auto_dialogs=False)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(4):
                await pilot.pause()
            if switch_to is not None:
                app.action_set_theme(switch_to)
                for _ in range(4):
                    await pilot.pause()
            return _rows(app)

    async def go():
        switched = await screen("colosseum-dark", SYMBOLS_THEME)
        fresh = await screen(SYMBOLS_THEME, None)
        assert switched == fresh
        assert switched != await screen("colosseum-dark", None)

    asyncio.run(go())


def test_the_help_says_which_symbol_is_whose_in_the_theme_only():
    setup, actions = _played("colosseum", 5, 3, 30)

    async def help_text(theme: str) -> str:
        session = LocalSession(setup, (Seat("human"),) * 5, actions=actions)
        app = ColosseumApp(session, bot_delay=0, theme=theme, auto_dialogs=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("f1")
            await pilot.pause()
            assert type(app.screen).__name__ == "HelpScreen"
            return str(app.screen.query_one("#help-text").render())

    async def go():
        text = await help_text(SYMBOLS_THEME)
        assert "a player is a symbol" in text
        joined = " ".join(text.split())
        for seat in range(5):
            assert f"{SEAT_SYMBOLS[seat]} {NAMES[seat]}" in joined
        assert "a player is a symbol" not in await help_text("colosseum-dark")

    asyncio.run(go())


# ---------------------------------------------------------------------- snapshots (ASCII names: the glyph test)

ASCII_NAMES = ("[/a]", "Kat", "Aurelia Maximiliana", "Bo", "Titus")


def _ascii(setup):
    import msgspec

    n = len(setup.players)
    return type(setup)(**{**msgspec.structs.asdict(setup), "players": ASCII_NAMES[:n]})


def test_snapshot_of_the_game_screen_in_the_theme(snap_compare):
    setup, actions = _played("colosseum", 5, 3, 30)
    session = LocalSession(_ascii(setup), (Seat("human"),) * 5, actions=actions)
    app = ColosseumApp(session, bot_delay=0, theme=SYMBOLS_THEME, auto_dialogs=False)
    assert snap_compare(app, terminal_size=(80, 24))


def test_snapshot_of_a_players_page_with_its_plot(snap_compare):
    setup, actions = _played("colosseum", 4, 11, None)
    session = LocalSession(_ascii(setup), (Seat("human"),) * 4, actions=actions)
    app = ColosseumApp(session, bot_delay=0, theme=SYMBOLS_THEME, auto_dialogs=False)

    async def first_sheet(pilot):
        for _ in range(40):
            if type(pilot.app.screen).__name__ == "EndScreen":
                break
            await pilot.pause(0.05)
        await pilot.pause()
        await pilot.press("right")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=first_sheet)
