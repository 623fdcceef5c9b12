"""A person answers a bot's deal "not this round" (`N`: D-69, the bot proposes nothing to them
again this round) or with a counter-offer (`C`: the deal is rejected and the trade grid opens
with it, to edit and send back; D-81), at 80x24 with names that look like markup."""

from __future__ import annotations

import asyncio

from app_positions import play_until

from colosseum.core.games.colosseum import GameSetup, ProposeDeal
from colosseum.core.games.colosseum.actions import AcceptDeal, RejectDeal
from colosseum.core.games.colosseum.model import Transfer
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.colosseum.dialogs.trade import TradeDialog, TradeGrid, counter_draft
from colosseum.tui.session import LocalSession, Seat

SEED = 1
NAMES = ("小明", "[/a]", "Aurelia Maximiliana Cornelia", "[b]Kat")


def human_trade_turn() -> LocalSession:
    """小明 (a person) starts the first trade turn against three greedy bots."""
    actions = play_until(
        lambda st: st.phase == "trade" and st.trade.active == 0 and st.trade.proposals == 0,
        n=4,
        seed=SEED,
        bot="greedy",
    )
    return LocalSession(GameSetup(players=NAMES, seed=SEED), (Seat("human"),) + (Seat("greedy"),) * 3, actions=actions)


async def _bot_offer_shown(app, pilot, session) -> TradeDialog:
    for _ in range(300):
        await pilot.pause(0.02)
        t = session.state.trade
        if isinstance(app.screen, TradeDialog) and t.deal is not None and t.deal.proposer != 0:
            break
    dialog = app.screen
    assert isinstance(dialog, TradeDialog)
    assert session.state.trade.deal.answers[0] == "pending"
    await pilot.pause()
    shown = {b.action for _k, (_n, b, enabled, _t) in dialog.active_bindings.items() if enabled and b.show}
    assert {"accept", "reject", "not_this_round", "counter"} <= shown
    return dialog


def _involves(a: ProposeDeal, seat: int) -> bool:
    return any(seat in (tr.giver, tr.receiver) for tr in a.transfers)


def test_not_this_round_keeps_the_bot_from_offering_again_this_round():
    session = human_trade_turn()
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)
    round_ = session.state.round

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await _bot_offer_shown(app, pilot, session)
            bot = session.state.trade.deal.proposer
            text = " ".join(str(w.render()) for w in dialog.query("Static"))
            assert NAMES[bot] in text  # the name as typed, never markup
            await pilot.press("N")
            await pilot.pause()
            at = len(session.actions)
            assert session.actions[at - 1] == RejectDeal(player=0, whole_round=True)
            assert session.state.refusals[-1].whole_round
            # play the rest of the trade phase: no to every deal, then end the turn
            for _ in range(1500):
                await pilot.pause(0.01)
                st = session.state
                if st.phase != "trade" or st.round != round_:
                    break
                screen = app.screen
                if not isinstance(screen, TradeDialog) or screen.seat != 0 or not screen.my_turn():
                    continue
                if st.trade.deal is not None and st.trade.deal.answers[0] == "pending":
                    await pilot.press("n")
                elif st.trade.active == 0 and st.trade.deal is None:
                    await pilot.press("p")
            assert session.state.phase != "trade" or session.state.round != round_
            later = [a for a in session.actions[at:] if isinstance(a, ProposeDeal) and a.player == bot]
            assert not [a for a in later if _involves(a, 0)], later

    asyncio.run(go())


def test_a_counter_offer_opens_the_deal_to_edit_and_the_bot_answers_it():
    session = human_trade_turn()
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await _bot_offer_shown(app, pilot, session)
            deal = session.state.trade.deal
            bot = deal.proposer
            await pilot.press("C")
            await pilot.pause()
            assert session.actions[-1] == RejectDeal(player=0)
            assert app.screen is dialog and not dialog.over, "the same dialog goes on, composing"
            assert session.held, "no other bot's offer comes in while the counter is edited"
            assert dialog.partner == bot
            assert set(dialog.transfers()) == set(deal.transfers)
            grid = dialog.query_one("#grid", TradeGrid)
            assert grid.display
            # the edit: one coin more from 小明 (or one fewer to them)
            rows = [o.id for o in grid._options]
            grid.highlighted = rows.index("coins")
            await pilot.pause()
            takes = dialog.offer.get((bot, "coins", 0), 0)
            if takes:  # the bot pays coins: ask one fewer
                await pilot.press("minus")
            else:
                await pilot.press("right", "plus")
            await pilot.pause()
            sent = dialog.transfers()
            assert set(sent) != set(deal.transfers)
            await pilot.press("enter")
            for _ in range(300):
                await pilot.pause(0.02)
                if any(isinstance(a, (AcceptDeal, RejectDeal)) and a.player == bot for a in session.actions[-3:]):
                    break
            proposals = [a for a in session.actions if isinstance(a, ProposeDeal) and a.player == 0]
            assert proposals and set(proposals[-1].transfers) == set(sent)
            after = session.actions[session.actions.index(proposals[-1]) + 1 :]
            assert after and isinstance(after[0], (AcceptDeal, RejectDeal)) and after[0].player == bot

    asyncio.run(go())


def test_the_counter_draft_is_the_deal_from_the_answering_side():
    offer: dict[tuple[int, str, int], int] = {(2, "coins", 1): 5}
    trs = (Transfer(1, 0, "coins", 3), Transfer(0, 1, "Hor", 1), Transfer(2, 3, "coins", 1))
    assert counter_draft(offer, trs, 0) is True
    assert offer == {(1, "coins", 0): 3, (1, "Hor", 1): 1}


def test_a_counter_to_the_active_bot_holds_it_and_escape_leaves_the_rejection():
    """A bot proposes to 小明 in its own trade turn; `C` rejects and opens the grid (the bot
    waits meanwhile); Escape sends nothing, the rejection stands and the bot goes on (D-81)."""
    session = human_trade_turn()
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = None
            for _ in range(2000):
                await pilot.pause(0.01)
                st = session.state
                assert st.phase == "trade", "no bot proposed to 小明 in its own turn"
                screen = app.screen
                if not isinstance(screen, TradeDialog) or screen.seat != 0 or not screen.my_turn():
                    continue
                t = st.trade
                if t.deal is not None and t.deal.answers[0] == "pending":
                    if t.active != 0 and t.deal.proposer == t.active and screen.can_counter():
                        dialog = screen
                        break
                    await pilot.press("n")
                elif t.active == 0 and t.deal is None:
                    await pilot.press("p")
            assert dialog is not None
            await pilot.pause()
            deal = session.state.trade.deal
            await pilot.press("C")
            await pilot.pause(0.2)
            at = len(session.actions)
            assert session.actions[-1] == RejectDeal(player=0)
            assert app.screen is dialog and dialog.partner == deal.proposer
            assert set(dialog.transfers()) == set(deal.transfers)
            assert session.held and len(session.actions) == at, "the active bot waits"
            await pilot.press("escape")
            for _ in range(200):
                await pilot.pause(0.02)
                if len(session.actions) > at:
                    break
            assert len(session.actions) > at, "the bot goes on once the grid is closed"
            assert not any(isinstance(a, ProposeDeal) and a.player == 0 for a in session.actions[at:])

    asyncio.run(go())
