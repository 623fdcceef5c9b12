"""Pilot tests of the whole client: games played through the app, end to end.

Helpers are plain async functions over a Pilot so that games driven by key presses through
the decision dialogs can be added with the same pattern (``play_by_keys`` below).
"""

from __future__ import annotations

import asyncio

from app_positions import human_session, play_until
from colosseum.core import replay, to_act
from colosseum.core.actions import PassBid
from colosseum.tui.app import ColosseumApp, build_app
from colosseum.tui.cli import build_parser


def run(coro):
    return asyncio.run(coro)


def app_for(argv: list[str]) -> ColosseumApp:
    app = build_app(build_parser().parse_args(argv), record=False)
    assert isinstance(app, ColosseumApp), app
    return app


async def wait_for_screen(pilot, name: str, timeout: float = 60.0) -> None:
    """Let the app run (bots move in a worker) until the screen named ``name`` is on top."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while type(pilot.app.screen).__name__ != name:
        assert loop.time() < end, f"{name} not reached; on {type(pilot.app.screen).__name__}"
        await pilot.pause(0.05)
    await pilot.pause()
    await pilot.pause()


def ranking_on_screen(app) -> list[str]:
    """Player names in the order the end screen ranks them."""
    text = str(app.screen.query_one("#end-text").render())
    rows = [line.split() for line in text.splitlines() if line[:3] in ("1st", "2nd", "3rd", "4th", "5th")]
    return [r[2] for r in rows if r[1] != "over"]


def test_bots_play_a_whole_game_to_the_end_screen():
    app = app_for(["play", "--players", "4", "--humans", "0", "--seed", "7", "--bot-delay", "0"])

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_screen(pilot, "EndScreen")
            session = app.session
            state = session.state
            assert state.phase == "over"
            # the engine's own verdict, from the setup and the actions alone
            final, _ = replay(session.setup, session.actions)
            assert final.result == state.result
            expected = [state.players[s.seat].name for s in final.result.standings]
            assert ranking_on_screen(app) == expected
            # every event reached the log panel
            from colosseum.tui.widgets.log import LogPanel

            game = app.game_screen()
            assert len(game.query_one(LogPanel).events) == len(session.events)

    run(go())


def test_exit_at_end_quits_with_status_0():
    app = app_for(["play", "--players", "3", "--humans", "0", "--seed", "2", "--bot-delay", "0", "--exit-at-end"])

    async def go():
        await app.run_async(headless=True, size=(80, 24))

    run(go())
    assert app.return_code == 0
    assert app.session.state.phase == "over"


def test_rejected_action_is_a_notification_and_changes_nothing():
    session = human_session(play_until(lambda st: st.phase == "invest"), humans=4)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            game = app.game_screen()
            before = session.state
            seat = to_act(before)
            assert game.submit(PassBid(player=seat)) is False   # no auction is running
            await pilot.pause()
            assert session.state is before
            assert any("G-3" in n.message and "auction" in n.message for n in app._notifications)

    run(go())


def test_hot_seat_hand_follows_the_player_to_act_and_keys_view_any_board():
    session = human_session(play_until(lambda st: st.phase == "invest"), humans=4)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        from colosseum.core import to_act
        from colosseum.tui.widgets.hand import HandPanel

        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            hand = app.screen.query_one(HandPanel)
            actor = to_act(session.state)
            assert hand.seat == actor and "to act" in hand.border_title
            other = (actor + 1) % 4
            await pilot.press(str(other + 1))
            assert hand.seat == other
            await pilot.press("f")
            assert hand.seat == actor

    run(go())


def test_escape_closes_the_dialog_and_a_reopens_it():
    session = human_session(play_until(lambda st: st.phase == "invest"), humans=4)
    app = ColosseumApp(session, bot_delay=0)

    async def go():
        from textual.screen import ModalScreen

        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, ModalScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert type(app.screen).__name__ == "GameScreen"
            await pilot.pause(0.1)
            assert type(app.screen).__name__ == "GameScreen"   # stays closed
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, ModalScreen)

    run(go())


def test_help_rules_and_theme_switch():
    session = human_session(play_until(lambda st: st.phase == "invest"), humans=4)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("f1")
            assert type(app.screen).__name__ == "HelpScreen"
            text = str(app.screen.query_one("#help-text").render())
            assert "View board" in text and "Rules" in text
            await pilot.press("escape")
            await pilot.press("r")
            assert type(app.screen).__name__ == "RulesScreen"
            await pilot.press("escape")
            for name in ("colosseum-light", "colosseum-contrast", "colosseum-dark"):
                app.action_set_theme(name)
                await pilot.pause()
                assert app.theme == name

    run(go())


async def play_by_keys(pilot, keys_for, *, limit: int = 3000, timeout: float = 90.0) -> None:
    """Answer every decision with key presses until the end screen: whenever a dialog is
    up, press ``keys_for(dialog)``; when the game waits on a local human with no dialog, press
    ``a``.  Bots move by themselves meanwhile."""
    from textual.screen import ModalScreen

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    for _ in range(limit):
        screen = pilot.app.screen
        name = type(screen).__name__
        if name == "EndScreen":
            return
        assert loop.time() < end, f"game not finished; on {name}"
        if isinstance(screen, ModalScreen):
            await pilot.press(*keys_for(screen))
        elif name == "GameScreen" and screen.check_action("act", ()):
            await pilot.press("a")
        else:
            await pilot.pause(0.01)
    raise AssertionError("too many key presses")


def test_hot_seat_game_by_key_presses_through_the_chooser(monkeypatch):
    """Two human seats (hot seat) and a bot; every human decision is made with Enter in the
    plain action chooser, mostly End+Enter (pass), sometimes Enter (the decision dialogs are
    switched off here; their own key-driven
    game belongs with them).  The ranking shown equals the engine's."""
    import colosseum.tui.screens.game as game_mod

    monkeypatch.setattr(game_mod, "load_dialog_for", lambda: None)
    app = app_for(["play", "--players", "3", "--humans", "2", "--bots", "random", "--seed", "4", "--bot-delay", "0"])

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            import random

            rnd = random.Random(4)
            # mostly the last choice (pass / end the turn), sometimes the first (act)
            await play_by_keys(pilot, lambda dialog: ["enter"] if rnd.random() < 0.3 else ["end", "enter"])
            await wait_for_screen(pilot, "EndScreen")
            session = app.session
            humans = [a for a in session.actions if a.player in (0, 1)]
            assert len(humans) > 30, len(humans)   # the humans really played
            final, _ = replay(session.setup, session.actions)
            assert final.result == session.state.result
            assert ranking_on_screen(app) == [final.players[s.seat].name for s in final.result.standings]

    run(go())


def test_unknown_bot_falls_back_to_random_and_bad_arguments_are_refused(capsys):
    app = app_for(["play", "--players", "3", "--humans", "1", "--bots", "nosuchbot", "--seed", "1"])
    assert [s.kind for s in app.session.seats] == ["human", "random", "random"]
    assert "nosuchbot" in capsys.readouterr().err
    assert build_app(build_parser().parse_args(["play", "--players", "3", "--humans", "4"]), record=False) == 2
    assert build_app(build_parser().parse_args(["play", "--theme", "nope"]), record=False) == 2
    themed = app_for(["play", "--theme", "colosseum-contrast", "--seed", "1"])
    assert themed.theme == "colosseum-contrast"
