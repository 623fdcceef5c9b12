"""G-2 Phase 1: Make Investments (and the Aquila exchange decision, G-8)."""

from __future__ import annotations

from builders import assert_illegal, assert_ok, play, set_player, spec_id, start, texts
from msgspec.structs import replace

from colosseum.core.games.colosseum import legal, to_act
from colosseum.core.games.colosseum.actions import (
    BuildGate,
    BuildTemple,
    EndTurn,
    ExchangeAquilas,
    HirePromoter,
    PlanSpectacle,
)
from colosseum.core.games.colosseum.components import load_catalog

BECKY, KAT, LAURA = 0, 1, 2


def invest_start():
    st = start(3, seed=2, first=BECKY)
    st = set_player(st, BECKY, gates=(21, 22), coins=60)
    st = set_player(st, KAT, gates=(8, 9))
    st = set_player(st, LAURA, gates=(32, 33))
    assert to_act(st) == BECKY and st.phase == "invest"
    return assert_ok(st)


def test_g2_two_investments_of_different_kinds_then_the_turn_ends():
    """G-2: up to 2 investments, each of a different kind; after the second the turn ends
    (D-3)."""
    st = invest_start()
    st, _ = play(st, HirePromoter(player=BECKY))
    assert st.players[BECKY].promoters == 1 and st.promoters_left == 11
    assert st.players[BECKY].coins == 53
    assert_illegal(st, HirePromoter(player=BECKY), "G-2")
    assert not any(isinstance(a, HirePromoter) for a in legal(st).actions)
    st, ev = play(st, BuildGate(player=BECKY, space=23))
    assert st.players[BECKY].gates == (21, 22, 23) and st.players[BECKY].coins == 43
    assert to_act(st) == KAT, "two investments made: Becky's turn is over"


def test_g2_end_turn_after_one_or_none():
    st = invest_start()
    st, _ = play(st, BuildTemple(player=BECKY), EndTurn(player=BECKY), EndTurn(player=KAT))
    assert to_act(st) == LAURA
    st, ev = play(st, EndTurn(player=LAURA))
    assert st.phase == "hire" and "Phase 2" in texts(ev)


def test_g2_gate_adjacent_to_own_gate_on_an_empty_space_at_most_four():
    """G-2: 10 coins, an empty space next to one of your gates, at most 4 gates."""
    st = invest_start()
    spaces = sorted(a.space for a in legal(st).actions if isinstance(a, BuildGate))
    assert spaces == [20, 23]
    assert_illegal(st, BuildGate(player=BECKY, space=24), "G-2")
    assert_illegal(st, BuildGate(player=BECKY, space=36), "G-2")
    st2 = set_player(st, KAT, gates=(8, 9, 10, 20))  # a position where 20 is taken
    assert_illegal(st2, BuildGate(player=BECKY, space=20), "G-2")
    st3 = set_player(st, BECKY, gates=(20, 21, 22, 23))
    assert_illegal(st3, BuildGate(player=BECKY, space=24), "G-2")
    assert not any(isinstance(a, BuildGate) for a in legal(st3).actions)
    # wrapping round the track: 35 and 0 are neighbours
    st4 = set_player(st, BECKY, gates=(0, 1))
    assert sorted(a.space for a in legal(st4).actions if isinstance(a, BuildGate)) == [2, 35]
    st4, _ = play(st4, BuildGate(player=BECKY, space=35))
    assert_ok(st4)


def test_g2_temple_once_per_game():
    st = set_player(invest_start(), BECKY, temple=True)
    assert_illegal(st, BuildTemple(player=BECKY), "G-2")
    assert not any(isinstance(a, BuildTemple) for a in legal(st).actions)


def test_g2_promoters_limited_by_the_supply():
    st = replace(invest_start(), promoters_left=0)
    st = set_player(st, KAT, promoters=12)
    assert_illegal(st, HirePromoter(player=BECKY), "G-2")
    assert not any(isinstance(a, HirePromoter) for a in legal(st).actions)


def test_g2_plan_a_spectacle_from_the_display_even_if_not_performable_yet():
    """G-2: take a display tile face down for its cost; large ones need 4 gates only to be
    performed, not to be bought."""
    cat = load_catalog("grand")
    st = invest_start()
    nf = spec_id(st, "neptunes-fury")
    st, ev = play(st, PlanSpectacle(player=BECKY, spectacle="neptunes-fury"))
    assert nf in st.players[BECKY].face_down and nf not in st.display
    assert st.players[BECKY].coins == 60 - cat.spectacles[nf].cost
    st = set_player(st, KAT, coins=100)
    st, _ = play(st, EndTurn(player=BECKY))
    assert_illegal(st, PlanSpectacle(player=KAT, spectacle="neptunes-fury"), "G-2")
    assert_illegal(st, PlanSpectacle(player=KAT, spectacle="amphitryon"), "G-2")  # small: never on display
    assert_illegal(st, PlanSpectacle(player=KAT, spectacle="no-such-thing"), "G-5.2")


def test_g2_costs_must_be_paid_in_coins():
    st = set_player(invest_start(), BECKY, coins=9, aquilas=1)
    err = assert_illegal(st, BuildGate(player=BECKY, space=23), "G-2")
    assert "exchange Aquilas" in str(err)
    assert not any(isinstance(a, BuildGate) for a in legal(st).actions)
    st, _ = play(st, ExchangeAquilas(player=BECKY, count=1))
    assert (st.players[BECKY].coins, st.players[BECKY].aquilas) == (15, 0)
    st, _ = play(st, BuildGate(player=BECKY, space=23))
    assert st.players[BECKY].coins == 5


def test_g8_exchange_aquilas_in_own_phase1_turn_only_and_not_an_investment():
    """G-2 decision: during your Phase 1 turn, any number of Aquilas for 6 coins each; it is
    not one of the two investments."""
    st = set_player(invest_start(), BECKY, aquilas=3)
    assert [a.count for a in legal(st).actions if isinstance(a, ExchangeAquilas)] == [1, 2, 3]
    assert_illegal(st, ExchangeAquilas(player=BECKY, count=4), "G-8")
    assert_illegal(st, ExchangeAquilas(player=BECKY, count=0), "G-8")
    assert_illegal(st, ExchangeAquilas(player=KAT, count=1), "G-0")
    st, _ = play(st, ExchangeAquilas(player=BECKY, count=2))
    assert (st.players[BECKY].coins, st.players[BECKY].aquilas) == (72, 1)
    st, _ = play(st, HirePromoter(player=BECKY), BuildTemple(player=BECKY))
    assert to_act(st) == KAT
    hire = st
    while hire.phase != "hire":
        hire, _ = play(hire, EndTurn(player=to_act(hire)))
    hire = set_player(hire, to_act(hire), aquilas=2)
    assert_illegal(hire, ExchangeAquilas(player=to_act(hire), count=1), "G-8")
