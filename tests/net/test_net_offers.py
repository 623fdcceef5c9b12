"""Deals around bots at a table: a player composing an offer holds a bot's trade turn (for a
while), the bot answers the offer by its valuation, and bots offer deals to a player whose trade
turn it is."""

from __future__ import annotations

import asyncio

from test_net_tables import client, run, server_at

from colosseum.core.games.colosseum import apply, new_game, to_act
from colosseum.core.games.colosseum.actions import AcceptDeal, ProposeDeal, RejectDeal
from colosseum.core.games.colosseum.model import Transfer
from colosseum.tui.net.host import protocol as P
from colosseum.tui.net.host.testing import Player, play_to_end

#: the bots' delay: a bot's trade turn stays open 20 times as long for offers (TRADE_WINDOW at
#: most), time for the deal dialog's signal to arrive
PACE = 0.05


async def _alone_with_bots(srv, seed: int = 7):
    a = await client(srv, "alice")
    a.send(P.CreateTable(seats=["human", "normal", "normal"], seed=seed, sit=0))
    j = await a.expect(lambda m: isinstance(m, P.Joined))
    p = Player(a, j.table.id, 0, bot="normal", seed=1)
    p.take(j)
    return srv.tables[j.table.id], p


async def _to_a_held_bot_trade_turn(table, p: Player, still: float = 0.4):
    """Play alice's moves until a bot's trade turn stays put (no deal on the table) while
    alice composes a deal."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 40
    while loop.time() < end:
        await p.pump(timeout=0.05)
        st = table.state
        t = st.trade
        if st.phase == "trade" and t is not None and t.active != 0 and t.deal is None:
            # the deal dialog opens (again: the cap counts from the first time in a turn)
            p.c.send(P.Composing(table=table.id, on=True))
            await asyncio.sleep(still)
            if table.state is st:
                return st
            continue
        if p.my_turn():
            await p.act_once()
    raise AssertionError("no held trade turn of a bot")


def test_a_bots_trade_turn_waits_while_a_player_composes_and_the_bot_answers_the_offer(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_delay=PACE)
        try:
            table, p = await _alone_with_bots(srv)
            st = await _to_a_held_bot_trade_turn(table, p)
            bot = st.trade.active
            assert table.composers(bot) == [0]
            # alice's offer: a coin for nothing (the bot judges it by its valuation)
            n = len(table.actions)
            deal = ProposeDeal(player=0, transfers=(Transfer(0, bot, "coins", 1),))
            p.c.send(P.Act(table=table.id, action=p.codec.pack(deal), ref=99, at=n))
            assert isinstance(await p.c.expect(lambda m: isinstance(m, (P.Ack, P.Error)) and m.ref == 99), P.Ack)
            up = await p.c.expect(lambda m: isinstance(m, P.Update) and m.n == n + 2)
            answer = p.codec.action(up.actions[0])
            assert isinstance(answer, (AcceptDeal, RejectDeal)) and answer.player == bot
            # the dialog closes: the bot's turn goes on (after the short window for offers)
            p.c.send(P.Composing(table=table.id, on=False))
            for _ in range(100):
                await p.pump(timeout=0.05)
                if table.state.phase != "trade" or table.state.trade.active != bot:
                    break
                if p.my_turn():  # (the bot may offer alice a deal of its own first)
                    await p.act_once()
            assert table.state.phase != "trade" or table.state.trade.active != bot
        finally:
            await srv.close()

    run(go(), 60)


def test_a_silent_composer_holds_a_bots_turn_only_up_to_the_cap_and_not_after_leaving(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_delay=PACE)
        srv.compose_cap = 1.0
        try:
            table, p = await _alone_with_bots(srv)
            loop = asyncio.get_running_loop()
            st = await _to_a_held_bot_trade_turn(table, p, still=0.2)
            held_at = loop.time()
            while table.state is st:
                await asyncio.sleep(0.05)
            assert loop.time() - held_at < 2.0  # released by the cap
            assert table.composers(st.trade.active) == []
        finally:
            await srv.close()
        srv = await server_at(tmp_path / "2", bot_delay=PACE)
        try:
            table, p = await _alone_with_bots(srv)
            st = await _to_a_held_bot_trade_turn(table, p, still=0.3)
            await p.c.close()  # the composer's connection drops: nothing holds the bot
            for _ in range(40):
                if table.state is not st:
                    break
                await asyncio.sleep(0.05)
            assert table.state is not st and table.composing == {}
        finally:
            await srv.close()

    run(go(), 90)


def test_composing_from_a_spectator_is_refused(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            table, p = await _alone_with_bots(srv)
            spy = await client(srv, "eve")
            spy.send(P.Watch(table=table.id))
            await spy.expect(lambda m: isinstance(m, P.Joined))
            spy.send(P.Composing(table=table.id, on=True))
            err = await spy.expect(lambda m: isinstance(m, P.Error))
            assert "seated" in err.message and table.composing == {}
        finally:
            await srv.close()

    run(go())


def test_bots_offer_deals_to_a_player_whose_trade_turn_it_is_once_per_turn(tmp_path):
    async def go():
        srv = await server_at(tmp_path)
        try:
            # seed 6: a game with offers to alice (D-69's bids changed seed 7's game: it had none)
            table, p = await _alone_with_bots(srv, seed=6)
            await play_to_end([p], timeout=60)
            st = new_game(table.setup)
            offers = []
            for a in table.actions:
                t = st.trade
                if isinstance(a, ProposeDeal) and t is not None and t.active == 0 and a.player != 0:
                    offers.append((st.round, a.player))
                    assert {x.giver for x in a.transfers} | {x.receiver for x in a.transfers} == {0, a.player}
                st, _ = apply(st, a)
            assert offers, "the normal bots found no deal to offer in this game"
            assert len(offers) == len(set(offers))  # at most one per bot per trade turn
            assert to_act(st) < 0
        finally:
            await srv.close()

    run(go(), 90)


def test_opening_the_deal_dialog_again_does_not_restart_the_cap(tmp_path):
    async def go():
        srv = await server_at(tmp_path, bot_delay=PACE)
        srv.compose_cap = 1.5
        try:
            table, p = await _alone_with_bots(srv)
            loop = asyncio.get_running_loop()
            st = await _to_a_held_bot_trade_turn(table, p, still=0.2)
            held_at = loop.time()
            while table.state is st:  # a client toggling its dialog to hold the bot for ever
                p.c.send(P.Composing(table=table.id, on=False))
                p.c.send(P.Composing(table=table.id, on=True))
                await asyncio.sleep(0.1)
                assert loop.time() - held_at < 3.0
        finally:
            await srv.close()

    run(go(), 60)
