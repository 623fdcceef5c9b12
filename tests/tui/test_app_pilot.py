"""Pilot tests of the whole client: games played through the app, end to end.

Helpers are plain async functions over a Pilot so that games driven by key presses through
the decision dialogs can be added with the same pattern (``play_by_keys`` below).
"""

from __future__ import annotations

import asyncio

import pytest
from app_positions import human_session, play_until

from colosseum.core.games.colosseum import replay, to_act
from colosseum.core.games.colosseum.actions import PassBid
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
            assert game.submit(PassBid(player=seat)) is False  # no auction is running
            await pilot.pause()
            assert session.state is before
            assert any("G-3" in n.message and "auction" in n.message for n in app._notifications)

    run(go())


def test_hot_seat_hand_follows_the_player_to_act_and_keys_view_any_board():
    session = human_session(play_until(lambda st: st.phase == "invest"), humans=4)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        from colosseum.core.games.colosseum import to_act
        from colosseum.tui.games.colosseum.hand import HandPanel

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
            assert type(app.screen).__name__ == "GameScreen"  # stays closed
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
            # dialogs highlight track spaces on the board through the app
            from colosseum.tui.games.colosseum.board import BoardPanel, PreviewSpaces

            board = app.game_screen().query_one(BoardPanel)
            app.post_message(PreviewSpaces(frozenset({5, 17})))
            await pilot.pause()
            assert board.preview == frozenset({5, 17})
            app.post_message(PreviewSpaces(frozenset()))
            await pilot.pause()
            assert board.preview == frozenset()

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


def test_fallback_chooser_when_no_dialog_is_available(monkeypatch):
    """Without the decision dialogs every decision still has a keyboard path: the plain
    chooser over the engine's legal actions (Enter takes the highlighted one)."""
    from colosseum.tui.games.colosseum.client import ColosseumClient

    monkeypatch.setattr(ColosseumClient, "dialog", lambda self, session, seat: None)
    app = app_for(["play", "--players", "3", "--humans", "2", "--bots", "random", "--seed", "4", "--bot-delay", "0"])

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.session
            for _ in range(8):
                for _ in range(40):
                    if type(app.screen).__name__ == "ActionChooser":
                        break
                    await pilot.pause(0.02)
                chooser = app.screen
                assert type(chooser).__name__ == "ActionChooser"
                assert chooser.seat == to_act(session.state) and chooser.seat in (0, 1)
                before = len(session.actions)
                await pilot.press("end", "enter")
                await pilot.pause()
                assert len(session.actions) > before

    run(go())


def test_unknown_bot_falls_back_to_random_and_bad_arguments_are_refused(capsys):
    app = app_for(["play", "--players", "3", "--humans", "1", "--bots", "nosuchbot", "--seed", "1"])
    assert [s.kind for s in app.session.seats] == ["human", "random", "random"]
    assert "nosuchbot" in capsys.readouterr().err
    assert build_app(build_parser().parse_args(["play", "--players", "3", "--humans", "4"]), record=False) == 2
    assert build_app(build_parser().parse_args(["play", "--theme", "nope"]), record=False) == 2
    themed = app_for(["play", "--theme", "colosseum-contrast", "--seed", "1"])
    assert themed.theme == "colosseum-contrast"


def test_log_shows_the_newest_events_while_a_dialog_is_open():
    session = human_session(play_until(lambda st: st.phase == "invest"), n=4, humans=1)
    app = ColosseumApp(session, bot_delay=0)

    async def go():
        from textual.screen import ModalScreen

        from colosseum.core.games.colosseum.actions import EndTurn
        from colosseum.tui.widgets.log import LogPanel

        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(40):  # bots move until the human's dialog is up
                if isinstance(app.screen, ModalScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, ModalScreen)
            log = app.game_screen().query_one(LogPanel)
            height = log.scrollable_content_region.height
            last = log.render_line(height - 1).text.strip()
            assert last and last in session.events[-1].text
            app.screen.dismiss()  # Escape-like; then the human ends the turn by hand
            await pilot.pause()
            session.submit(EndTurn(player=to_act(session.state)))
            await pilot.pause(0.2)
            last = log.render_line(height - 1).text.strip()
            assert last and last.split()[-1] in session.events[-1].text

    run(go())


