"""G-3 Phase 2: Hire Performers (auctions), including the rulebook's worked example."""

from __future__ import annotations

from builders import (
    assert_illegal,
    assert_ok,
    code_index,
    play,
    set_market,
    set_player,
    set_tiles,
    skip_to,
    start,
    texts,
)
from msgspec.structs import replace

from colosseum.core.games.colosseum import legal, to_act
from colosseum.core.games.colosseum.actions import EndTurn, OpenAuction, PassBid, Raise
from colosseum.core.games.colosseum.engine import NOBODY

BECKY, KAT, LAURA = 0, 1, 2


def hire_example_start():
    """Becky (16 coins), Kat (9), Laura (12) begin Phase 2; Becky is first player.  Becky has
    2 comedians, the others fewer; market B holds 2 comedians."""
    st = skip_to(start(3, seed=5, first=BECKY), "hire")
    for seat, coins in ((BECKY, 16), (KAT, 9), (LAURA, 12)):
        st = set_player(st, seat, coins=coins, aquilas=0)
    st = set_tiles(st, BECKY, {"Co": 2, "G": 2, "M": 1})
    st = set_tiles(st, KAT, {"Co": 1, "H": 2, "L": 1})
    st = set_tiles(st, LAURA, {"Co": 1, "S": 2, "D": 1})
    st = set_market(st, 0, ("G", "G", "H"))
    st = set_market(st, 1, ("Co", "Co", "P"))
    st = set_market(st, 2, ("FE", "M", "Sc"))
    assert to_act(st) == BECKY and st.hire.active == BECKY
    return assert_ok(st)


def test_g3_worked_example_played_as_printed():
    """G-3 example: the whole Hire Performers phase of the rulebook, step by step."""
    st = hire_example_start()
    co = code_index(st, "Co")
    # Becky opens market A at 8; Kat passes; Laura raises to 12; Becky passes; Laura wins.
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=8))
    assert to_act(st) == KAT
    st, _ = play(st, PassBid(player=KAT))
    assert to_act(st) == LAURA
    st, _ = play(st, Raise(player=LAURA, bid=12))
    assert to_act(st) == BECKY
    prev = st
    st, ev = play(st, PassBid(player=BECKY))
    assert_ok(st, prev)
    laura = st.players[LAURA]
    assert laura.coins == 0 and not laura.pillar
    assert st.pillars[0] == LAURA and st.markets[0] == ()
    assert "Laura wins market A" in texts(ev)
    # Becky's turn goes on: she chooses again.
    assert st.hire.active == BECKY and st.hire.auction is None and to_act(st) == BECKY
    # Becky opens B at 9: Kat cannot raise to 10 and passes by herself; Laura has no pillar.
    st, ev = play(st, OpenAuction(player=BECKY, market=1, bid=9))
    assert "Kat cannot raise and passes" in texts(ev)
    becky = st.players[BECKY]
    assert becky.coins == 7 and becky.tiles[co] == 4
    assert st.stars[co] == BECKY, "4 comedians, more than anyone: comedian Star Performer"
    # Becky won as active player: her turn ends, markets A and B refilled, pillars back.
    assert all(len(m) == 3 for m in st.markets)
    assert st.pillars == (NOBODY,) * 5 and all(p.pillar for p in st.players)
    assert st.hire.active == KAT and to_act(st) == KAT
    # Kat opens C at 8: Laura (0 coins) and Becky (7 coins) cannot raise; Kat wins.
    st, ev = play(st, OpenAuction(player=KAT, market=2, bid=8))
    assert "Laura cannot raise" in texts(ev) and "Becky cannot raise" in texts(ev)
    assert st.players[KAT].coins == 1
    # Laura cannot open (needs 8) and passes at once: the phase ends.
    assert "Laura cannot open an auction and passes" in texts(ev)
    assert st.phase == "trade" and st.trade.active == BECKY
    assert_ok(st)


def test_g3_bidding_goes_round_repeatedly_and_active_player_may_raise_again():
    """G-3.3: bidding goes clockwise from the player after the last bidder, repeatedly; the
    active player may raise again; a player who cannot beat the high bid passes (D-2)."""
    st = hire_example_start()
    st, _ = play(
        st,
        OpenAuction(player=BECKY, market=0, bid=8),
        Raise(player=KAT, bid=9),
        Raise(player=LAURA, bid=10),
    )
    assert to_act(st) == BECKY
    st, ev = play(st, Raise(player=BECKY, bid=11))
    assert "Kat cannot raise and passes" in texts(ev)
    assert to_act(st) == LAURA
    st, ev = play(st, PassBid(player=LAURA))
    assert st.players[BECKY].coins == 16 - 11
    assert st.hire.active == KAT, "the active player won: her turn ends"


