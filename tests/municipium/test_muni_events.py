"""M-7 events, M-9 sets, M-10 resolution order (the worked example), M-12 running out."""

from __future__ import annotations

import pytest
from msgspec.structs import replace
from muni_builders import (
    ADVOCATE,
    BASILICA,
    EMPORIUM,
    FORUM,
    MERCHANT,
    PRAETORIUM,
    PRIEST,
    SOLDIER,
    TAVERN,
    TEMPLE,
    banners,
    board,
    draw_card,
    only_in_bag,
    play,
    set_player,
    texts,
)

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import apply, legal, to_act
from colosseum.core.games.municipium.actions import KeepCitizens, Pass, PlaceCitizen, PlayFamily
from colosseum.core.games.municipium.board import Ctx
from colosseum.core.games.municipium.events import exchange_sets
from colosseum.core.games.municipium.model import NO_KIND, OPTION_SINGLE, ChamberFrame, CitizenEventFrame


def chamber(st, inst, kind):
    ch = list(st.chamber)
    ch[inst] = kind
    return replace(st, chamber=tuple(ch))


# ---------------------------------------------------------------- M-7.1 governor event


def test_m7_1_first_takes_favour_second_takes_chamber_citizen_then_refill():
    st = board(3, members={0: {FORUM: 2}, 1: {FORUM: 1}})
    st = chamber(st, FORUM, SOLDIER)
    bag = sum(st.bag)
    st, ev = draw_card(st, "governors_visit")
    assert st.governor == FORUM
    assert st.players[0].favours == 1 and st.players[1].citizens == (0, 1, 0, 0)
    assert st.favour_spaces[FORUM] and st.favour_supply == 8  # refilled from the supply
    assert st.chamber[FORUM] != NO_KIND and sum(st.bag) == bag - 1  # a new chamber citizen
    t = texts(ev)
    assert t.index("A receives the governor's favour") < t.index("B receives the chamber's soldier")


def test_m7_1_only_one_player_present_chamber_citizen_to_the_bag():
    st = board(3, members={2: {FORUM: 3}})
    st = chamber(st, FORUM, ADVOCATE)
    st = only_in_bag(st, ADVOCATE, 0)
    st, ev = draw_card(st, "governors_visit")
    assert st.players[2].favours == 1 and st.players[2].citizens == (0, 0, 0, 0)
    # back to the bag, then drawn again as the refill (the only citizen in the bag)
    assert st.chamber[FORUM] == ADVOCATE and st.bag == (0, 0, 0, 0)
    assert "goes back to the bag" in texts(ev)


def test_m7_1_nobody_present_favour_stays_citizen_to_the_bag():
    st = board(3, members={0: {TAVERN: 1}})
    st = chamber(st, FORUM, PRIEST)
    st = only_in_bag(st, SOLDIER, 0)
    st, ev = draw_card(st, "governors_visit")
    assert st.favour_spaces[FORUM] and st.favour_supply == 9  # nobody took it
    assert all(p.citizens == (0, 0, 0, 0) for p in st.players)
    assert st.chamber[FORUM] == PRIEST and st.bag == (0, 0, 0, 0)  # to the bag, drawn back
    assert "nobody receives the favour" in texts(ev)


def test_m7_1_two_players_no_chamber_citizens():
    st = board(2, members={0: {FORUM: 1}, 1: {FORUM: 1}})
    bag = st.bag
    st, _ = draw_card(st, "governors_visit")
    assert st.players[0].favours == 1 and st.players[1].citizens == (0, 0, 0, 0)
    assert st.bag == bag and st.chamber == (NO_KIND,) * 7


def test_m7_1_route_cycles_clockwise():
    st = board(3)
    seen = []
    for _ in range(6):
        st, _ = draw_card(replace(st, active=0, phase="move"), "governors_visit")
        seen.append(st.governor)
    assert seen == [FORUM, PRAETORIUM, TAVERN, 2, EMPORIUM, BASILICA]


def test_m12_2_empty_favour_space_pays_nothing_until_refilled():
    st = board(3, members={0: {FORUM: 1}})
    fs = list(st.favour_spaces)
    fs[FORUM] = False
    st = replace(st, favour_spaces=tuple(fs), favour_supply=0)
    p = st.players[0]
    st = set_player(st, 0, favours=0)
    st, _ = draw_card(st, "governors_visit")
    assert st.players[0].favours == 0 and not st.favour_spaces[FORUM]
    assert p.favours == 0


