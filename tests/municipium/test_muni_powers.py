"""M-8: the seven institution powers."""

from __future__ import annotations

import pytest
from msgspec.structs import replace
from muni_builders import (
    BASILICA,
    BATHS,
    EMPORIUM,
    FORUM,
    PRAETORIUM,
    TAVERN,
    TEMPLE,
    banners,
    board,
    draw_card,
    play,
    set_player,
)

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import apply, legal, to_act
from colosseum.core.games.municipium.actions import (
    BasilicaDraw,
    EmporiumDraw,
    Exchange,
    Pass,
    PlaceCitizen,
    Pull,
    Relocate,
    Take,
    UsePower,
)
from colosseum.core.games.municipium.model import EmporiumFrame, PlaceFrame


def offered(st, inst):
    """Run All Powers until ``inst``'s offer, passing the others."""
    st, _ = draw_card(st, "all_powers")
    while st.stack[-1].options != (inst,):
        st, _ = apply(st, Pass(player=to_act(st)))
    return st


def test_m8_0_temple_stable_sort_by_influence_with_crowns():
    st = board(3, members={0: {TEMPLE: 2}, 1: {TEMPLE: 1}}, crowned={1: {TEMPLE: 1}}, temple=(2, 0, 1))
    # A has 2, B has 3 (crowned counts 2), C has 0 but A leads? B leads the Temple: B uses it
    st = offered(st, TEMPLE)
    assert to_act(st) == 1
    st, _ = apply(st, UsePower(player=1, institution=TEMPLE))
    assert st.temple == (1, 0, 2)


def test_m8_0_equal_influence_keeps_relative_order():
    st = board(4, members={0: {TEMPLE: 1}, 1: {TEMPLE: 2}, 3: {TEMPLE: 1}}, temple=(3, 2, 1, 0))
    st = offered(st, TEMPLE)
    st, _ = apply(st, UsePower(player=1, institution=TEMPLE))
    assert st.temple == (1, 3, 0, 2)


def test_m8_1_tavern_pulls_any_colour_from_one_institution():
    st = board(3, members={0: {TAVERN: 1}, 1: {FORUM: 3}}, crowned={1: {FORUM: 1}})
    st = offered(st, TAVERN)
    st, _ = apply(st, UsePower(player=0, institution=TAVERN))
    pulls = legal(st)
    assert Pull(player=0, owner=1, frm=FORUM, plain=3, crowned=1) in pulls
    assert all(p.frm != TAVERN for p in pulls)
    with pytest.raises(RuleError) as e:
        apply(st, Pull(player=0, owner=1, frm=FORUM, plain=4))
    assert e.value.rule == "M-8.1"
    st, _ = apply(st, Pull(player=0, owner=1, frm=FORUM, plain=2, crowned=1))
    b = st.players[1]
    assert b.plain[FORUM] == 1 and b.plain[TAVERN] == 2 and b.crowned[TAVERN] == 1


def test_m8_2_baths_moves_own_members_and_crowns_one():
    st = board(3, members={0: {BATHS: 2}, 1: {BATHS: 1, TEMPLE: 1}})
    st = offered(st, BATHS)
    st, _ = apply(st, UsePower(player=0, institution=BATHS))
    a, b = st.players[0], st.players[1]
    assert a.plain[BATHS] == 0 and a.plain[TEMPLE] == 1 and a.crowned[TEMPLE] == 1
    assert b.plain[BATHS] == 1  # only the user's members move
    assert st.wreaths == 9


def test_m8_2_crown_may_go_to_a_member_already_in_the_temple_never_twice():
    st = board(3, members={0: {BATHS: 1}}, crowned={0: {BATHS: 1}})
    st = offered(st, BATHS)
    st, _ = apply(st, UsePower(player=0, institution=BATHS))
    assert st.players[0].crowned[TEMPLE] == 2 and st.players[0].plain[TEMPLE] == 0
    st = board(3, members={0: {BATHS: 1, TEMPLE: 1}}, crowned={})
    st = replace(
        st,
        players=(replace(st.players[0], plain=(1, 0, 0, 0, 0, 0, 0), crowned=(1, 0, 1, 0, 0, 0, 0)), *st.players[1:]),
    )
    st = replace(st, wreaths=8)
    st = offered(st, BATHS)
    st, _ = apply(st, UsePower(player=0, institution=BATHS))
    assert st.players[0].crowned[TEMPLE] == 3 and st.players[0].plain[TEMPLE] == 0


