"""M-4 influence, M-5 the turn (move, card, reshuffle), M-6 the cards."""

from __future__ import annotations

import pytest
from msgspec.structs import replace
from muni_builders import (
    BASILICA,
    BATHS,
    EMPORIUM,
    FORUM,
    PRAETORIUM,
    SOLDIER,
    TAVERN,
    TEMPLE,
    board,
    draw_card,
    only_in_bag,
    play,
)

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import apply, legal, to_act
from colosseum.core.games.municipium.actions import (
    DrawCommon,
    GreatFamilyOption,
    Move,
    Pass,
    Path,
    PlaceCitizen,
    PlayFamily,
    Relocate,
    UsePower,
)
from colosseum.core.games.municipium.board import influence, led_by, ranking
from colosseum.core.games.municipium.model import OfferFrame, PlaceFrame, RearrangeFrame

# ---------------------------------------------------------------- M-4


def test_m4_1_crowned_member_counts_two():
    st = board(3, members={0: {TAVERN: 1}, 1: {TAVERN: 2}}, crowned={0: {TAVERN: 1}})
    assert influence(st, 0, TAVERN) == 3 and influence(st, 1, TAVERN) == 2
    assert ranking(st, TAVERN) == (0, 1)


def test_m4_2_ties_by_temple_order_strict_ranking():
    st = board(3, members={0: {BATHS: 2}, 1: {BATHS: 2}, 2: {BATHS: 1}}, temple=(1, 2, 0))
    assert ranking(st, BATHS) == (1, 0, 2)  # A tied with B on influence but lower: second (M-4.2)
    st = board(3, members={0: {BATHS: 1}, 1: {BATHS: 1}, 2: {BATHS: 1}}, temple=(2, 0, 1))
    assert ranking(st, BATHS) == (2, 0, 1)


def test_m4_4_empty_institution_has_no_leader():
    st = board(3, members={0: {TAVERN: 1}})
    assert ranking(st, FORUM) == ()
    assert led_by(st, 0) == (TAVERN,)


# ---------------------------------------------------------------- M-5.1 moves


def test_m5_1_one_or_two_members_one_step_each():
    st = board(3, members={0: {TEMPLE: 2, BATHS: 1}})
    st2, _ = apply(st, Move(player=0, paths=(Path(frm=TEMPLE, to=TAVERN), Path(frm=TEMPLE, to=FORUM))))
    assert st2.players[0].plain == (0, 1, 1, 0, 0, 1, 0) and st2.phase == "card"
    with pytest.raises(RuleError) as e:  # no road Temple-Baths
        apply(st, Move(player=0, paths=(Path(frm=TEMPLE, to=BATHS),)))
    assert e.value.rule == "M-5.1"
    with pytest.raises(RuleError):  # only one member at the Baths: two pieces needed
        apply(st, Move(player=0, paths=(Path(frm=BATHS, to=TAVERN), Path(frm=BATHS, to=EMPORIUM))))
    with pytest.raises(RuleError):  # three paths
        apply(st, Move(player=0, paths=(Path(frm=TEMPLE, to=TAVERN),) * 3))


def test_m5_1_two_steps_to_another_institution():
    st = board(3, members={0: {TAVERN: 1}})
    st2, _ = apply(st, Move(player=0, paths=(Path(frm=TAVERN, via=TEMPLE, to=FORUM),)))
    assert st2.players[0].plain[FORUM] == 1
    with pytest.raises(RuleError):  # back to its start (A-B-A)
        apply(st, Move(player=0, paths=(Path(frm=TAVERN, via=TEMPLE, to=TAVERN),)))
    with pytest.raises(RuleError):  # Tavern to Basilica is 3 steps
        apply(st, Move(player=0, paths=(Path(frm=TAVERN, via=TEMPLE, to=BASILICA),)))
    two_step = {m.paths[0].to for m in legal(st) if isinstance(m, Move) and m.paths[0].via >= 0}
    assert two_step == {EMPORIUM, FORUM}  # exactly distance 2 from the Tavern