def test_m13_2_single_chamber_only_the_holding_chamber_pays_and_is_refilled():
    st = board(3, members={0: {FORUM: 1}, 1: {FORUM: 1}}, options=(OPTION_SINGLE,))
    st = replace(st, chamber=(NO_KIND,) * 7)
    st = chamber(st, TAVERN, SOLDIER)
    st, _ = draw_card(st, "governors_visit")  # to the Forum: the citizen is at the Tavern
    assert st.players[1].citizens == (0, 0, 0, 0) and st.chamber[TAVERN] == SOLDIER
    st = board(3, members={0: {FORUM: 1}, 1: {FORUM: 1}}, options=(OPTION_SINGLE,))
    st = replace(st, chamber=(NO_KIND,) * 7)
    st = chamber(st, FORUM, ADVOCATE)
    st = only_in_bag(st, MERCHANT, 1)
    st, _ = draw_card(st, "governors_visit")
    assert st.players[1].citizens == (0, 0, 0, 1)
    # the new chamber citizen (a merchant: Baths or Emporium) is placed by the active player
    assert isinstance(st.stack[-1], ChamberFrame) and to_act(st) == 0
    assert {a.institution for a in legal(st)} == {2, EMPORIUM}


# ---------------------------------------------------------------- M-7.2 citizen event


def test_m7_2_first_takes_two_of_their_choice_second_takes_one():
    st = board(3, members={0: {TAVERN: 1}, 1: {TAVERN: 2}, 2: {TAVERN: 1}})
    st = banners(st, tavern=(1, 1, 0, 0))
    st = replace(st, bag=(0, 0, 0, 4))  # the invitation draws 4 advocates: no event
    st, _ = play(st, Pass(player=0), PlayFamily(player=0, card="citizens_invitation"))
    st = replace(st, held=(0, 1, 0, 3), bag=(1, 0, 0, 0))  # swap one advocate for a soldier (test only)
    st, _ = apply(st, PlaceCitizen(player=0, kind="soldier", institution=TAVERN))
    assert isinstance(st.stack[-1], CitizenEventFrame) and to_act(st) == 1
    assert {a.leave for a in legal(st)} == {"priest", "soldier"}
    with pytest.raises(RuleError):
        apply(st, KeepCitizens(player=1, leave="merchant"))
    st, ev = apply(st, KeepCitizens(player=1, leave="priest"))
    assert st.players[1].citizens == (0, 2, 0, 0)
    assert st.players[0].citizens == (1, 0, 0, 0)  # A second on the Temple order over C
    assert st.banners[TAVERN] == (0, 0, 0, 0)
    assert to_act(st) == 0  # back to A's placements


def test_m7_2_same_kind_needs_no_choice_and_lone_player_returns_one():
    st = board(3, members={2: {TAVERN: 1}})
    st = banners(st, tavern=(0, 2, 0, 0))
    st = replace(st, bag=(0, 1, 0, 0))
    st, _ = draw_card(st, "citizens_visit")
    st, ev = apply(st, PlaceCitizen(player=0, kind="soldier", institution=TAVERN))
    assert not legal(st) or not isinstance(st.stack[-1], CitizenEventFrame)  # one kind: no choice
    assert st.players[2].citizens == (0, 2, 0, 0)
    assert "goes back to the bag" in texts(ev)
    # M-6.2 decision: B draws only now, so the returned soldier is B's draw
    assert to_act(st) == 1 and st.held == (0, 1, 0, 0) and st.bag == (0, 0, 0, 0)


def test_m7_2_nobody_present_all_three_to_the_bag():
    st = board(3)
    st = banners(st, forum=(0, 0, 0, 2))
    st = replace(st, bag=(0, 0, 0, 1))
    st, _ = draw_card(st, "citizens_visit")
    st, _ = apply(st, PlaceCitizen(player=0, kind="advocate", institution=FORUM))
    assert st.banners[FORUM] == (0, 0, 0, 0) and st.bag[ADVOCATE] + st.held[ADVOCATE] == 3  # B draws one back


def test_m7_2_priest_anywhere_others_at_their_two():
    st = board(3)
    st = replace(st, bag=(1, 0, 0, 0))
    st, _ = draw_card(st, "citizens_visit")
    assert {a.institution for a in legal(st)} == set(range(7))
    st = board(3)
    st = replace(st, bag=(0, 0, 1, 0))
    st, _ = draw_card(st, "citizens_visit")
    assert {a.institution for a in legal(st)} == {2, EMPORIUM}


# ---------------------------------------------------------------- M-9 sets


def _ctx_with(citizens, favours):
    st = set_player(board(2), 0, citizens=citizens, favours=favours)
    ctx = Ctx(st)
    exchange_sets(ctx, 0)
    return ctx.st


def test_m9_full_set_exchanged_at_once():
    st = _ctx_with((1, 1, 1, 1), 0)
    assert st.players[0].decurions == 1 and st.players[0].citizens == (0, 0, 0, 0)


def test_m9_3_favours_are_wild_real_citizens_first():
    st = _ctx_with((2, 1, 0, 0), 2)
    p = st.players[0]
    assert p.decurions == 1 and p.citizens == (1, 0, 0, 0) and p.favours == 0
    st = _ctx_with((0, 0, 0, 0), 4)
    assert st.players[0].decurions == 1 and st.players[0].favours == 0
    assert st.favour_supply == 9 + 4


