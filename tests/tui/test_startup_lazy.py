"""Start-up: ``colosseum`` (the new-game screen) comes up without loading the rules engine, and
the lazily loaded ``colosseum.core`` names are what they always were."""

from __future__ import annotations

import subprocess
import sys

NEW_GAME_PATH = """
import sys
import colosseum.tui.cli, colosseum.tui.app, colosseum.tui.settings
from colosseum.tui.screens import newgame
newgame.bot_names("colosseum"), newgame.player_counts("municipium")
print(sorted(m for m in sys.modules if m.startswith(("colosseum.core", "msgspec"))))
"""


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_new_game_screen_path_does_not_load_the_engine() -> None:
    """The menus need each game's spec and setup type (its options), never its engine, data or
    bots."""
    loaded = eval(run(NEW_GAME_PATH))
    for game in ("colosseum", "municipium"):
        assert f"colosseum.core.games.{game}.spec" in loaded
        engine = [
            m
            for m in loaded
            if m.startswith(f"colosseum.core.games.{game}.") and m.rsplit(".", 1)[1] not in ("spec", "model")
        ]
        assert not engine, engine


def test_a_games_names_load_on_use_and_keep_their_meaning() -> None:
    code = """
import sys, types
import colosseum.core.games.colosseum as game
assert "colosseum.core.games.colosseum.engine" not in sys.modules
from colosseum.core.games.colosseum import catalog, legal, GameSetup, Raise, RuleError, Event
assert callable(catalog) and not isinstance(catalog, types.ModuleType), catalog
assert callable(legal) and not isinstance(legal, types.ModuleType), legal
import colosseum.core.games.colosseum.offers, colosseum.core.games.colosseum.queries
assert game.legal is sys.modules["colosseum.core.games.colosseum.offers"].legal
assert game.catalog is sys.modules["colosseum.core.games.colosseum.queries"].catalog
assert Raise.__module__ == "colosseum.core.games.colosseum.actions" and GameSetup.__module__ == "colosseum.core.games.colosseum.model"
assert Event.__module__ == "colosseum.core.events" and RuleError.__module__ == "colosseum.core.errors"
ns = {}
exec("from colosseum.core.games.colosseum import *", ns)
assert set(game.__all__) <= set(ns), set(game.__all__) - set(ns)
try:
    game.no_such_name
except AttributeError:
    print("ok")
"""
    assert run(code) == "ok"


def test_each_games_spec_is_its_rules_spec() -> None:
    from colosseum.core.registry import game_names, spec

    for name in game_names():
        found = spec(name)
        assert found.rules().spec is found and found.name == name
        assert found.rules().setup_type is found.setup_type
    assert spec(None) is spec("colosseum")


def test_hidden_rows_of_the_new_game_screen_are_composed_when_shown() -> None:
    """The fifth seat and the other game's options are mounted when first shown, in Tab order."""
    import asyncio

    from colosseum.tui.app import ColosseumApp
    from colosseum.tui.widgets.forms import Cycle
    from colosseum.tui.widgets.options import row_id

    MUNI_ROW, COLOSSEUM_ROW = row_id("ng-opt", "municipium"), row_id("ng-opt", "colosseum")

    async def go() -> None:
        app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            assert not scr.query("#ng-seat-4") and not scr.query(f"#{MUNI_ROW}")
            scr.query_one("#ng-players", Cycle).focus()
            await pilot.press("right")  # 5 players
            await pilot.pause()
            assert scr.query_one("#ng-seat-4").display
            scr.query_one("#ng-kind-3").focus()
            await pilot.press("tab")
            assert app.focused is scr.query_one("#ng-name-4")
            scr.query_one("#ng-game", Cycle).focus()
            await pilot.press("right")  # Municipium: 2-4 players, its options row
            await pilot.pause()
            assert scr.query_one(f"#{MUNI_ROW}").display and not scr.query_one(f"#{COLOSSEUM_ROW}").display
            assert not scr.query_one("#ng-seat-4").display
            await pilot.press("left")  # Colosseum again: its row is first, as composed
            await pilot.pause()
            rows = [w.id for w in scr.query_one("#ng-body").children]
            assert rows.index(COLOSSEUM_ROW) < rows.index(MUNI_ROW) < rows.index("ng-start")
            scr.query_one("#ng-opt-starting-coins").focus()  # the last field of its options
            await pilot.press("tab")
            assert app.focused is scr.query_one("#ng-start")
            settings = scr.read()
            assert settings is not None and settings.game == "colosseum" and settings.players == 4
            assert settings.names == ["Becky", "Kat", "Laura", "Marcus", "Titus"]

    asyncio.run(go())