def test_m5_1_only_own_members_and_crowned_keep_wreath():
    st = board(3, members={1: {TAVERN: 1}}, crowned={0: {TAVERN: 1}})
    with pytest.raises(RuleError):
        apply(st, Move(player=0, paths=(Path(frm=TAVERN, to=BATHS),)))  # no plain member of A there
    st2, _ = apply(st, Move(player=0, paths=(Path(frm=TAVERN, to=BATHS, crowned=True),)))
    assert st2.players[0].crowned[BATHS] == 1 and st2.wreaths == st.wreaths


def test_m5_1_pass_then_card_is_mandatory():
    st = board(3, members={0: {TAVERN: 1}})
    st, _ = apply(st, Pass(player=0))
    assert st.phase == "card"
    with pytest.raises(RuleError) as e:
        apply(st, Pass(player=0))
    assert e.value.rule == "M-5.2"
    with pytest.raises(RuleError):
        apply(st, Move(player=0, paths=(Path(frm=TAVERN, to=BATHS),)))


# ---------------------------------------------------------------- M-5.2-M-5.4 cards


def test_m5_3_family_card_spent_after_its_effects():
    st = board(3, members={0: {TAVERN: 1}, 1: {TAVERN: 2}})
    st, _ = play(st, Pass(player=0), PlayFamily(player=0, card="your_powers"))
    # A leads nowhere: the card is spent at once and the turn passes
    assert st.players[0].spent == ("your_powers",) and "your_powers" not in st.players[0].family
    assert st.active == 1 and st.phase == "move" and st.in_play == ""
    st, _ = play(st, Pass(player=1))
    with pytest.raises(RuleError):
        apply(st, PlayFamily(player=1, card="nope"))


def test_m5_2_without_family_cards_only_the_common_card():
    st = board(3)
    st = replace(st, players=tuple(replace(p, family=()) for p in st.players), phase="card")
    assert legal(st) == (DrawCommon(player=0),)


def test_m5_4_reshuffle_when_a_draw_finds_the_deck_empty():
    st = board(2)
    st = replace(st, deck=(), discard=st.deck, phase="card")
    st2, ev = apply(st, DrawCommon(player=0))
    assert "shuffled" in ev[0].text
    # all 12 formed the new deck; the drawn card is resolved and discarded
    assert len(st2.deck) == 11 and len(st2.discard) + (1 if st2.in_play else 0) == 1


def test_m5_4_common_card_goes_to_the_discard():
    st = board(2, members={0: {TAVERN: 1}})
    st, _ = draw_card(st, "governors_visit")
    assert st.discard[-1] == "governors_visit" and len(st.deck) == 11


# ---------------------------------------------------------------- M-6


def test_m6_1_governors_visit_moves_to_the_next_chamber():
    st = board(3, members={0: {FORUM: 1}})
    st, ev = draw_card(st, "governors_visit")
    assert st.governor == FORUM and st.players[0].favours == 1


def test_m6_2_citizens_visit_each_player_from_the_active_clockwise():
    st = board(3, active=1)
    st = only_in_bag(st, SOLDIER, 3)
    st, _ = draw_card(st, "citizens_visit")
    order = []
    while st.stack:
        seat = to_act(st)
        order.append(seat)
        assert isinstance(st.stack[-1], PlaceFrame) and st.held[SOLDIER] == 1
        with pytest.raises(RuleError):  # a soldier only at the Tavern or the Praetorium
            apply(st, PlaceCitizen(player=seat, kind="soldier", institution=BATHS))
        st, _ = apply(st, PlaceCitizen(player=seat, kind="soldier", institution=PRAETORIUM))
    assert order == [1, 2, 0]
    assert st.active == 2


def test_m6_3_invitation_draws_four_and_places_in_chosen_order():
    st = board(3, members={0: {TAVERN: 1}})
    st = replace(st, bag=(1, 1, 1, 1))
    st, ev = play(st, Pass(player=0), PlayFamily(player=0, card="citizens_invitation"))
    assert st.held == (1, 1, 1, 1) and st.bag == (0, 0, 0, 0)
    kinds = {a.kind for a in legal(st)}
    assert kinds == {"priest", "soldier", "merchant", "advocate"}
    st, _ = play(
        st,
        PlaceCitizen(player=0, kind="advocate", institution=FORUM),
        PlaceCitizen(player=0, kind="priest", institution=TEMPLE),
        PlaceCitizen(player=0, kind="merchant", institution=BATHS),
    )
    assert to_act(st) == 0 and st.held == (0, 1, 0, 0)
    st, _ = apply(st, PlaceCitizen(player=0, kind="soldier", institution=PRAETORIUM))
    assert st.active == 1 and st.held == (0, 0, 0, 0)


