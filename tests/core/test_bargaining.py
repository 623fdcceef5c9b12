"""Bots that bargain like people (issue 23, D-69): a proposal a player rejected is not made to
them again this round, "not this round" closes a proposer's offers to that player until the
next round, a rejected deal may come back edited (a counter-offer), and bids stop at what a lot
is worth, jumping where a coin-at-a-time round would end anyway."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from msgspec.structs import replace

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum import GameSetup, State, apply, legal, new_game, to_act
from colosseum.core.games.colosseum.actions import ProposeDeal, Raise, RejectDeal
from colosseum.core.games.colosseum.bots import deal_offer
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.bots.greedy_deals import asked_of
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.model import Transfer


def _positions(seeds: range, want: Callable[[State], bool], rounds: int = 4, variant: str = "grand"):
    """States of greedy games (4 players) where ``want`` holds, in play order."""
    for seed in seeds:
        state = new_game(GameSetup(players=("A", "B", "C", "D"), seed=seed, variant=variant))
        bots = [GreedyBot(seed * 10 + i) for i in range(4)]
        while (seat := to_act(state)) >= 0 and state.round <= rounds:
            if want(state):
                yield seed, state
            state, _ = apply(state, bots[seat].act(state))


def _own_turn_no_deal(state: State) -> bool:
    t = state.trade
    return state.phase == "trade" and t is not None and t.deal is None and to_act(state) == t.active


def test_a_rejected_ask_is_not_repeated_this_round():
    """The old bot asked a player again for the tile they had just refused it; now nothing asks
    them for it again this round, neither on the bot's turn nor out of turn."""
    found = 0
    for _seed, state in _positions(range(1, 30), _own_turn_no_deal):
        seat = to_act(state)
        cat = load_catalog(state.setup.variant)
        bot = GreedyBot(1)
        deal = bot.best_deal(state, cat, seat)
        if deal is None:
            continue
        other = next(p for tr in deal for p in (tr.giver, tr.receiver) if p != seat)
        asked = asked_of(deal, seat, other)
        if not asked:
            continue
        after, _ = apply(state, ProposeDeal(player=seat, transfers=deal))
        assert to_act(after) == other
        after, events = apply(after, RejectDeal(player=other))
        assert after.refusals and after.refusals[-1].by == other
        # what the old bot did: the same position without the memory asks again
        old = GreedyBot(1).best_deal(replace(after, refusals=()), cat, seat)
        assert old is not None and asked & asked_of(old, seat, other), "the position no longer shows the old repeat"
        again = GreedyBot(1).best_deal(after, cat, seat)
        assert again is None or not (asked & asked_of(again, seat, other))
        found += 1
        if found >= 3:
            break
    assert found >= 1


def test_the_memory_lasts_the_round_only():
    state = next(s for _, s in _positions(range(1, 10), _own_turn_no_deal))
    seat = to_act(state)
    other = (seat + 1) % 4
    deal = (Transfer(seat, other, "coins", 1),)
    state, _ = apply(state, ProposeDeal(player=seat, transfers=deal))
    state, _ = apply(state, RejectDeal(player=other))
    assert len(state.refusals) == 1
    bots = [GreedyBot(i) for i in range(4)]
    while state.phase == "trade":
        state, _ = apply(state, bots[to_act(state)].act(state))
    assert state.refusals == ()


def test_not_this_round():
    """A "not this round" answer: the proposer may not propose to that player again until the
    next round (the rules refuse it, so every bot and person is held to it); the others may."""
    state = next(s for _, s in _positions(range(1, 10), _own_turn_no_deal))
    seat = to_act(state)
    other = (seat + 1) % 4
    third = (seat + 2) % 4
    deal = (Transfer(seat, other, "coins", 1),)
    state, _ = apply(state, ProposeDeal(player=seat, transfers=deal))
    # legal() offers both refusals (every action apply accepts is offered: the fuzzer's check)
    assert to_act(state) == other
    assert legal(state).actions[-2:] == (RejectDeal(player=other), RejectDeal(player=other, whole_round=True))
    state, events = apply(state, RejectDeal(player=other, whole_round=True))
    assert "no more offers" in " ".join(e.text for e in events)
    with pytest.raises(RuleError, match="this round"):
        apply(state, ProposeDeal(player=seat, transfers=(Transfer(seat, other, "coins", 2),)))
    apply(state, ProposeDeal(player=seat, transfers=(Transfer(seat, third, "coins", 1),)))
    cat = load_catalog(state.setup.variant)
    offer = GreedyBot(1).best_deal(state, cat, seat)
    assert offer is None or other not in {p for tr in offer for p in (tr.giver, tr.receiver)}
    # an old log's rejection reads as before ("whole_round" is left out when false)
    import msgspec

    assert b"whole_round" not in msgspec.json.encode(RejectDeal(player=1))