# The human's policy in the dialog-driven game: the first of these actions a dialog offers.
DIALOG_PREFERENCE = (
    "end_turn",
    "pass_turn",
    "pass_bid",
    "skip",
    "nothing",
    "decline",
    "reject",
    "confirm",
    "move",
    "perform",
    "close",
)


def dialog_keys(dialog) -> list[str]:
    """The key of the most preferred enabled binding of ``dialog`` (else Enter)."""
    offered = {}
    for key, (_node, binding, enabled, _tip) in dialog.active_bindings.items():
        if enabled:
            offered.setdefault(binding.action.split("(")[0], key)
    for action in DIALOG_PREFERENCE:
        if action in offered:
            return [offered[action]]
    return ["enter"]


def dialog_game(argv: list[str], humans: tuple[int, ...]) -> None:
    app = app_for(argv)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await play_by_keys(pilot, dialog_keys)
            await wait_for_screen(pilot, "EndScreen")
            session = app.session
            for seat in humans:
                assert sum(1 for a in session.actions if a.player == seat) >= 12, seat
            final, _ = replay(session.setup, session.actions)
            assert final.result == session.state.result
            assert ranking_on_screen(app) == [final.players[s.seat].name for s in final.result.standings]

    run(go())


def test_one_human_plays_a_whole_game_by_keys_through_the_dialogs():
    """One human seat against three bots, every decision made with key presses in the real
    decision dialogs (the human mostly passes); the ranking shown equals the engine's."""
    dialog_game(
        ["play", "--players", "4", "--humans", "1", "--bots", "random", "--seed", "5", "--bot-delay", "0"], (0,)
    )


@pytest.mark.long(18)
def test_hot_seat_game_with_two_humans_by_keys():
    """Hot seat: two human seats share the keyboard (the dialogs follow whoever must act)
    against a bot, to the end screen; the ranking shown equals the engine's."""
    dialog_game(
        ["play", "--players", "3", "--humans", "2", "--bots", "random", "--seed", "2", "--bot-delay", "0"], (0, 1)
    )


def test_new_game_from_the_palette_replaces_the_running_game(monkeypatch, tmp_path):
    monkeypatch.setenv("COLOSSEUM_DATA_DIR", str(tmp_path))  # the new game is recorded
    session = human_session(play_until(lambda st: st.phase == "invest"), humans=4)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            old = app.game_screen()
            app.action_new_game()
            await pilot.pause()
            assert type(app.screen).__name__ == "NewGameScreen"
            await pilot.press("escape")  # back to the game, nothing changed
            assert app.screen is old
            app.action_new_game()
            await pilot.pause()
            app.screen.query_one("#ng-seed").value = "9"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.session is not session and app.session.setup.seed == 9
            assert app.game_screen() is not old and app.game_screen().session is app.session
            assert old._stopped

    run(go())


def test_hot_seat_player_not_to_act_can_propose_a_deal_with_d():
    """G-4: anyone may propose a deal to the active player; in hot seat the viewed human opens
    the trade dialog with d (shown only when it applies)."""
    session = human_session(play_until(lambda st: st.phase == "trade" and st.trade.deal is None), humans=4)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            game = app.game_screen()
            actor = to_act(session.state)
            assert not game.check_action("game_key", ("deal",))  # the active player uses a / Enter
            other = (actor + 1) % 4
            await pilot.press(str(other + 1))
            assert game.check_action("game_key", ("deal",))
            await pilot.press("d")
            await pilot.pause()
            assert type(app.screen).__name__ == "TradeDialog" and app.screen.seat == other

    run(go())


def test_review_opens_the_viewer_over_a_running_game_without_disturbing_it():
    """`v` looks back over the game so far; stepping in the viewer changes nothing in
    the game, and closing it returns to the same decision."""
    session = human_session(play_until(lambda st: st.phase == "hire"), humans=4)
    before = len(session.actions)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("v")
            await pilot.pause()
            assert type(app.screen).__name__ == "ViewerScreen"
            await pilot.press("home", "right", "right", "pagedown")
            await pilot.pause()
            assert len(session.actions) == before
            await pilot.press("escape")
            await pilot.pause()
            assert type(app.screen).__name__ == "GameScreen"
            assert len(session.actions) == before

    run(go())