def test_start_button_is_pressed_by_enter_and_by_a_click() -> None:
    import asyncio

    from colosseum.tui.app import ColosseumApp

    for how in ("enter", "click"):

        async def go(how: str = how) -> None:
            app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                if how == "enter":
                    app.screen.query_one("#ng-start").focus()
                    await pilot.press("enter")
                else:
                    await pilot.click("#ng-start")
                await pilot.pause()
                assert type(app.screen).__name__ == "GameScreen", how

        asyncio.run(go())


def test_the_option_specs_spell_colosseums_variants_and_options_as_the_catalog() -> None:
    """The command line's flags and the forms are made from the setup's option specs (so the
    new-game screen need not load the data schema): they spell what the catalog has."""
    from colosseum.core.games.colosseum.components import OPTIONS, VARIANTS
    from colosseum.core.registry import spec

    specs = {o.name: o for o in spec("colosseum").options}
    assert tuple(c.value for c in specs["variant"].choices) == tuple(VARIANTS)
    assert tuple(c.value for c in specs["options"].choices) == tuple(OPTIONS)


PLAY_PATH = """
import sys
from colosseum.tui.app import build_app
from colosseum.tui.cli import build_parser
import colosseum.tui.screens.game
app = build_app(build_parser().parse_args(["play", "--seed", "3", "--bot-delay", "0"]))
assert app.record_pending and app.session.recorder is None
print(sorted(m for m in sys.modules if m in ("colosseum.tui.storage", "colosseum.core.gamelog", "colosseum.core.logwriter")))
"""


def test_play_loads_no_log_module_before_the_first_frame() -> None:
    assert run(PLAY_PATH) == "[]"


def test_play_saves_the_game_from_its_first_frame_on() -> None:
    import asyncio

    from colosseum.core.logread import read_log
    from colosseum.tui.app import _finish, build_app
    from colosseum.tui.cli import build_parser
    from colosseum.tui.widgets.save_banner import SaveBanner

    args = build_parser().parse_args(["play", "--humans", "0", "--seed", "3", "--bot-delay", "0"])
    app = build_app(args)
    assert not isinstance(app, int)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            assert not app.record_pending and app.session.recorder is not None
            banner = app.screen.query_one(SaveBanner)
            assert banner._rec is app.session.recorder  # the banner follows it

    asyncio.run(go())
    path = app.session.recorder.path
    assert _finish(app) == 0
    assert read_log(path).actions == list(app.session.actions)

    # a game left before its first frame is saved on the way out all the same
    never_drawn = build_app(args)
    assert not isinstance(never_drawn, int)
    assert _finish(never_drawn) == 0
    assert never_drawn.session.recorder is not None and never_drawn.session.recorder.path.exists()


def test_option_checkboxes_toggle_with_space_enter_and_a_click() -> None:
    import asyncio

    from colosseum.tui.app import ColosseumApp

    async def go() -> None:
        app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            box = app.screen.query_one("#ng-opt-options-auction-2007")
            box.focus()
            await pilot.press("space")
            assert box.value is True
            await pilot.press("enter")
            assert box.value is False
            await pilot.click("#ng-opt-options-auction-2007")
            await pilot.pause()
            assert box.value is True and app.focused is box
            settings = app.screen.read()
            assert settings is not None and settings.options == {"options": ("auction-2007",)}

    asyncio.run(go())


