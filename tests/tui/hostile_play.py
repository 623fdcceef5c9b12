"""Whole games played through the client with hostile names in every seat.

Every decision of every seat opens its dialog (all seats are people at one keyboard); the
screen is read after each one opens and must show every name literally: no ``MarkupError``
(``[/a]``), no name read as markup (``[b]Zed[/b]`` must never show as a bold ``Zed``), every line
within the terminal's width with wide (``小明``), zero-width (``Li\u200bLi``) and very long names,
and no text cut where a widget ends (``cut_text.cut_texts``).
The moves themselves are the normal bot's, sent through the session as a dialog would.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from cut_text import cut_texts
from rich.cells import cell_len
from textual.screen import ModalScreen

from colosseum.tui.app import build_app
from colosseum.tui.cli import parse_args

HOSTILE_NAMES = ("[/a]", "[b]Zed[/b]", "小明[red]", "Aurelia Maximiliana Cornelia", "Li\u200bLi[/]")
SIZE = (80, 24)


class ScreenProblem(AssertionError):
    pass


def screen_rows(app) -> list[str]:
    """The screen on top as rows of text (a wide character once)."""
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


def check_rows(rows: Sequence[str], where: str) -> None:
    """Every line fits, and no name shows as markup would make it."""
    for y, row in enumerate(rows):
        if cell_len(row) > SIZE[0]:
            raise ScreenProblem(f"{where}: line {y} is {cell_len(row)} cells: {row!r}")
        # "[b]Zed[/b]" read as markup shows "Zed" without its "[b]"
        start = 0
        while (i := row.find("Zed", start)) >= 0:
            if row[max(0, i - 3) : i] != "[b]":
                raise ScreenProblem(f"{where}: line {y} shows 'Zed' without its '[b]': {row!r}")
            start = i + 3
        # "小明[red]" read as markup loses "[red]" (the name is then followed by something else)
        start = 0
        while (i := row.find("小明", start)) >= 0:
            after = row[i + 2 : i + 3]
            if after not in ("[", "~", ".", "…", ""):
                raise ScreenProblem(f"{where}: line {y} shows '小明' without its '[red]': {row!r}")
            start = i + 2


def check_app(app, where: str, seen: set[str] | None = None) -> None:
    stack = [type(s).__name__ for s in app.screen_stack]
    if len(stack) > 6:
        raise ScreenProblem(f"{where}: {len(stack)} screens stacked: {stack}")
    errors = [n.message for n in app._notifications if n.severity == "error"]
    if errors:
        raise ScreenProblem(f"{where}: error shown: {errors}")
    rows = screen_rows(app)
    check_rows(rows, where)
    cut = cut_texts(app)
    if cut:
        raise ScreenProblem(f"{where}: cut text: " + "; ".join(cut))
    if seen is not None:
        seen.update(rows)


async def _wait(pilot, cond, what: str, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise ScreenProblem(f"timed out waiting for {what}")
        await pilot.pause(0.01)


def hostile_argv(game: str, players: int, variant: str | None = None, options: Sequence[str] = (), seed: int = 1):
    argv = ["play", "--game", game, "--players", str(players), "--humans", str(players), "--seed", str(seed)]
    argv += ["--names", ",".join(HOSTILE_NAMES[:players]), "--bot-delay", "0"]
    if variant:
        argv += ["--variant", variant]
    for opt in options:
        argv += ["--option", opt]
    return argv


async def play_hostile(argv: Sequence[str], *, extra_every: int = 40, max_actions: int = 5000) -> int:
    """Play the game ``argv`` describes to its end, every seat's decisions through their
    dialogs; returns the number of actions.  Every ``extra_every`` actions the other screens
    are opened too (each board, the detail, review, rules, help) and checked."""
    from colosseum.core.registry import rules

    app = build_app(parse_args(list(argv)), record=False)  # one app, one game screen, every game
    assert not isinstance(app, int)
    session = app.session
    kind = rules(argv[argv.index("--game") + 1])
    bots = [kind.make_bot("normal", seed) for seed in range(len(kind.names(session.state)))]
    seen: set[str] = set()
    async with app.run_test(size=SIZE) as pilot:
        done = 0
        while not kind.is_over(session.state) and done < max_actions:
            await _wait(pilot, lambda: isinstance(app.screen, ModalScreen), f"a dialog after action {done}")
            await pilot.pause()
            where = f"{argv}: action {done}, {type(app.screen).__name__}"
            check_app(app, where, seen)
            if extra_every and done % extra_every == 0:
                await visit_screens(pilot, app, where)
            state = session.state
            seat = kind.to_act(state)
            session.submit(bots[seat].act(state))
            done += 1
            await pilot.pause()
        await _wait(pilot, lambda: type(app.screen).__name__ == "EndScreen", "the end screen")
        check_app(app, f"{argv}: the end", seen)
    text = "\n".join(seen)
    for name in HOSTILE_NAMES[: len(kind.names(session.state))]:
        shown = name[:4] if name[0] != "A" else name[:8]  # at least the start of the name, literally
        assert shown in text, f"{name!r} never shown as it is"
    return done


async def visit_screens(pilot, app, where: str) -> None:
    """Close the dialog, open the other screens one by one, check each, and come back."""
    await pilot.press("escape")
    await pilot.pause()
    for key in ("1", "2", "3", "4", "5", "i", "i", "f"):
        await pilot.press(key)
        await pilot.pause()
        check_app(app, f"{where} after {key!r}")
    for key in ("v", "r", "k", "f1"):
        await pilot.press(key)
        await pilot.pause()
        check_app(app, f"{where} on {type(app.screen).__name__}")
        await pilot.press("escape")
        await pilot.pause()
    await pilot.press("a")
