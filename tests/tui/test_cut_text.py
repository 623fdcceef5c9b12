"""The screen check for cut text (tests/tui/cut_text.py) finds each kind of it (issue 23).  The
hostile-names games (tests/tui/test_hostile_names.py) run it on every dialog of every decision
of whole games of every ruleset and of Municipium at 80x24, every seat a person with a long,
wide or markup-like name, and on the other screens (boards, viewer, rules, legend, help)."""

from __future__ import annotations

import asyncio
import re

from cut_text import cut_texts
from hostile_play import _wait, hostile_argv
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer

from colosseum.tui.app import build_app
from colosseum.tui.cli import parse_args
from colosseum.tui.plain import Static
from colosseum.tui.widgets.lines import LinePanel


class _Long(LinePanel):
    DEFAULT_CSS = "_Long { height: 1; width: 20; }"

    def build_lines(self) -> list[Text]:
        return [Text("a line panel's line, longer than twenty cells")]


class _Cut(App[None]):
    CSS = """
    #nowrap { text-wrap: nowrap; width: 20; height: 1; }
    #low { height: 2; width: 20; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("a line that does not wrap and runs past", id="nowrap")
            yield Static("a text that wraps onto more lines than the two it is given here", id="low")
            yield Static("a text that wraps and fits, … or is cut on purpose…", id="fine")
            yield _Long()


def test_the_check_finds_each_kind_of_cut_text():
    async def go():
        app = _Cut()
        async with app.run_test(size=(40, 12)) as pilot:
            await pilot.pause()
            found = cut_texts(app)
            assert any("#nowrap" in f for f in found), found
            assert any("#low" in f for f in found), found
            assert any("_Long" in f for f in found), found
            assert not any("#fine" in f for f in found), found

    asyncio.run(go())


class _Keys(App[None]):
    BINDINGS = [(k, f"key_{k}", f"{k} a key with a long description") for k in "bcdefghij"]

    def compose(self) -> ComposeResult:
        yield Footer()


def test_the_check_finds_a_key_bar_running_past_the_edge():
    async def go():
        app = _Keys()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert any("Footer" in f for f in cut_texts(app))

    asyncio.run(go())


def test_a_header_prompt_cut_at_80_columns_ends_with_an_ellipsis():
    from colosseum.tui.widgets.header import HeaderLine

    argv = hostile_argv("colosseum", 4, "original", (), seed=3)
    argv[argv.index("--names") + 1] = "Aurelia Maximiliana Cornelia,小明,[/a],ベッキー"
    app = build_app(parse_args(argv), record=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await _wait(pilot, lambda: isinstance(app.screen, ModalScreen), "the first dialog")
            await pilot.pause()
            header = app.game_screen().query_one(HeaderLine)
            line = header.build_lines()[0].plain
            # the prompt is cut (and says so); the acting player's cash stays at the end
            assert "..." in line and "Aurelia" in line and re.search(r"\.\.\.\s+\$\d+$", line), line

    asyncio.run(go())