def test_a_bot_counters_a_deal_it_rejects():
    """A too-cheap offer for a tile the bot needs is rejected and sent back at a price the bot
    accepts: the same goods, more coins; on its own turn (as the active player) and out of turn
    (``deal_offer``, how a bot answers a person's proposal)."""
    made = {"active": 0, "other": 0}
    for _seed, state in _positions(range(1, 40), _own_turn_no_deal, rounds=3):
        active = to_act(state)
        cat = load_catalog(state.setup.variant)
        for other in range(4):
            if other == active:
                continue
            bot = GreedyBot(7)
            # ``other`` asks the active player for a tile it has, for one coin
            wanted = [k for k in cat.holdable if state.players[active].tiles[k]]
            if not wanted or state.players[other].coins < 4:
                continue
            code = cat.codes[wanted[0]]
            deal = (Transfer(other, active, "coins", 1), Transfer(active, other, code, 1))
            s1, _ = apply(state, ProposeDeal(player=other, transfers=deal))
            if bot.accepts(s1, cat, active, deal):
                continue
            s2, _ = apply(s1, RejectDeal(player=active))
            act = GreedyBot(7).act(s2)  # the active player's turn again
            if isinstance(act, ProposeDeal) and {tr.item for tr in act.transfers} == {"coins", code}:
                paid = sum(tr.count for tr in act.transfers if tr.item == "coins" and tr.giver == other)
                assert paid > 1
                assert bot.accepts(s2, cat, active, act.transfers)
                apply(s2, act)  # legal
                made["active"] += 1
            # the other way round: the active player asked ``other`` and ``other`` rejected
            back = (Transfer(active, other, "coins", 1), Transfer(other, active, code, 1))
            if state.players[other].tiles[wanted[0]] == 0 or state.players[active].coins < 4:
                continue
            s1, _ = apply(state, ProposeDeal(player=active, transfers=back))
            if bot.accepts(s1, cat, other, back):
                continue
            s2, _ = apply(s1, RejectDeal(player=other))
            offer = deal_offer(GreedyBot(7), s2, other)
            if offer is not None and asked_of(offer.transfers, other, active) == frozenset():
                made["other"] += 1
                apply(s2, offer)
        if made["active"] >= 2 and made["other"] >= 1:
            break
    assert made["active"] >= 1 and made["other"] >= 1, made


def _last_round_auction(state: State) -> bool:
    h = state.hire
    return (
        state.phase == "hire"
        and h is not None
        and h.auction is not None
        and state.round == 4
        and any(isinstance(o.action(to_act(state), o.low), Raise) for o in legal(state).bids)
    )


def test_bids_stop_at_the_lots_worth():
    """In the last round coins buy little; the old bot still bid coin after coin to 12 times the
    lot's worth in acclaim.  Now the cap counts a coin at WORTH_RATE acclaim at least."""
    capped = 0
    for _seed, state in _positions(range(1, 40), _last_round_auction):
        seat = to_act(state)
        cat = load_catalog(state.setup.variant)
        h = state.hire
        assert h is not None and h.auction is not None
        lot = state.markets[h.auction.market]
        bot = GreedyBot(1)
        worth = bot.lot_value(state, cat, seat, lot)
        top = bot.max_bid(state, cat, seat, lot)
        assert top <= max(0, int(worth / bot.WORTH_RATE))
        old = GreedyBot(1)
        old.WORTH_RATE = 0.05  # (an instance's: a class compiled by mypyc is not subclassed)
        if old.max_bid(state, cat, seat, lot) > max(top, h.auction.high):
            capped += 1
        act = bot.act(state)
        if isinstance(act, Raise):
            assert act.bid <= top
    assert capped >= 1


def test_jump_bid_to_where_the_others_stop():
    """Where the bot expects to outlast the others still in, it bids one above the highest of
    their tops at once (the price a coin-at-a-time round reaches), never above its own top."""

    def auction(state: State) -> bool:
        h = state.hire
        return state.phase == "hire" and h is not None and h.auction is not None

    jumps = 0
    for _seed, state in _positions(range(1, 25), auction):
        seat = to_act(state)
        cat = load_catalog(state.setup.variant)
        h = state.hire
        assert h is not None and h.auction is not None
        lot = state.markets[h.auction.market]
        bot = GreedyBot(1)
        top = bot.max_bid(state, cat, seat, lot)
        bid = bot.raise_to(state, cat, seat, lot, top)
        if h.auction.high + 1 <= top:
            assert bid <= top
        if bid > h.auction.high + 1:
            rivals = [s for s in range(4) if s != seat and not h.auction.out[s]]
            assert bid == max(bot.max_bid(state, cat, s, lot) for s in rivals) + 1
            jumps += 1
    assert jumps >= 1