def test_g3_a_player_who_passed_may_not_bid_again_on_this_lot():
    """G-3.3: passing on a lot is final for that lot, but not for the next lot."""
    st = hire_example_start()
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=8), PassBid(player=KAT), Raise(player=LAURA, bid=9))
    st, _ = play(st, Raise(player=BECKY, bid=10))
    assert to_act(st) == LAURA, "Kat passed on this lot and is never asked again"
    assert_illegal(st, Raise(player=KAT, bid=11), "G-0")
    st, _ = play(st, PassBid(player=LAURA))
    # Becky won her own auction; on Kat's turn Becky and Laura may bid again on a new lot.
    st, _ = play(st, OpenAuction(player=KAT, market=1, bid=8))
    assert to_act(st) == LAURA


def test_g3_active_player_who_lost_chooses_again_but_not_the_emptied_market():
    """G-3.7: the active player who did not win chooses another full market or passes; the
    winner's pillar stands in the emptied market; the winner cannot bid this active turn."""
    st = hire_example_start()
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=8), PassBid(player=KAT), Raise(player=LAURA, bid=9))
    st, _ = play(st, PassBid(player=BECKY))
    assert st.hire.active == BECKY and to_act(st) == BECKY
    ch = legal(st)
    assert {b.market for b in ch.bids} == {1, 2, 3, 4}
    assert_illegal(st, OpenAuction(player=BECKY, market=0, bid=8), "G-3.1")
    st, _ = play(st, OpenAuction(player=BECKY, market=3, bid=8))
    assert to_act(st) == KAT, "Laura (no pillar) is never asked"
    st, _ = play(st, PassBid(player=KAT))
    assert st.hire.active == KAT
    # Becky passing without an auction ends her turn the same way: refill, pillars back
    assert st.pillars == (NOBODY,) * 5 and all(len(m) == 3 for m in st.markets)


def test_g3_pass_ends_turn_and_refills_markets():
    """G-3: passing ends the active turn; markets not full are refilled; pillars return."""
    st = hire_example_start()
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=8), PassBid(player=KAT), PassBid(player=LAURA))
    assert st.hire.active == KAT
    st, _ = play(st, OpenAuction(player=KAT, market=1, bid=8))
    st, ev = play(st, Raise(player=LAURA, bid=9))
    assert "Becky cannot raise" in texts(ev) and "Kat cannot raise" in texts(ev)
    assert st.markets[1] == () and st.pillars[1] == LAURA
    st, ev = play(st, EndTurn(player=KAT))
    assert len(st.markets[1]) == 3 and st.pillars[1] == NOBODY and st.players[LAURA].pillar
    assert "Laura cannot open an auction" in texts(ev), "3 coins left"
    assert st.phase == "trade"


def test_g3_opening_bid_rules():
    """G-3.2 / G-3.4: open at 8 or more, no more than coins + 6 per Aquila."""
    st = hire_example_start()
    assert_illegal(st, OpenAuction(player=BECKY, market=0, bid=7), "G-3.2")
    assert_illegal(st, OpenAuction(player=BECKY, market=0, bid=17), "G-3.4")
    st2 = set_player(st, BECKY, aquilas=1)
    assert [b.high for b in legal(st2).bids][0] == 22
    assert_illegal(st2, OpenAuction(player=BECKY, market=0, bid=23), "G-3.4")
    play(st2, OpenAuction(player=BECKY, market=0, bid=22))


def test_g3_raise_must_beat_high_bid_and_be_affordable():
    st = hire_example_start()
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=8))
    assert_illegal(st, Raise(player=KAT, bid=8), "G-3.3")
    assert_illegal(st, Raise(player=KAT, bid=10), "G-3.4")
    (opt,) = legal(st).bids
    assert (opt.low, opt.high, opt.market) == (9, 9, -1)


def test_g3_aquilas_are_credit_and_are_exchanged_only_when_paying():
    """G-3.4 / G-3.5: Aquilas count 6 each when bidding and are not spent by bidding; the
    winner exchanges just enough to pay and keeps the change."""
    st = hire_example_start()
    st = set_player(st, KAT, coins=5, aquilas=2)  # credit 17
    st, ev = play(st, OpenAuction(player=BECKY, market=0, bid=8), Raise(player=KAT, bid=12))
    assert "Laura cannot raise" in texts(ev)
    assert st.players[KAT].aquilas == 2, "bidding spends nothing"
    st, ev = play(st, PassBid(player=BECKY))
    kat = st.players[KAT]
    # 5 coins short of 12 by 7: two Aquilas (12 coins) are exchanged, 17 - 12 = 5 change.
    assert (kat.coins, kat.aquilas) == (5, 0)
    assert "exchanging 2 Aquilas" in texts(ev)


def test_g3_aquila_tile_becomes_a_token_at_once():
    """G-3.6: an Aquila tile won is discarded to the box and its owner takes an Aquila."""
    st = hire_example_start()
    aq = code_index(st, "Aq")
    st = set_market(st, 0, ("Aq", "Aq", "G"))
    box = st.box[aq]
    st, ev = play(st, OpenAuction(player=BECKY, market=0, bid=8), PassBid(player=KAT), PassBid(player=LAURA))
    becky = st.players[BECKY]
    assert becky.tiles[aq] == 0 and becky.aquilas == 2
    assert st.box[aq] == box + 2
    assert_ok(st)


