"""G-4 Phase 3: Trade Performers (and the deal flow decisions D-4, D-5, D-6)."""

from __future__ import annotations

from builders import (
    assert_illegal,
    assert_ok,
    code_index,
    play,
    set_player,
    set_tiles,
    skip_to,
    start,
    texts,
)

from colosseum.core.games.colosseum import Transfer, legal, may_propose, to_act
from colosseum.core.games.colosseum.actions import (
    AcceptDeal,
    CancelDeal,
    CloseDeal,
    EndTurn,
    ProposeDeal,
    RejectDeal,
)

BECKY, KAT, LAURA, MIA = 0, 1, 2, 3


def trade_start(n=3):
    st = skip_to(start(n, seed=4, first=BECKY), "trade")
    st = set_tiles(st, BECKY, {"L": 2, "G": 2, "Bal": 1})
    st = set_tiles(st, KAT, {"L": 2, "H": 3})
    st = set_tiles(st, LAURA, {"M": 2, "S": 1})
    for seat in range(n):
        st = set_player(st, seat, coins=20, aquilas=1)
    assert st.trade.active == BECKY and to_act(st) == BECKY
    return assert_ok(st)


def T(g, r, item, n=1):
    return Transfer(g, r, item, n)


def test_g4_simple_deal_flow_propose_accept_close():
    """G-4 / D-5: the active player proposes, the other party accepts, the active player
    closes; the deal executes at once and stars are rechecked."""
    st = trade_start()
    lion = code_index(st, "L")
    deal = (T(KAT, BECKY, "L"), T(BECKY, KAT, "coins", 5))
    st, ev = play(st, ProposeDeal(player=BECKY, transfers=deal))
    assert st.trade.deal.answers == ("accepted", "pending", "")
    assert to_act(st) == KAT
    assert {type(a) for a in legal(st).actions} == {AcceptDeal, RejectDeal}
    st, _ = play(st, AcceptDeal(player=KAT))
    assert to_act(st) == BECKY
    assert {type(a) for a in legal(st).actions} == {CloseDeal, CancelDeal}
    prev = st
    st, ev = play(st, CloseDeal(player=BECKY))
    assert_ok(st, prev)
    assert st.players[BECKY].tiles[lion] == 3 and st.players[KAT].tiles[lion] == 1
    assert st.players[BECKY].coins == 15 and st.players[KAT].coins == 25
    assert st.stars[lion] == BECKY, "G-7: 3 lions, more than anyone"
    assert "Becky takes the Lion Star Performer" in texts(ev)
    assert st.trade.deal is None and st.trade.deals_closed == 1 and to_act(st) == BECKY


def test_g4_triangular_deal_includes_active_player_and_everyone_accepts_in_order():
    """G-4: a triangular deal is allowed; each party answers in clockwise order from the
    active player."""
    st = trade_start(4)
    st = set_tiles(st, MIA, {"E": 2})
    deal = (T(BECKY, KAT, "G"), T(KAT, MIA, "coins", 3), T(MIA, BECKY, "E"))
    st, _ = play(st, ProposeDeal(player=BECKY, transfers=deal))
    assert to_act(st) == KAT
    st, _ = play(st, AcceptDeal(player=KAT))
    assert to_act(st) == MIA
    st, _ = play(st, AcceptDeal(player=MIA), CloseDeal(player=BECKY))
    assert st.players[BECKY].tiles[code_index(st, "E")] == 1
    assert st.players[MIA].coins == 23 and st.players[KAT].coins == 17


def test_g4_deals_must_include_the_active_player():
    st = trade_start()
    assert_illegal(st, ProposeDeal(player=KAT, transfers=(T(KAT, LAURA, "H"),)), "G-4")
    assert_illegal(st, ProposeDeal(player=BECKY, transfers=(T(KAT, LAURA, "H"),)), "G-4")


def test_g4_any_player_may_propose_to_the_active_player_who_decides():
    """G-4: a deal may come from another player; the active player accepts and closes it.
    D-6: a proposer must be a party."""
    st = trade_start()
    assert may_propose(st, KAT) and may_propose(st, LAURA)
    deal = (T(KAT, BECKY, "H"), T(BECKY, KAT, "aquilas", 1))
    st, _ = play(st, ProposeDeal(player=KAT, transfers=deal))
    assert st.trade.deal.answers == ("pending", "accepted", "")
    assert to_act(st) == BECKY
    st, _ = play(st, AcceptDeal(player=BECKY), CloseDeal(player=BECKY))
    assert st.players[KAT].aquilas == 2 and st.players[BECKY].aquilas == 0
    assert_illegal(st, ProposeDeal(player=LAURA, transfers=(T(KAT, BECKY, "H"),)), "G-4")