def test_the_parser_built_for_the_command_given_parses_as_the_whole_one() -> None:
    from colosseum.tui import cli

    for argv in (
        [],
        ["--theme", "colosseum-light"],
        ["play", "--players", "3", "--seed", "5", "--names", "a,b,c"],
        ["--theme", "colosseum-light", "play", "--humans", "2"],
        ["--theme=colosseum-light", "simulate", "--games", "2"],
        ["resume"],
        ["fork", "x.jsonl", "--at", "r3"],
        ["serve"],
    ):
        got = vars(cli.parse_args(argv))
        got.pop("setup_options", None)  # the game's options, checked (play, simulate)
        assert got == vars(cli.build_parser().parse_args(argv)), argv
    assert cli._command_in(["--theme", "x", "view", "f"]) == "view"
    assert cli._command_in(["--version"]) is None and cli._command_in(["nope"]) is None


def test_the_collector_is_back_on_once_the_first_frame_is_drawn() -> None:
    """``colosseum`` / ``colosseum play`` start with the garbage collector off (cli.main)."""
    import asyncio
    import gc

    from colosseum.tui.app import ColosseumApp

    async def go() -> None:
        app = ColosseumApp(None, bot_delay=0, auto_dialogs=False)
        gc.disable()
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await pilot.pause()
                assert gc.isenabled()
        finally:
            gc.enable()

    asyncio.run(go())


def test_the_first_theme_styles_as_assigning_it_would() -> None:
    """The app takes its first theme before any CSS is parsed (``BaseApp._first_theme``, which
    does what Textual's theme watcher does): the stylesheet's variables and the app's theme
    classes must be those of assigning the theme to a running app."""
    import asyncio

    from colosseum.themes import DEFAULT_THEME, THEME_NAMES
    from colosseum.tui.base import BaseApp

    def theme_classes(app: BaseApp) -> set[str]:
        return {c for c in app.classes if c.startswith("-theme-") or c.endswith("-mode")}

    async def go(name: str) -> None:
        first = BaseApp(theme=name)
        assigned = BaseApp(theme=DEFAULT_THEME if name != DEFAULT_THEME else "textual-dark")
        async with assigned.run_test(size=(40, 10)) as pilot:
            assigned.theme = name
            await pilot.pause()
            assert first.get_css_variables() == assigned.get_css_variables()
            assert first.stylesheet._variables == assigned.stylesheet._variables
            assert theme_classes(first) == theme_classes(assigned)

    for name in (*THEME_NAMES, "textual-light"):
        asyncio.run(go(name))


def _first_frame(argv: list[str]) -> tuple[list[str], int]:
    """The screens on the stack when ``colosseum play ARGV``'s first frame is drawn, and how many
    actions had been played by then."""
    import asyncio

    from colosseum.tui.app import build_app
    from colosseum.tui.cli import parse_args

    app = build_app(parse_args(["play", *argv]), record=False)
    assert not isinstance(app, int)
    seen: list[tuple[list[str], int]] = []
    display = app._display

    def first(screen: object, renderable: object) -> None:
        if renderable is not None and not seen:
            seen.append(([type(s).__name__ for s in app.screen_stack], len(app.session.actions)))
        display(screen, renderable)  # type: ignore[arg-type]

    app._display = first  # type: ignore[method-assign]

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    asyncio.run(go())
    return seen[0]


def test_the_first_decision_is_drawn_in_the_first_frame() -> None:
    """D-85: bots without delay make their first moves before the first frame, and the first
    person's dialog is in it (one frame, not the game screen's and then the dialog's)."""
    # seat 1 (Becky) chooses her starting gates last: the three bots choose first
    assert _first_frame(["--players", "4", "--humans", "1", "--seed", "1", "--bot-delay", "0"]) == (
        ["GameScreen", "SetupDialog"],
        3,
    )
    # with a delay the bots play at their pace after the game screen is drawn, as before
    assert _first_frame(["--players", "4", "--humans", "1", "--seed", "1", "--bot-delay", "0.5"]) == (["GameScreen"], 0)
    # a search bot thinks off the event loop, after the first frame
    _stack, played = _first_frame(
        ["--players", "3", "--humans", "1", "--seed", "1", "--bot-delay", "0", "--bots", "hard"]
    )
    assert played == 0
