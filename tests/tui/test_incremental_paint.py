"""The panels repaint only the rows a move changed (``tui/widgets/lines.py``: every
move is drawn on every screen at an SSH table).  What a player sees after a run of moves
repainted row by row must be exactly what a freshly opened client shows for the same position:
no stale row left behind, nothing drawn twice."""

from __future__ import annotations

import asyncio
import re

import pytest
from app_positions import human_session, play_until

from colosseum.tui.app import ColosseumApp


def screen_text(svg: str) -> str:
    """The characters of a screenshot, row by row (for a readable failure message)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, text in re.findall(r'<text class="[^"]+" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg):
        rows.setdefault(float(y), []).append((float(x), text))
    return "\n".join("".join(t for _, t in sorted(v)) for _, v in sorted(rows.items()))


async def fresh_screenshot(actions, n: int, size: tuple[int, int], keys: tuple[str, ...]) -> str:
    app = ColosseumApp(human_session(actions, n=n), bot_delay=0, auto_dialogs=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if keys:
            await pilot.press(*keys)
        await pilot.pause()
        return app.export_screenshot()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_rows_repainted_move_by_move_match_a_fresh_screen(size):
    n = 4
    actions = play_until(lambda st: st.phase == "over", n=n)
    start = 4
    checkpoints = set(range(start + 25, len(actions), max(1, (len(actions) - start) // 7)))
    checkpoints.add(len(actions) - 1)  # the game over: final scores in every panel

    async def go():
        session = human_session(actions[:start], n=n)
        app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)
        keys: tuple[str, ...] = ()
        compared = 0
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for i in range(start, len(actions)):
                session.submit(actions[i])
                await pilot.pause()
                if i % 40 == 0:  # look at another seat's board for a while, then follow again
                    keys = (str(1 + (i // 40) % n),)
                    await pilot.press(*keys)
                elif i % 40 == 20:
                    keys = ()
                    await pilot.press("f")
                if i in checkpoints:
                    seen = app.export_screenshot()
                    fresh = await fresh_screenshot(actions[: i + 1], n, size, keys)
                    assert screen_text(seen) == screen_text(fresh), f"after action {i + 1}"
                    assert seen == fresh, f"after action {i + 1}: same text, different colours"
                    compared += 1
        assert compared >= 7

    asyncio.run(go())


def test_a_theme_switch_repaints_every_panel_in_the_new_colours():
    """Panels keep the styles they looked up until Textual says the styles changed: after a
    theme switch mid-game the screen must be exactly a fresh client's in that theme."""
    n = 4
    actions = play_until(lambda st: st.round == 2 and st.phase == "invest", n=n)

    async def screenshot(theme: str, switch_to: str | None) -> str:
        app = ColosseumApp(human_session(actions, n=n), bot_delay=0, theme=theme, auto_dialogs=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            if switch_to is not None:
                app.theme = switch_to
                await pilot.pause()
                await pilot.pause()
            return app.export_screenshot()

    async def go():
        switched = await screenshot("colosseum-dark", "colosseum-contrast")
        fresh = await screenshot("colosseum-contrast", None)
        dark = await screenshot("colosseum-dark", None)
        assert switched != dark  # the switch changed colours at all
        assert screen_text(switched) == screen_text(fresh)
        assert switched == fresh

    asyncio.run(go())


@pytest.mark.parametrize(("game", "n"), [("colosseum", 4), ("municipium", 3)])
def test_rows_drawn_before_and_kept_are_the_rows_a_fresh_draw_gives(game, n):
    """A log moves every row up at each move; Textual is given back the rows it drew before at
    their new places (``lines.reuse_rows``) and draws only the new line.  After every move, each
    panel's rows as Textual holds them must be exactly what it draws afresh."""
    from rich.text import Text
    from textual.geometry import Region

    from colosseum.core.registry import rules
    from colosseum.tui.session import LocalSession, Seat
    from colosseum.tui.widgets.lines import set_border_label

    r = rules(game)
    setup = r.spec.make_setup(r.spec.default_names[:n], seed=5)
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("random", 11 + s) for s in range(n)]
    while not r.is_over(state) and len(actions) < 140:
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)

    def held_and_fresh(panel) -> tuple[list, list]:
        whole = Region(0, 0, *panel.outer_size)
        held = [list(strip) for strip in panel.render_lines(whole)]
        panel._styles_cache.clear()
        return held, [list(strip) for strip in panel.render_lines(whole)]

    async def go():
        session = LocalSession(setup, (Seat("human"),) * n, actions=actions[:3])
        app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)
        reused = 0
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            log = app.game_screen().query_one("#log")
            board = app.game_screen().query_one("#board")
            for i, action in enumerate(actions[3:]):
                before = dict(log._styles_cache._cache)
                session.submit(action)
                await pilot.pause()
                now = log._styles_cache._cache
                reused += any(now.get(y) is before.get(y + 1) for y in now if y > 0 and y + 1 in before)
                if i % 3 == 0:
                    await pilot.press("tab")  # focus moves: panels change their borders too
                # a clock in the arena's bottom border, as a table's clock shows it every second
                set_border_label(board, Text(f" clock: {i} s ") if i % 5 else None, bottom=True)
                await pilot.pause()
                for panel in app.game_screen().query("*"):
                    if panel.display and panel.size.area and not panel.children:
                        held, fresh = held_and_fresh(panel)
                        assert held == fresh, f"{type(panel).__name__} after move {i + 4}"
            bottom = "".join(seg.text for seg in held_and_fresh(board)[0][-1])
            assert f"clock: {i} s" in bottom if i % 5 else "clock" not in bottom
        assert reused > 50  # the rows were given back (this test looks at that path)

    asyncio.run(go())