def test_g4_nobody_is_forced_a_rejection_ends_the_deal():
    st = trade_start()
    st, _ = play(st, ProposeDeal(player=BECKY, transfers=(T(KAT, BECKY, "H", 3),)))
    before = st.players
    st, ev = play(st, RejectDeal(player=KAT))
    assert st.trade.deal is None and st.players == before and "rejects" in texts(ev)
    assert to_act(st) == BECKY


def test_g4_only_parties_answer_and_only_the_active_player_closes():
    st = trade_start()
    st, _ = play(st, ProposeDeal(player=KAT, transfers=(T(KAT, BECKY, "H"),)))
    assert_illegal(st, AcceptDeal(player=LAURA), "G-0")
    assert_illegal(st, CloseDeal(player=BECKY), "G-4")  # Becky must accept first
    st2, _ = play(st, AcceptDeal(player=BECKY))
    assert_illegal(st2, AcceptDeal(player=BECKY), "G-4")
    assert_illegal(st2, CloseDeal(player=KAT), "G-0")
    # a deal on the table blocks another proposal and ending the turn
    assert_illegal(st2, ProposeDeal(player=LAURA, transfers=(T(LAURA, BECKY, "M"),)), "G-4")
    assert_illegal(st2, EndTurn(player=BECKY), "G-4")
    # the proposer or the active player may withdraw it; another player may not
    assert_illegal(st2, CancelDeal(player=LAURA), "G-4")
    withdrawn, ev = play(st2, CancelDeal(player=KAT))
    assert withdrawn.trade.deal is None and "withdraws" in texts(ev)
    withdrawn, _ = play(st2, CancelDeal(player=BECKY))
    assert withdrawn.trade.deal is None


def test_g4_givers_must_own_what_they_give():
    st = trade_start()
    assert_illegal(st, ProposeDeal(player=BECKY, transfers=(T(BECKY, KAT, "L", 3),)), "G-4")
    assert_illegal(st, ProposeDeal(player=BECKY, transfers=(T(BECKY, KAT, "coins", 21),)), "G-4")
    assert_illegal(st, ProposeDeal(player=BECKY, transfers=(T(BECKY, KAT, "aquilas", 2),)), "G-4")
    # two transfers of the same item add up
    two = (T(BECKY, KAT, "L", 2), T(BECKY, LAURA, "L", 1))
    assert_illegal(st, ProposeDeal(player=BECKY, transfers=two), "G-4")
    # ownership is checked again when the deal is closed (atomic execution)
    st, _ = play(st, ProposeDeal(player=BECKY, transfers=(T(KAT, BECKY, "H", 3),)), AcceptDeal(player=KAT))
    gone = set_tiles(st, KAT, {"H": 2}, keep_others=True)
    assert_illegal(gone, CloseDeal(player=BECKY), "G-4")


def test_g4_never_tradable():
    """G-4: Acclaim, spectacles, gifts, Star Performers, promoters, player pieces, Aquila
    tiles (they never stay tiles) are never traded."""
    st = trade_start()
    for item in ("acclaim", "amphitryon", "gifts", "star", "promoters", "gates", "temple", "Aq", "Con", "pillar"):
        assert_illegal(st, ProposeDeal(player=BECKY, transfers=(T(BECKY, KAT, item),)), "G-4")
    for bad in (T(BECKY, BECKY, "G"), T(BECKY, 7, "G"), T(BECKY, KAT, "G", 0)):
        assert_illegal(st, ProposeDeal(player=BECKY, transfers=(bad,)), "G-4")
    assert_illegal(st, ProposeDeal(player=BECKY, transfers=()), "G-4")
    # balatros, coins and Aquilas are tradable
    ok = (T(BECKY, KAT, "Bal"), T(KAT, BECKY, "coins", 2), T(KAT, BECKY, "aquilas", 1))
    play(st, ProposeDeal(player=BECKY, transfers=ok))


def test_d4_proposals_per_trade_turn_are_limited():
    st = trade_start()
    for _ in range(10):
        st, _ = play(st, ProposeDeal(player=BECKY, transfers=(T(KAT, BECKY, "H"),)), RejectDeal(player=KAT))
    assert not may_propose(st, BECKY) and not legal(st).can_propose
    assert_illegal(st, ProposeDeal(player=BECKY, transfers=(T(KAT, BECKY, "H"),)), "G-4")
    st, _ = play(st, EndTurn(player=BECKY))
    assert st.trade.active == KAT and may_propose(st, KAT)


def test_g4_each_player_is_active_once_then_phase_4():
    st = trade_start()
    st, _ = play(st, EndTurn(player=BECKY), EndTurn(player=KAT))
    assert st.trade.active == LAURA
    st, ev = play(st, EndTurn(player=LAURA))
    assert st.phase == "perform" and to_act(st) == BECKY
