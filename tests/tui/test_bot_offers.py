"""Bots propose deals to a human's trade turn (G-4: anyone may propose to the active player),
at most once a trade turn each, and the human answers in the trade dialog."""

from __future__ import annotations

import asyncio

from app_positions import NAMES, play_until

from colosseum.core.games.colosseum import GameSetup, ProposeDeal
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.colosseum.dialogs.trade import TradeDialog
from colosseum.tui.session import LocalSession, Seat

SEED = 1


def human_trade_turn() -> LocalSession:
    """Becky (a human) starts her first trade turn against three greedy bots."""
    actions = play_until(
        lambda st: st.phase == "trade" and st.trade.active == 0 and st.trade.proposals == 0,
        n=4,
        seed=SEED,
        bot="greedy",
    )
    setup = GameSetup(players=NAMES[:4], seed=SEED)
    return LocalSession(setup, (Seat("human"),) + (Seat("greedy"),) * 3, actions=actions)


def offers(session: LocalSession, since: int) -> list[ProposeDeal]:
    return [a for a in session.actions[since:] if isinstance(a, ProposeDeal) and a.player != 0]


def test_each_bot_offers_at_most_once_a_trade_turn():
    session = human_trade_turn()
    start = len(session.actions)
    offer = session.bot_offer()
    assert offer is not None and offer.player != 0
    assert 0 in {p for tr in offer.transfers for p in (tr.giver, tr.receiver)}, "the deal includes the active player"
    assert session.bot_to_act() and session.step_bot()
    st = session.state
    assert st.trade.deal is not None and st.trade.deal.proposer == offer.player
    assert st.trade.deal.answers[0] == "pending"
    session.submit(next(a for a in _legal(session) if type(a).__name__ == "RejectDeal"))
    # the next bot may offer its own deal; the one rejected does not come back
    while session.bot_to_act():
        assert session.step_bot()
        if session.state.trade.deal is not None:
            session.submit(next(a for a in _legal(session) if type(a).__name__ == "RejectDeal"))
    made = [a.player for a in offers(session, start)]
    assert len(made) == len(set(made)) >= 1
    assert session.state.trade.active == 0 and session.state.trade.deal is None
    assert session.bot_offer() is None


def test_no_offers_to_a_bots_trade_turn_or_when_turned_off():
    session = human_trade_turn()
    session.bots_offer = False
    assert session.bot_offer() is None and not session.bot_to_act()


def _legal(session):
    from colosseum.core.games.colosseum import legal

    return legal(session.state).actions


def test_the_human_answers_a_bots_offer_in_the_trade_dialog():
    session = human_trade_turn()
    start = len(session.actions)
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                t = session.state.trade
                if isinstance(app.screen, TradeDialog) and t.deal is not None and t.deal.proposer != 0:
                    break
            dialog = app.screen
            assert isinstance(dialog, TradeDialog)
            deal = session.state.trade.deal
            assert deal is not None and deal.answers[0] == "pending"
            shown = {b.action for _k, (_n, b, enabled, _t) in dialog.active_bindings.items() if enabled and b.show}
            assert {"accept", "reject"} <= shown
            proposer = session.state.players[deal.proposer].name
            await pilot.pause()
            text = " ".join(str(w.render()) for w in dialog.query("Static"))
            assert proposer in text
            await pilot.press("n")
            for _ in range(100):
                await pilot.pause(0.02)
                if not session.bot_to_act():
                    break
            t = session.state.trade
            assert session.state.phase == "trade" and t.active == 0
            made = [a.player for a in offers(session, start)]
            assert deal.proposer in made and len(made) == len(set(made))
            assert any(e.kind == "deal" and "rejects" in e.text for e in session.events[-20:])

    asyncio.run(go())


def test_a_swap_is_the_last_move_marked():
    """A deal that swaps one tile for one changes no total: it is still the move marked, with
    what came in and what went out."""
    from colosseum.tui.games.colosseum.players import PlayersPanel

    session = human_trade_turn()
    assert session.step_bot()  # Kat offers a Horse for an Elephant
    proposer = session.state.trade.deal.proposer
    for kind in ("AcceptDeal", "CloseDeal"):
        session.submit(next(a for a in _legal(session) if type(a).__name__ == kind))
    marks = session.follow.marks()
    assert marks.actor == 0 and not any(marks.tiles)
    assert marks.tiles_moved[0] == 2 and marks.tiles_moved[proposer] == 2
    session.bots_offer = False  # nothing else moves while the table is looked at
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            players = app.screen.query_one(PlayersPanel)
            text = "\n".join(line.plain for line in players.build_lines())
            assert text.count("+1/-1t") == 2, text

    asyncio.run(go())


def test_a_bot_sends_a_persons_deal_it_rejected_back_at_its_price():
    """D-69: Becky offers a bot one coin for a tile it holds; the bot rejects and, out of turn,
    proposes the same tile back at a price it would accept (a counter-offer); rejected again,
    it does not ask again this round."""
    from colosseum.core.games.colosseum.actions import RejectDeal
    from colosseum.core.games.colosseum.components import load_catalog
    from colosseum.core.games.colosseum.model import Transfer

    session = human_trade_turn()
    st = session.state
    cat = load_catalog(st.setup.variant)
    countered = 0
    for bot in (1, 2, 3):
        for k in cat.holdable:
            if not st.players[bot].tiles[k] or st.players[0].coins < 4:
                continue
            s = LocalSession(st.setup, session.seats, actions=list(session.actions))
            code = cat.codes[k]
            s.submit(ProposeDeal(player=0, transfers=(Transfer(0, bot, "coins", 1), Transfer(bot, 0, code, 1))))
            while s.bot_to_act() and s.state.trade.deal is not None:
                assert s.step_bot()
            if s.state.trade.deal is not None or not s.state.refusals or s.state.refusals[-1].by != bot:
                continue  # accepted, or another party answered
            offer = s.bot_offer()
            if offer is None or offer.player != bot:
                continue
            items = {tr.item for tr in offer.transfers}
            if items != {"coins", code}:
                continue  # no price it would take: its own best deal instead
            paid = sum(tr.count for tr in offer.transfers if tr.item == "coins" and tr.giver == 0)
            assert paid > 1
            assert s.step_bot() and s.state.trade.deal is not None and s.state.trade.deal.proposer == bot
            s.submit(RejectDeal(player=0))
            assert s.bot_offer() is None or s.bot_offer().player != bot
            countered += 1
            break
    assert countered >= 1