def test_log_scrolled_back_says_where_it_is_and_end_follows_again():
    """The log has no scroll bar (it would be redrawn on every move at an SSH table): scrolled
    back, its bottom border names the lines shown; new moves do not pull it down; End does."""
    session = human_session(play_until(lambda st: st.actions >= 120 and st.phase != "over"), humans=4)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        from colosseum.core.games.colosseum import legal
        from colosseum.tui.widgets.log import LogPanel

        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            log = app.game_screen().query_one(LogPanel)
            assert log.following and not log.border_subtitle
            await pilot.press("l", "pageup")
            await pilot.pause()
            assert not log.following
            note = str(log.border_subtitle)
            assert note.startswith("lines ") and note.endswith(f"of {log.line_count}, End: newest"), note
            shown = log.render_line(0).text
            session.submit(legal(session.state).actions[0])  # a move while scrolled back
            await pilot.pause()
            assert log.render_line(0).text == shown  # the player's place is kept
            assert str(log.border_subtitle).endswith(f"of {log.line_count}, End: newest")
            await pilot.press("end")
            await pilot.pause()
            assert log.following and not log.border_subtitle
            height = log.scrollable_content_region.height
            assert log.render_line(height - 1).text.strip().split()[-1] in session.events[-1].text

    run(go())


def test_the_log_filling_its_panel_lays_nothing_out(monkeypatch):
    """The first time the log's lines fill its panel, Textual would mount a scroll bar (even one
    drawn 0 cells wide) and lay the whole screen out again: over SSH on every screen of the table
    at the same move (the slowest delivery of a load test, "Round 1 begins").  The log has no bar
    at all; it still scrolls (the test above)."""
    from textual.screen import Screen

    from colosseum.core.games.colosseum import legal
    from colosseum.tui.widgets.log import LogPanel

    session = human_session(play_until(lambda st: st.actions >= 1), humans=4)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)
    layouts = []
    real = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        layouts.append(type(self).__name__)
        return real(self, *args, **kwargs)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            log = app.game_screen().query_one(LogPanel)
            height = log.scrollable_content_region.height
            assert 0 < log.line_count < height  # not yet full
            monkeypatch.setattr(Screen, "_refresh_layout", counted)
            moves = 0
            while log.line_count <= height + 2 and moves < 60:
                session.submit(legal(session.state).actions[0])
                await pilot.pause()
                moves += 1
            assert log.line_count > height and log.max_scroll_y > 0  # it filled up
            assert not log.show_vertical_scrollbar
            assert layouts == []

    run(go())


def test_a_list_message_queued_before_the_decision_was_made_elsewhere_is_dropped():
    """Colosseum's side of the Municipium case (a highlight and a choice queued in the
    starting-gates dialog, the gate chosen elsewhere in the same tick): nothing crashes, the
    dialog goes, and the queued choice does not act a second time."""
    from colosseum.core.registry import rules
    from colosseum.tui.plain import OptionList

    app = app_for(["play", "--players", "4", "--humans", "1", "--seed", "1", "--bot-delay", "0"])

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_screen(pilot, "SetupDialog")
            dialog, session = app.screen, app.session
            lst = dialog.query_one(OptionList)
            dialog.post_message(OptionList.OptionHighlighted(lst, lst.get_option_at_index(1), 1))
            dialog.post_message(OptionList.OptionSelected(lst, lst.get_option_at_index(1), 1))
            n = len(session.actions)
            action = rules("colosseum").make_bot("normal", 0).act(session.state)
            session.submit(action)
            assert not dialog.decision_open()
            for _ in range(6):
                await pilot.pause()
            assert app.screen is not dialog
            assert session.actions[n] == action
            # seat 0 (the person, who acts only through a dialog) acted once since: the bots'
            # gates and moves follow, and no second choice of the queued message
            by_person = [i for i in range(n, len(session.actions)) if to_act(session.states[i]) == 0]
            assert by_person == [n]

    run(go())