def test_m8_3_emporium_draws_until_stop_or_a_citizen_event():
    st = board(3, members={0: {EMPORIUM: 1}})
    st = banners(st, tavern=(0, 1, 0, 0), praetorium=(0, 1, 0, 0))
    st = replace(st, bag=(0, 3, 0, 0))
    st = offered(st, EMPORIUM)
    st, _ = apply(st, UsePower(player=0, institution=EMPORIUM))
    assert isinstance(st.stack[-1], EmporiumFrame)
    st, _ = apply(st, EmporiumDraw(player=0))
    assert isinstance(st.stack[-1], PlaceFrame)
    with pytest.raises(RuleError):
        apply(st, EmporiumDraw(player=0))
    st, _ = apply(st, PlaceCitizen(player=0, kind="soldier", institution=TAVERN))
    assert isinstance(st.stack[-1], EmporiumFrame)  # no event yet: may go on
    st, _ = apply(st, EmporiumDraw(player=0))
    st, _ = apply(st, PlaceCitizen(player=0, kind="soldier", institution=TAVERN))  # 3: event, nobody there
    assert not any(isinstance(f, EmporiumFrame) for f in st.stack)
    # stop whenever
    st2 = board(3, members={0: {EMPORIUM: 1}})
    st2 = offered(st2, EMPORIUM)
    st2, _ = play(st2, UsePower(player=0, institution=EMPORIUM), Pass(player=0))
    assert not any(isinstance(f, EmporiumFrame) for f in st2.stack)


def test_m8_4_basilica_exactly_three_for_one_or_draw():
    st = board(3, members={0: {BASILICA: 1}})
    st = set_player(st, 0, citizens=(2, 0, 0, 0), favours=2)
    st = offered(st, BASILICA)
    st, _ = apply(st, UsePower(player=0, institution=BASILICA))
    opts = legal(st)
    assert Exchange(player=0, citizens=(2, 0, 0, 0), favours=1) in opts
    assert Exchange(player=0, citizens=(1, 0, 0, 0), favours=2) in opts
    assert BasilicaDraw(player=0) in opts
    with pytest.raises(RuleError) as e:
        apply(st, Exchange(player=0, citizens=(2, 0, 0, 0), favours=2))  # 4 items
    assert e.value.rule == "M-8.4"
    with pytest.raises(RuleError):
        apply(st, Exchange(player=0, citizens=(0, 3, 0, 0), favours=0))  # not held
    a, _ = apply(st, Exchange(player=0, citizens=(2, 0, 0, 0), favours=1))
    assert a.players[0].decurions == 1 and a.players[0].citizens == (0, 0, 0, 0) and a.players[0].favours == 1
    b, _ = apply(replace(st, bag=(0, 0, 0, 1)), BasilicaDraw(player=0))
    # the drawn advocate completes a set with the 2 favours at once (M-9)
    assert b.players[0].citizens == (1, 0, 0, 0) and b.players[0].favours == 0 and b.players[0].decurions == 1


def test_m8_5_forum_takes_from_a_player_or_a_banner_never_a_favour():
    st = board(3, members={0: {FORUM: 1}})
    st = set_player(st, 1, citizens=(0, 1, 0, 0), favours=2)
    st = offered(st, FORUM)
    st, _ = apply(st, UsePower(player=0, institution=FORUM))
    opts = legal(st)
    assert Take(player=0, kind="soldier", seat=1) in opts
    assert Take(player=0, kind="priest", institution=TEMPLE) in opts
    assert all(t.seat != 0 for t in opts)
    with pytest.raises(RuleError):
        apply(st, Take(player=0, kind="merchant", seat=1))
    # one source, the other field at its "none" (-1): a stray value is refused, not ignored
    for stray in (
        Take(player=0, kind="soldier", seat=1, institution=-3),
        Take(player=0, kind="priest", seat=-2, institution=TEMPLE),
    ):
        with pytest.raises(RuleError, match="one other player or one banner"):
            apply(st, stray)
    st, _ = apply(st, Take(player=0, kind="soldier", seat=1))
    assert st.players[0].citizens == (0, 1, 0, 0) and st.players[1].citizens == (0, 0, 0, 0)
    assert st.players[1].favours == 2


def test_m8_5_forum_never_takes_a_chamber_citizen():
    st = board(3, members={0: {FORUM: 1}})
    st = offered(st, FORUM)
    st, _ = apply(st, UsePower(player=0, institution=FORUM))
    assert all(t.institution >= 0 or t.seat >= 0 for t in legal(st))
    assert len(legal(st)) == 7  # the 7 banner citizens only (nobody holds any)


def test_m8_6_praetorium_rearranges_own_members():
    st = board(3, members={0: {PRAETORIUM: 1, TAVERN: 1}}, crowned={0: {TAVERN: 1}})
    st = offered(st, TAVERN)
    st, _ = apply(st, Pass(player=0))
    st, _ = apply(st, UsePower(player=0, institution=PRAETORIUM))
    assert all(isinstance(a, Relocate | Pass) for a in legal(st))
    st, _ = play(
        st,
        Relocate(player=0, frm=TAVERN, to=BASILICA, crowned=True),
        Relocate(player=0, frm=PRAETORIUM, to=BASILICA),
        Pass(player=0),
    )
    a = st.players[0]
    assert a.crowned[BASILICA] == 1 and a.plain[BASILICA] == 1 and a.plain[TAVERN] == 1
    assert st.active == 1
