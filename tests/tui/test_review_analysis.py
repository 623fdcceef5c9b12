"""The review's analysis (``a``, D-103): what the hint bot would do at the position shown, beside
what the game went on with; nothing recorded; off in a running table's game without hints; a
finished position has no decision to analyse."""

from __future__ import annotations

import asyncio

from test_hint_app import SEATS, SETUP, TableSession
from test_viewer import sample_log

from colosseum.tui.plain import Static
from colosseum.tui.review_app import ViewerApp
from colosseum.tui.screens.hint import AnalysisScreen
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.viewer import ViewerScreen


async def _answer(pilot, screen) -> None:
    for _ in range(300):
        await pilot.pause(0.02)
        if screen.result is not None:
            break
    await pilot.pause()


def test_a_in_the_review_analyses_the_position_shown_and_names_the_move_played():
    log = sample_log()
    tl = log.timeline
    at = next(i for i in range(tl.end) if tl.state(i).hire is not None and tl.state(i).hire.auction is not None)
    played = tl.actions[at]
    hints = list(log.hints)

    async def go():
        app = ViewerApp(log, start_index=at)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            viewer = app.screen
            assert isinstance(viewer, ViewerScreen)
            assert "a: analyse" in str(viewer.query_one("#v-bar", Static).render())
            await pilot.press("a")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, AnalysisScreen) and screen.state is tl.state(at)
            assert screen.played == played
            await _answer(pilot, screen)
            text = str(screen.query_one("#hint-text").render())
            assert "The hard bot's choice: " in text, text
            assert "In the game: " in text and "A hint plays nothing" not in text, text
            if any(o.action == played for o in screen.result.hint):
                assert "(played)" in text, text
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is viewer and viewer.index == at
            assert list(viewer.hints) == hints  # nothing recorded

    asyncio.run(go())


def test_the_end_of_a_game_has_nothing_to_analyse():
    async def go():
        app = ViewerApp(sample_log())  # opens at the end: the game is over
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            viewer = app.screen
            assert "a: analyse" not in str(viewer.query_one("#v-bar", Static).render())
            await pilot.press("a")
            await pilot.pause()
            assert app.screen is viewer
            assert any("no decision to analyse" in str(n.message) for n in app._notifications)

    asyncio.run(go())


def test_a_running_tables_review_analyses_only_where_its_hints_are_allowed():
    """A table that allows no hints: its game's review (``v``) must not be one by another key."""
    off = ViewerScreen.from_session(TableSession(SETUP, SEATS))
    off.analyser = AnalysisScreen  # (as the game screen's ``v`` gives it)
    assert not off.analysis and off.check_action("analyse", ()) is False
    on = ViewerScreen.from_session(LocalSession(SETUP, SEATS))
    assert on.analysis and on.hint_max_think == 9.0


def test_a_finished_tables_game_is_analysed_in_its_review_whatever_its_hints():
    over = TableSession(SETUP, (Seat("greedy"),) * 3)
    while over.step_bot():
        pass
    assert over.rules.is_over(over.state) and not over.offers_hint()
    assert ViewerScreen.from_session(over).analysis


def test_the_move_played_is_marked_and_the_analysis_is_for_no_player_in_play():
    from colosseum.core.gamelog import HintLine, HintOption
    from colosseum.core.games.colosseum.actions import EndTurn, PassBid
    from colosseum.tui.screens.hint import hint_text

    session = LocalSession(SETUP, SEATS)
    rules, state = session.rules, session.state
    opts = (
        HintOption(action=EndTurn(player=1), text="Kat ends the turn", win=0.5, playouts=12),
        HintOption(action=PassBid(player=1), text="Kat passes", win=0.25, playouts=12),
    )
    line = HintLine(chat="", seat=1, hint=opts)
    said = hint_text(rules, state, line, played=PassBid(player=1), in_play=False).plain
    assert "Kat passes (played)" in said and "ends the turn (played)" not in said, said
    assert "A hint plays nothing" not in said
    assert "A hint plays nothing for you" in hint_text(rules, state, line).plain
    assert "(played)" not in hint_text(rules, state, line).plain