def test_m9_2_repeat_while_a_set_remains():
    st = _ctx_with((2, 2, 2, 1), 1)
    p = st.players[0]
    assert p.decurions == 2 and p.citizens == (0, 0, 0, 0) and p.favours == 0


def test_m9_no_set_no_exchange():
    st = _ctx_with((3, 0, 1, 1), 0)
    assert st.players[0].decurions == 0


# ---------------------------------------------------------------- M-10 worked example


def test_m10_worked_example():
    """A (active), B, C; Citizens' Visit.  A places a soldier at the Tavern (2 there already):
    B first takes 2, C second takes 1; B completes a set and exchanges it at once; only then
    does B draw, and B may place a soldier on the emptied Tavern banner."""
    st = board(3, members={1: {TAVERN: 2}, 2: {TAVERN: 1}})
    st = banners(st, tavern=(1, 1, 0, 0))
    st = set_player(st, 1, citizens=(0, 0, 1, 1))  # B needs a priest and a soldier
    st = replace(st, bag=(0, 3, 0, 0))
    st, _ = draw_card(st, "citizens_visit")
    st, _ = apply(st, PlaceCitizen(player=0, kind="soldier", institution=TAVERN))
    assert to_act(st) == 1 and isinstance(st.stack[-1], CitizenEventFrame)
    st, ev = apply(st, KeepCitizens(player=1, leave="soldier"))  # B keeps priest + soldier
    b, c = st.players[1], st.players[2]
    assert b.decurions == 1 and b.citizens == (0, 0, 0, 0)
    assert c.citizens == (0, 1, 0, 0)
    t = texts(ev)
    assert t.index("B takes") < t.index("B exchanges") < t.index("C takes") < t.index("B draws")
    # B now draws for the Visit and may use the empty Tavern
    assert to_act(st) == 1 and sum(st.held) == 1 and st.banners[TAVERN] == (0, 0, 0, 0)
    st = replace(st, held=(0, 1, 0, 0))  # the draw is random (the set went back to the bag): make it a soldier
    st, _ = apply(st, PlaceCitizen(player=1, kind="soldier", institution=TAVERN))
    assert st.banners[TAVERN] == (0, 1, 0, 0)


# ---------------------------------------------------------------- M-12


def test_m12_1_empty_bag():
    st = board(3, members={0: {BASILICA: 1, EMPORIUM: 1}})
    st = replace(st, bag=(0, 0, 0, 0))
    v, ev = draw_card(st, "citizens_visit")
    assert v.active == 1 and "places nothing" in texts(ev)
    inv, ev = play(st, Pass(player=0), PlayFamily(player=0, card="citizens_invitation"))
    assert inv.active == 1 and "nothing" in texts(ev)
    from colosseum.core.games.municipium.actions import BasilicaDraw, UsePower

    yp, _ = play(st, Pass(player=0), PlayFamily(player=0, card="your_powers"))
    yp, _ = apply(yp, UsePower(player=0, institution=EMPORIUM))  # nothing to draw: ends
    assert yp.stack[-1].options == (BASILICA,)
    yp, _ = apply(yp, UsePower(player=0, institution=BASILICA))  # nothing to exchange or draw
    assert yp.active == 1
    assert BasilicaDraw(player=0) not in legal(yp)


def test_m12_3_no_wreath_left_baths_still_moves():
    from colosseum.core.games.municipium.actions import UsePower

    st = board(3, members={0: {2: 2}})
    st = replace(st, wreaths=0)
    st, _ = draw_card(st, "all_powers")
    st, _ = apply(st, UsePower(player=0, institution=2))
    assert st.players[0].plain[TEMPLE] == 2 and sum(st.players[0].crowned) == 0


def test_m13_2_single_chamber_lost_to_an_empty_bag_returns_at_a_later_visit():
    st = board(3, members={0: {FORUM: 1}}, options=(OPTION_SINGLE,))
    st = replace(st, chamber=(NO_KIND,) * 7)
    st = only_in_bag(st, SOLDIER, 1)
    st, _ = draw_card(st, "governors_visit")
    assert isinstance(st.stack[-1], ChamberFrame) and to_act(st) == 0
    st, _ = apply(st, legal(st)[0])
    assert sum(1 for c in st.chamber if c != NO_KIND) == 1


def test_m2_4_no_governor_event_at_setup_and_m0_5_discard_is_public():
    st = board(3, members={0: {FORUM: 1}})
    assert st.governor == BASILICA and all(p.favours == 0 for p in st.players)
    st, _ = draw_card(st, "citizens_visit")
    st, _ = play(st, *[legal(st)[0] for _ in range(1)])
    while st.active == 0:
        st, _ = apply(st, legal(st)[0])
    assert st.discard == ("citizens_visit",)  # the whole pile is in the state (M-0.5 decision)