def test_g3_bag_runs_dry_markets_fill_as_far_as_possible():
    """G-3 decision: with the bag empty, markets fill as far as it allows and a market with
    fewer than 3 tiles cannot be auctioned; a player with no full market passes (D-1)."""
    # Leave only 2 tiles in the bag: 1 gladiator, 1 horse; everything else to the box.
    st, ev = _bag_runs_dry("G", "H")
    # End of Becky's turn: markets refilled from a bag of 2 tiles: A gets both, C stays empty.
    assert len(st.markets[0]) == 2 and st.markets[2] == () and sum(st.bag) == 0
    assert "The bag is empty: market A holds only 2 tiles" in texts(ev)
    # No market holds 3 tiles: Kat and Laura pass at once, the phase ends.
    assert st.phase == "trade"
    assert "Kat cannot open an auction and passes" in texts(ev)
    assert_ok(st)


def test_g3_player_without_credit_passes_automatically():
    """D-1: the active player who cannot afford an opening bid of 8 passes at once."""
    st = hire_example_start()
    st = set_player(st, KAT, coins=7)
    st, ev = play(st, EndTurn(player=BECKY))
    assert "Kat cannot open an auction and passes" in texts(ev)
    assert st.hire.active == LAURA
    st2 = set_player(hire_example_start(), KAT, coins=2, aquilas=1)  # credit 8
    st2, _ = play(st2, EndTurn(player=BECKY))
    assert st2.hire.active == KAT


def test_g3_bidding_order_wraps_clockwise_from_the_opener_in_a_5_player_game():
    """G-3.3: with Mia (seat 3) first, bidding goes 4, 0, 1, 2, then back to 3, skipping
    whoever passed on this lot."""
    st = skip_to(start(5, seed=7, first=3), "hire")
    for seat in range(5):
        st = set_player(st, seat, coins=50, aquilas=0)
    assert st.hire.active == 3
    st, _ = play(st, OpenAuction(player=3, market=0, bid=8))
    order = []
    bid = 8
    for seat in (4, 0, 1, 2):
        assert to_act(st) == seat
        order.append(seat)
        if seat in (0, 2):
            st, _ = play(st, PassBid(player=seat))
        else:
            bid += 1
            st, _ = play(st, Raise(player=seat, bid=bid))
    assert to_act(st) == 3, "round again: the opener may raise"
    st, _ = play(st, Raise(player=3, bid=20))
    assert to_act(st) == 4
    st, _ = play(st, PassBid(player=4))
    assert to_act(st) == 1, "0 and 2 passed on this lot"
    st, ev = play(st, PassBid(player=1))
    assert "Mia wins market A" in texts(ev) and st.players[3].coins == 30
    assert st.hire.active == 4


def test_g3_active_player_with_no_full_market_left_ends_the_turn():
    """G-3.7 / D-1: after losing the only full market the active player cannot open another
    auction, so the turn ends at once (refill, pillars back)."""
    st = hire_example_start()
    # only market A is full: B..E go back to the bag
    bag = list(st.bag)
    for m in st.markets[1:]:
        for k in m:
            bag[k] += 1
    st = replace(st, bag=tuple(bag), markets=(st.markets[0], (), (), (), ()))
    assert_ok(st)
    st, ev = play(st, OpenAuction(player=BECKY, market=0, bid=8), PassBid(player=KAT), Raise(player=LAURA, bid=9))
    st, ev = play(st, PassBid(player=BECKY))
    assert "Becky cannot open another auction; the turn ends" in texts(ev)
    assert st.hire.active == KAT and all(len(m) == 3 for m in st.markets)
    assert st.players[LAURA].pillar


def _bag_runs_dry(*codes: str):
    """The worked example's Phase 2 with only ``codes`` (one tile each) left in the bag and only
    market C filled, everything else in the box; Becky wins C, Kat and Laura pass: the markets
    are refilled from that bag.  (state, events)"""
    st = hire_example_start()
    bag = [0] * len(st.bag)
    for code in codes:
        bag[code_index(st, code)] = 1
    box = tuple(b + s - n for b, s, n in zip(st.box, st.bag, bag, strict=False))
    st = replace(st, bag=tuple(bag), box=box)
    st = replace(
        st,
        markets=((), ()) + st.markets[2:3] + ((), ()),
        box=tuple(
            b + sum(1 for m in (st.markets[0], st.markets[1], st.markets[3], st.markets[4]) for t in m if t == k)
            for k, b in enumerate(box)
        ),
    )
    assert_ok(st)
    return play(st, OpenAuction(player=BECKY, market=2, bid=8), PassBid(player=KAT), PassBid(player=LAURA))


def test_g3_a_market_left_one_tile_says_so_in_the_singular():
    st, ev = _bag_runs_dry("G")
    assert len(st.markets[0]) == 1 and sum(st.bag) == 0
    assert "The bag is empty: market A holds only 1 tile." in texts(ev), texts(ev)
