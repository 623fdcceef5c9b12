"""Every key in the key bar keeps working after a state change: the focus lands on the
dialog's main list whatever changed (a bot's move, an answer, our own action), the draft deal
survives Escape, and the palette opens right after the rules screen closes."""

from __future__ import annotations

import asyncio

import pytest
from dialog_harness import dialog_app, find_position, make_session, open_first, settle

from colosseum.core.games.colosseum import GameSetup
from colosseum.core.games.colosseum.actions import CancelDeal, RejectDeal
from colosseum.tui.games.colosseum.dialogs import (
    AuctionDialog,
    DecisionDialog,
    InvestDialog,
    NobleDialog,
    PerformDialog,
    SetupDialog,
    TradeDialog,
)
from colosseum.tui.games.colosseum.dialogs.base import ChoiceList

SIZE = (80, 24)


def run(coro):
    return asyncio.run(coro)


def shown_lists(dlg) -> list[ChoiceList]:
    return [w for w in dlg.query(ChoiceList) if dlg._shown(w)]


def enabled(lst: ChoiceList) -> int:
    return sum(1 for i in range(lst.option_count) if not lst.get_option_at_index(i).disabled)


def _keys_for(dlg, session) -> list[str]:
    st = session.state
    if isinstance(dlg, SetupDialog):
        return ["enter"]
    if isinstance(dlg, InvestDialog):
        return ["o"] if dlg._offered("promoter") and not st.invest.made else ["p"]
    if isinstance(dlg, AuctionDialog):
        if st.hire.auction is None and dlg.can_bid() and st.hire.auctions == 0:
            return ["enter"]
        return ["p"]
    if isinstance(dlg, TradeDialog):
        if dlg.can_accept():
            return ["n"]
        if dlg.can_close_deal():
            return ["enter"]
        if dlg.can_withdraw():
            return ["w"]
        return ["p"]
    if isinstance(dlg, NobleDialog):
        return ["enter"]
    if isinstance(dlg, PerformDialog):
        return ["enter"] if dlg.can_perform() else ["p"]
    return ["enter"]


@pytest.mark.long(26)
def test_arrows_move_every_dialogs_list_after_each_state_change():
    """Seat 0 plays a whole game with keys; whenever a dialog is still open after the game
    moved on (its own action, or the bots'), the focus is on a shown list and Up/Down move its
    highlight."""

    async def go():
        setup = GameSetup(players=("Kat", "Becky", "Laura"), seed=5)
        session = make_session(setup, [])
        app = dialog_app(session, auto=True)
        checked: set[str] = set()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            for _ in range(600):
                if session.state.phase == "over":
                    break
                dlg = app.screen
                if not isinstance(dlg, DecisionDialog):
                    await settle(pilot, 10)
                    continue
                before = session.state.actions
                await pilot.press(*_keys_for(dlg, session))
                await settle(pilot, 4)
                if app.screen is not dlg or session.state.actions == before or not dlg.decision_open():
                    continue
                lists = shown_lists(dlg)
                if not lists:
                    continue
                name = type(dlg).__name__
                assert dlg.focused in lists, f"{name}: the focus left its list after a state change"
                lst = dlg.focused
                assert isinstance(lst, ChoiceList)
                if enabled(lst) < 2:
                    continue
                was = lst.highlighted
                await pilot.press("down")
                await settle(pilot, 2)
                if lst.highlighted == was:
                    await pilot.press("up")
                    await settle(pilot, 2)
                    moved, back = lst.highlighted != was, "down"
                else:
                    moved, back = True, "up"
                assert moved, f"{name}: Up/Down do not move the list after a state change"
                await pilot.press(back)
                await settle(pilot, 2)
                checked.add(name)
            assert session.state.phase == "over"
        # the dialogs that stay open through a change of state, and have a list to move
        assert {"InvestDialog", "AuctionDialog"} <= checked, checked

    run(go())


def _remote_others(setup, actions):
    session = make_session(setup, actions, humans=tuple(range(len(setup.players))))
    session.local_seats = lambda: (0,)  # type: ignore[method-assign]
    return session


TRADE_TURN = lambda s: (  # noqa: E731
    s.phase == "trade" and s.trade.deal is None and s.trade.active == 0 and s.players[0].coins >= 2
)


async def _offer_coins(pilot, kat, n: int) -> None:
    kat.query_one("#grid", ChoiceList).highlighted = kat._rows.index("coins")
    if kat.col == 0:  # to the "gets" column: Kat gives coins
        await pilot.press("right")
    await pilot.press(*(["plus"] * n))
    await settle(pilot)


def test_escape_keeps_the_draft_deal():
    async def go():
        setup, actions = find_position(TRADE_TURN)
        session = _remote_others(setup, actions)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            kat = app.screen
            assert isinstance(kat, TradeDialog)
            await _offer_coins(pilot, kat, 2)
            deal = kat.transfers()
            assert deal
            await pilot.press("escape")
            await settle(pilot)
            assert not isinstance(app.screen, DecisionDialog)
            await pilot.press("a")
            await settle(pilot)
            again = app.screen
            assert isinstance(again, TradeDialog) and again is not kat
            assert again.transfers() == deal
            await pilot.press("c")  # cleared on purpose
            await settle(pilot)
            assert again.transfers() == ()

    run(go())


def test_trade_row_forgets_answers_to_a_deal_that_is_gone():
    """Becky rejects: only her rejection is shown, not Laura's pending answer; after a
    withdrawal nobody's answer is shown."""

    async def go():
        setup, actions = find_position(TRADE_TURN, n=4)
        session = _remote_others(setup, actions)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            kat = app.screen
            assert isinstance(kat, TradeDialog)
            await _offer_coins(pilot, kat, 1)
            await pilot.press("tab")
            await settle(pilot)
            await _offer_coins(pilot, kat, 1)
            await pilot.press("enter")
            await settle(pilot)
            deal = session.state.trade.deal
            assert deal is not None and len({tr.receiver for tr in deal.transfers}) == 2
            first = next(s for s, a in enumerate(deal.answers) if a == "pending")
            session.submit(RejectDeal(player=first))
            await settle(pilot)
            assert kat.last_answers == {first: "rejected"}
            assert "pending" not in str(kat.query_one("#partners").render())
            await pilot.press("enter")  # the draft is still there: propose it again
            await settle(pilot)
            assert session.state.trade.deal is not None
            session.submit(CancelDeal(player=0))
            await settle(pilot)
            assert kat.last_answers == {}

    run(go())


def test_ctrl_p_right_after_closing_the_rules():
    async def go():
        session = make_session(GameSetup(players=("Kat", "Becky", "Laura"), seed=3), [])
        app = dialog_app(session, auto=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            for close in ("escape", "r"):
                await pilot.press("r")
                await settle(pilot)
                if type(app.screen).__name__ != "RulesScreen":  # a dialog has "r" for itself
                    await pilot.press("escape")
                    await settle(pilot)
                    await pilot.press("r")
                    await settle(pilot)
                assert type(app.screen).__name__ == "RulesScreen"
                await pilot.press(close, "ctrl+p")
                await settle(pilot)
                assert type(app.screen).__name__ == "CommandPalette"
                await pilot.press("escape")
                await settle(pilot)

    run(go())
