"""User settings: theme, bot delay and key overrides kept in a TOML file between runs."""

from __future__ import annotations

import asyncio

from dialog_harness import make_session, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.tui.app import ColosseumApp
from colosseum.tui.settings import Settings, load_settings, save_settings, settings_path


def test_round_trip_and_damaged_file(tmp_path):
    path = tmp_path / "settings.toml"
    save_settings(Settings(theme="colosseum-light", bot_delay=0.25, keys={"game.review": "v,ctrl+r"}), path)
    back = load_settings(path)
    assert (back.theme, back.bot_delay, back.keys, back.problem) == (
        "colosseum-light",
        0.25,
        {"game.review": "v,ctrl+r"},
        "",
    )
    path.write_text("theme = [\n", encoding="utf-8")
    bad = load_settings(path)
    assert bad.problem and bad.theme is None
    path.write_text('bot_delay = "fast"\n', encoding="utf-8")
    assert "bot_delay" in load_settings(path).problem
    assert load_settings(tmp_path / "missing.toml") == Settings()


def test_the_app_uses_and_keeps_the_settings():
    save_settings(Settings(theme="colosseum-light", bot_delay=0.0, keys={"game.review": "ctrl+r"}))

    async def go():
        session = make_session(GameSetup(players=("Kat", "Becky", "Laura"), seed=3), [])
        app = ColosseumApp(session, auto_dialogs=False)
        assert app.bot_delay == 0.0
        async with app.run_test() as pilot:
            await settle(pilot)
            assert app.theme == "colosseum-light"
            await pilot.press("ctrl+r")  # the review, on the user's key
            await settle(pilot)
            assert type(app.screen).__name__ == "ViewerScreen"
            await pilot.press("escape")
            await settle(pilot)
            app.action_set_theme("colosseum-contrast")
            await settle(pilot)
        assert load_settings(settings_path()).theme == "colosseum-contrast"
        assert load_settings(settings_path()).keys == {"game.review": "ctrl+r"}

    asyncio.run(go())


def test_command_line_wins():
    save_settings(Settings(theme="colosseum-light", bot_delay=2.0))
    app = ColosseumApp(None, theme="colosseum-dark", bot_delay=0.1)
    assert app.theme == "colosseum-dark" and app.bot_delay == 0.1


def test_a_key_override_that_is_no_key_or_names_no_binding_is_reported_and_the_default_kept():
    """Issue 23: ``"game.rules" = "!!!notakey,,"`` was taken and killed `r`; an unknown binding
    id was ignored silently.  Both are reported (the app shows the settings' problem on screen)
    and leave the binding its default; a good override beside them still counts."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '[keys]\n"game.rules" = "!!!notakey,,"\n"game.nosuch" = "x"\n"game.review" = "ctrl+r"\n', encoding="utf-8"
    )
    got = load_settings(path)
    assert got.keys == {"game.review": "ctrl+r"}
    assert "keys.game.rules: '!!!notakey' and an empty key are not keys" in got.problem
    assert "keys.game.nosuch: no binding has that id" in got.problem

    async def go():
        session = make_session(GameSetup(players=("Kat", "Becky", "Laura"), seed=3), [])
        app = ColosseumApp(session, auto_dialogs=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            shown = [n.message for n in app._notifications]
            assert any("are not keys" in m and "no binding has that id" in m for m in shown)
            await pilot.press("r")  # the rules keep their key
            await settle(pilot)
            assert type(app.screen).__name__ == "RulesScreen"

    asyncio.run(go())


def test_every_binding_id_of_the_client_is_known_to_the_settings_check():
    """``keymap_ids.KNOWN_IDS`` is the set of the client's binding ids (so an override of a real
    binding is never refused, and no stale id is let through)."""
    import importlib
    import inspect
    import pkgutil

    from textual.binding import Binding
    from textual.dom import DOMNode

    import colosseum.tui as tui
    from colosseum.tui.keymap_ids import KNOWN_IDS

    ids = set()
    for info in pkgutil.walk_packages(tui.__path__, "colosseum.tui."):
        if ".net.host" in info.name:
            continue
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and issubclass(obj, DOMNode) and obj.__module__ == module.__name__:
                ids.update(b.id for b in obj.__dict__.get("BINDINGS", []) if isinstance(b, Binding) and b.id)
    assert ids == set(KNOWN_IDS), (sorted(ids - KNOWN_IDS), sorted(KNOWN_IDS - ids))


def test_a_key_override_that_takes_another_binding_s_key_is_left_out_and_said():
    """``"dialog.close" = "enter"`` took Enter from the dialog's Confirm: no choice could be
    made and nothing said so.  Such an override is left out where it clashes (the other binding
    keeps its key) and the player is told, on the screen."""
    from dialog_harness import dialog_app, open_first

    from colosseum.tui.games.colosseum.dialogs.base import DecisionDialog

    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[keys]\n"dialog.close" = "enter"\n', encoding="utf-8")
    session = make_session(GameSetup(players=("Kat", "小明", "[/a]"), seed=3), [])
    app = dialog_app(session)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await open_first(pilot)
            assert isinstance(app.screen, DecisionDialog)
            before = len(session.actions)
            await pilot.press("enter")
            await settle(pilot)
            shown = [n.message for n in app._notifications]
            return before, len(session.actions), shown

    before, after, shown = asyncio.run(go())
    assert after > before, "Enter still confirms the choice"
    assert any("dialog.close left out" in m and "the key of dialog.confirm" in m for m in shown), shown


def test_an_unknown_theme_in_the_settings_is_reported():
    """``theme = "nonexistent-theme"`` was ignored without a word."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('theme = "nonexistent-theme"\nbot_delay = 1\n', encoding="utf-8")
    got = load_settings(path)
    assert got.theme is None and got.bot_delay == 1
    assert "theme 'nonexistent-theme' is none of colosseum-dark" in got.problem
    assert got.problem.endswith("(those entries are left out)")
