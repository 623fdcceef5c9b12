"""M-11: the end at the end of the turn, the winner and its tie-breaks; M-13.1 the short game;
illegal actions leave the state untouched."""

from __future__ import annotations

import pytest
from msgspec.structs import replace
from muni_builders import TAVERN, banners, board, draw_card, play, set_player

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import apply, final_result, legal, to_act
from colosseum.core.games.municipium.actions import DrawCommon, KeepCitizens, Pass, PlaceCitizen, PlayFamily
from colosseum.core.games.municipium.model import OPTION_SHORT


def test_m11_1_reaching_five_does_not_stop_the_card_the_turn_ends_the_game():
    # A completes a 5th decurion during a Citizens' Visit; B and C still draw and place
    st = board(3, members={0: {TAVERN: 2}})
    st = set_player(st, 0, decurions=4, citizens=(1, 0, 1, 1))
    st = banners(st, tavern=(0, 2, 0, 0))
    st, _ = draw_card(st, "citizens_visit")
    st = replace(st, held=(0, 1, 0, 0))  # A's draw: a soldier (test only)
    st, _ = apply(st, PlaceCitizen(player=0, kind="soldier", institution=TAVERN))
    assert st.players[0].decurions == 5
    assert st.phase == "card" and to_act(st) == 1  # M-10.8: the card goes on
    while st.phase != "over":
        st, _ = apply(st, legal(st)[0])
    assert st.result is not None and st.result.winner == 0


def test_m11_1_short_game_ends_at_four():
    st = board(3, members={0: {TAVERN: 1}}, options=(OPTION_SHORT,))
    st = set_player(st, 0, decurions=4)
    st, _ = draw_card(st, "governors_visit")
    assert st.phase == "over"
    st = board(3, members={0: {TAVERN: 1}})
    st = set_player(st, 0, decurions=4)
    st, _ = draw_card(st, "governors_visit")
    assert st.phase == "move" and st.active == 1


def test_m11_2_most_decurions_then_held_then_temple():
    st = board(3, temple=(2, 1, 0))
    st = set_player(st, 0, decurions=5, citizens=(1, 0, 0, 0))
    st = set_player(st, 1, decurions=5, citizens=(1, 1, 0, 0), favours=1)
    st = set_player(st, 2, decurions=5, citizens=(1, 1, 1, 0))
    res = final_result(st)
    # B and C hold 3 each: C is higher on the Temple; A holds 1
    assert [s.seat for s in res.standings] == [2, 1, 0]
    assert res.winner == 2 and res.standings[0].decided_by == "temple"
    assert res.standings[1].decided_by == "held"
    st = set_player(st, 0, decurions=6)
    assert final_result(st).winner == 0 and final_result(st).standings[0].decided_by == "decurions"


def test_m11_2_several_reach_the_target_in_one_turn_ranked_by_m11_2():
    st = board(3, members={1: {TAVERN: 2}, 2: {TAVERN: 1}})
    st = set_player(st, 1, decurions=4, citizens=(0, 0, 1, 1))
    st = set_player(st, 2, decurions=4, citizens=(1, 0, 1, 1), favours=0)
    st = banners(st, tavern=(1, 1, 0, 0))
    st, _ = draw_card(st, "citizens_visit")
    st = replace(st, held=(0, 1, 0, 0))
    st, _ = apply(st, PlaceCitizen(player=0, kind="soldier", institution=TAVERN))
    st, _ = apply(st, KeepCitizens(player=1, leave="soldier"))
    assert st.players[1].decurions == 5 and st.players[2].decurions == 5
    while st.phase != "over":
        st, _ = apply(st, legal(st)[0])
    assert st.result is not None and st.result.winner in (1, 2)
    top = st.result.standings[0]
    assert top.decurions == 5 and top.decided_by in ("held", "temple")


def test_illegal_actions_leave_the_state_untouched():
    st = board(3, members={0: {TAVERN: 1}})
    before = st
    for bad in (Pass(player=1), DrawCommon(player=0), PlayFamily(player=0, card="your_powers")):
        with pytest.raises(RuleError) as e:
            apply(st, bad)
        assert e.value.rule.startswith("M-")
    assert st == before
    st, _ = play(st, Pass(player=0))
    with pytest.raises(RuleError) as e:
        apply(st, KeepCitizens(player=0, leave="priest"))
    assert e.value.rule == "M-5.2"
    over = replace(st, phase="over")
    with pytest.raises(RuleError):
        apply(over, DrawCommon(player=0))
    assert legal(over) == () and to_act(over) == -1