def test_m6_4_great_family_governor_or_rearrange():
    st = board(3, members={0: {FORUM: 1, TAVERN: 2}})
    st, _ = play(st, Pass(player=0), PlayFamily(player=0, card="great_family"))
    a, _ = apply(st, GreatFamilyOption(player=0, option="governor"))
    assert a.governor == FORUM and a.players[0].favours == 1
    b, _ = apply(st, GreatFamilyOption(player=0, option="rearrange"))
    assert isinstance(b.stack[-1], RearrangeFrame)
    b, _ = play(b, Relocate(player=0, frm=TAVERN, to=BASILICA), Relocate(player=0, frm=TAVERN, to=BASILICA))
    assert b.players[0].plain[BASILICA] == 2  # roads do not matter
    b, _ = apply(b, Pass(player=0))
    assert b.active == 1


def test_m6_5_all_powers_from_the_temple_to_the_praetorium_live_leadership():
    # A leads the Tavern, B leads the Baths; the Tavern pulls B's Baths members away, so A then leads nothing new
    st = board(3, members={0: {TAVERN: 1, BATHS: 1}, 1: {BATHS: 2, FORUM: 1}})
    st, _ = draw_card(st, "all_powers")
    assert isinstance(st.stack[-1], OfferFrame) and st.stack[-1].options == (TAVERN,) and to_act(st) == 0
    from colosseum.core.games.municipium.actions import Pull

    st, _ = play(st, UsePower(player=0, institution=TAVERN), Pull(player=0, owner=1, frm=BATHS, plain=2))
    # the Baths are now led by A (read live, M-4.3)
    assert st.stack[-1].options == (BATHS,) and to_act(st) == 0
    st, _ = apply(st, Pass(player=0))
    assert to_act(st) == 1 and st.stack[-1].options == (FORUM,)
    st, _ = apply(st, Pass(player=1))
    assert st.active == 1


def test_m6_6_one_power_each_player_one_institution_they_lead():
    st = board(3, members={0: {TAVERN: 1, TEMPLE: 1}, 2: {FORUM: 1}}, active=1)
    st, _ = draw_card(st, "one_power")
    # B leads nothing: skipped; C first, then A
    assert to_act(st) == 2 and st.stack[-1].options == (FORUM,)
    st, _ = apply(st, Pass(player=2))
    assert to_act(st) == 0 and st.stack[-1].options == (TEMPLE, TAVERN)
    with pytest.raises(RuleError):
        apply(st, UsePower(player=0, institution=FORUM))
    st, _ = apply(st, UsePower(player=0, institution=TEMPLE))
    assert st.active == 2


def test_m6_7_your_powers_every_institution_led_in_number_order():
    st = board(3, members={0: {TEMPLE: 1, BASILICA: 1, FORUM: 1}, 1: {TAVERN: 1}})
    st, _ = play(st, Pass(player=0), PlayFamily(player=0, card="your_powers"))
    seen = []
    while st.active == 0:
        top = st.stack[-1]
        assert isinstance(top, OfferFrame) and to_act(st) == 0
        seen.append(top.options)
        st, _ = apply(st, Pass(player=0))
    assert seen == [(TEMPLE,), (BASILICA,), (FORUM,)]


def test_m6_7_your_powers_counts_an_institution_won_during_the_card():
    # A pulls B's only Praetorium member to the Tavern with the Tavern, then leads the Praetorium
    st = board(3, members={0: {TAVERN: 2, PRAETORIUM: 1}, 1: {PRAETORIUM: 2}})
    from colosseum.core.games.municipium.actions import Pull

    st, _ = play(st, Pass(player=0), PlayFamily(player=0, card="your_powers"))
    st, _ = play(st, UsePower(player=0, institution=TAVERN), Pull(player=0, owner=1, frm=PRAETORIUM, plain=2))
    assert st.stack[-1].options == (PRAETORIUM,)


def test_m6_8_every_power_may_be_declined():
    st = board(3, members={0: {TEMPLE: 1}})
    st, _ = draw_card(st, "all_powers")
    assert Pass(player=0) in legal(st)
