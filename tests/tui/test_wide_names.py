"""Names in Japanese and Chinese and a long Latin name at 80x24: no screen line is wider than
the terminal and every panel border stays in its column (text is laid out by terminal cells)."""

from __future__ import annotations

import asyncio

import pytest
from dialog_harness import dialog_app, make_session, open_first, settle
from rich.cells import cell_len

from colosseum.core.games.colosseum import GameSetup, apply, to_act
from colosseum.core.games.colosseum.bots import make_bot

NAMES = ("ベッキー", "Aurelia Maximiliana Cornelia", "小明")
SIZE = (80, 24)
BOX = set("╭╮╰╯│─┃━┏┓┗┛╔╗╚╝║═")


def screen_cells(app) -> list[list[str]]:
    """The screen as rows of cells (a wide character, then '' for its second cell)."""
    out = []
    for strip in app.screen._compositor.render_strips():
        cells: list[str] = []
        for seg in strip:
            for ch in seg.text:
                cells.append(ch)
                if cell_len(ch) == 2:
                    cells.append("")
        out.append(cells)
    return out


def played(n_actions: int, seed: int = 7, variant: str = "grand"):
    setup = GameSetup(players=NAMES, seed=seed, variant=variant)
    from colosseum.core.games.colosseum import new_game

    st = new_game(setup)
    bots = [make_bot("greedy", seed=s) for s in range(3)]
    actions = []
    while st.phase != "over" and len(actions) < n_actions:
        a = bots[to_act(st)].act(st)
        st, _ = apply(st, a)
        actions.append(a)
    return setup, actions


def check_screen(app, where: str) -> None:
    rows = screen_cells(app)
    width = SIZE[0]
    assert len(rows) == SIZE[1]
    for y, row in enumerate(rows):
        assert len(row) <= width, f"{where}: line {y} is {len(row)} cells wide"
    # the game screen's two columns of panels: their side borders (found on the first panel
    # row) are in the same columns on every panel row
    columns = [x for x, c in enumerate(rows[2]) if c in "│┃"]
    assert len(columns) == 4 and columns[0] == 0 and columns[-1] == width - 1, f"{where}: {''.join(rows[2])!r}"
    for y in range(1, SIZE[1] - 1):
        row = rows[y]
        for x in columns:
            assert row[x] in BOX, f"{where}: line {y} has {row[x]!r} at column {x}: {''.join(row)!r}"


@pytest.mark.parametrize("n_actions", [0, 12, 40, 80, 120])
def test_cjk_and_long_names_fit_at_80x24(n_actions):
    async def go():
        setup, actions = played(n_actions)
        session = make_session(setup, actions, humans=(0, 1, 2))
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            check_screen(app, f"game after {n_actions} actions")
            for seat in ("2", "3"):
                await pilot.press(seat)  # the long name's and the Chinese name's boards
                await settle(pilot, 2)
                check_screen(app, f"board {seat} after {n_actions} actions")
            await pilot.press("f")
            await open_first(pilot)
            rows = screen_cells(app)
            assert all(len(r) <= SIZE[0] for r in rows), f"dialog after {n_actions} actions"

    asyncio.run(go())


def test_end_screen_with_wide_names_fits():
    async def go():
        setup, actions = played(10_000)
        session = make_session(setup, actions, humans=(0, 1, 2))
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("e")
            await settle(pilot)
            assert type(app.screen).__name__ == "EndScreen"
            rows = screen_cells(app)
            for y, row in enumerate(rows[1:-1], start=1):
                assert len(row) == SIZE[0] and row[0] in BOX and row[79] in BOX, f"end screen line {y}"

    asyncio.run(go())


def check_columns(rows: list[list[str]], top: int, bottom: int, where: str) -> None:
    """Every row is at most the terminal's width and the panel borders found on row ``top``
    stay in their columns down to row ``bottom`` (exclusive)."""
    for y, row in enumerate(rows):
        assert len(row) <= SIZE[0], f"{where}: line {y} is {len(row)} cells wide"
    columns = [x for x, c in enumerate(rows[top]) if c in "│┃"]
    assert columns and columns[0] == 0 and columns[-1] == SIZE[0] - 1, f"{where}: {''.join(rows[top])!r}"
    for y in range(top, bottom):
        for x in columns:
            assert rows[y][x] in BOX, f"{where}: line {y} has {rows[y][x]!r} at column {x}: {''.join(rows[y])!r}"


def test_the_viewer_with_wide_names_fits():
    async def go():
        setup, actions = played(10_000)
        session = make_session(setup, actions, humans=(0, 1, 2))
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("e")  # the end screen is on top at the end: back to the board
            await settle(pilot, 2)
            if type(app.screen).__name__ == "EndScreen":
                await pilot.press("escape")
            await pilot.press("v")
            await settle(pilot)
            assert type(app.screen).__name__ == "ViewerScreen"
            # from the end back through the last turns (long log lines with CJK), a round back,
            # and the boards of the long and the Chinese name
            for keys in ((), ("left",) * 3, ("up",) * 4, ("left_square_bracket",), ("2",), ("3",)):
                for key in keys:
                    await pilot.press(key)
                await settle(pilot, 2)
                rows = screen_cells(app)
                check_columns(rows, 2, len(rows) - 3, f"viewer after {keys}")

    asyncio.run(go())


def test_the_first_player_dialog_with_wide_names_keeps_its_columns():
    from colosseum.core.games.colosseum import new_game

    async def go():
        setup = GameSetup(players=NAMES, seed=7)
        st = new_game(setup)
        bots = [make_bot("greedy", seed=s) for s in range(3)]
        actions = []
        while not (st.phase == "closing" and st.closing is not None and st.closing.stage == "first"):
            a = bots[to_act(st)].act(st)
            st, _ = apply(st, a)
            actions.append(a)
        chooser = to_act(st)
        session = make_session(setup, actions, humans=(chooser,))
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            assert type(app.screen).__name__ == "FirstPlayerDialog", type(app.screen).__name__
            rows = ["".join(r) for r in screen_cells(app)]
            assert all(cell_len(r) <= SIZE[0] for r in rows)
            options = [r for r in rows if "Acclaim" in r and "$" in r]
            assert len(options) == len(NAMES), rows
            # the Acclaim column starts at the same cell on every row, whatever the name
            starts = {cell_len(r[: r.index("Acclaim")]) for r in options}
            assert len(starts) == 1, options

    asyncio.run(go())


def test_chat_in_wide_characters_wraps_inside_the_log():
    from colosseum.core.games.colosseum import Event

    async def go():
        setup, actions = played(40)
        session = make_session(setup, actions, humans=(0, 1, 2))
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            # a chat line as a table's client receives it (an event of kind "chat")
            said = "ベッキー: " + "こんにちは、小明さん。Aurelia Maximiliana Cornelia! " * 4
            session.events.append(Event(kind="chat", text=said, seat=0))
            app.game_screen().sync()
            await settle(pilot, 3)
            check_screen(app, "a chat line in Japanese")

    asyncio.run(go())
