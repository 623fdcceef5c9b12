"""M-0 to M-3 and M-13: players, data, setup, initial placement and the Temple order."""

from __future__ import annotations

import pytest
from muni_builders import ADVOCATE, MERCHANT, PRIEST, SOLDIER, TEMPLE, setup

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import MuniSetup, apply, legal, load_catalog, new_game, to_act
from colosseum.core.games.municipium.actions import PlaceChamber, PlaceMember
from colosseum.core.games.municipium.catalog import MuniCatalogError, parse_catalog
from colosseum.core.games.municipium.invariants import check
from colosseum.core.games.municipium.model import NO_KIND, OPTION_SINGLE, ChamberFrame

DISTANCES = (
    (0, 1, 2, 1, 2, 1, 2),
    (1, 0, 1, 2, 3, 2, 1),
    (2, 1, 0, 1, 2, 3, 2),
    (1, 2, 1, 0, 1, 2, 3),
    (2, 3, 2, 1, 0, 1, 2),
    (1, 2, 3, 2, 1, 0, 1),
    (2, 1, 2, 3, 2, 1, 0),
)


def test_m0_1_two_to_four_players():
    for n in (1, 5):
        with pytest.raises(RuleError) as e:
            new_game(MuniSetup(players=tuple("ABCDE"[:n]), seed=1))
        assert e.value.rule == "M-0.1"
    with pytest.raises(RuleError):
        new_game(MuniSetup(players=("A", "A"), seed=1))
    with pytest.raises(RuleError) as e:
        new_game(MuniSetup(players=("A", "B"), seed=1, options=("nope",)))
    assert e.value.rule == "M-13"


def test_m1_roads_from_data_match_the_distance_table():
    cat = load_catalog()
    assert cat.distance == DISTANCES
    for i, adj in enumerate(cat.adjacent):
        for j in adj:
            assert i in cat.adjacent[j]
    assert cat.route == (-1, 2, 3, 4, 5, 6, 1)
    assert cat.common_deck.count("one_power") == 3 and len(cat.common_deck) == 12
    assert cat.family_cards == ("citizens_invitation", "great_family", "your_powers")


def test_m1_every_record_has_a_source_and_designed_figures_are_marked():
    cat = load_catalog()
    assert all(c.designed for c in cat.cards.values())
    assert all(r.designed for r in cat.raw.route)
    assert all(i.source for i in cat.institutions)
    assert cat.counts.temple_spaces_designed


def test_m1_broken_data_is_rejected():
    from importlib import resources

    text = (
        resources.files("colosseum.core.games.municipium").joinpath("data/municipium.toml").read_text(encoding="utf-8")
    )
    with pytest.raises(MuniCatalogError):
        parse_catalog(text.replace('adjacent = ["tavern", "forum"]', 'adjacent = ["tavern"]'))
    with pytest.raises(MuniCatalogError):
        parse_catalog(text.replace('to = "tavern"', 'to = "baths"'))
    with pytest.raises(MuniCatalogError):
        parse_catalog(text.replace("count = 15", "count = 0", 1))
    # the deck split lives in data: swapping a card's deck needs no code
    swapped = parse_catalog(
        text.replace(
            'deck = "family"\ncopies = 1\nsource = "001 「最初に', 'deck = "common"\ncopies = 2\nsource = "001 「最初に'
        )
    )
    assert swapped.common_deck.count("citizens_invitation") == 2


@pytest.mark.parametrize(("n", "bag", "chambers"), [(2, 53, 0), (3, 47, 6), (4, 47, 6)])
def test_m2_9_setup_per_player_count(n, bag, chambers):
    st = new_game(setup(n))
    assert sum(st.bag) == bag
    assert sum(1 for c in st.chamber if c != NO_KIND) == chambers
    assert sum(sum(b) for b in st.banners) == 7
    assert [b.index(1) for b in st.banners] == [PRIEST, SOLDIER, MERCHANT, MERCHANT, ADVOCATE, ADVOCATE, SOLDIER]
    assert st.favour_spaces == (False, True, True, True, True, True, True)
    assert st.favour_supply == 9 and st.wreaths == 10
    assert st.governor == 4  # M-2.4 the Basilica
    assert len(st.deck) == 12
    assert all(p.family == load_catalog().family_cards for p in st.players)
    assert check(st) == []


def test_m2_5_single_chamber_option():
    for seed in range(6):
        st = new_game(setup(3, seed, (OPTION_SINGLE,)))
        on_board = sum(1 for c in st.chamber if c != NO_KIND)
        if st.stack:  # the start player chooses the chamber (M-13.2)
            assert isinstance(st.stack[-1], ChamberFrame) and to_act(st) == st.start
            st, _ = apply(st, legal(st)[0])
            assert isinstance(legal(st)[0], PlaceMember)
            on_board = 1
        assert on_board == 1 and sum(st.bag) == 52
        assert check(st) == []
    st = new_game(setup(2, 1, (OPTION_SINGLE,)))
    assert st.chamber == (NO_KIND,) * 7


def test_m13_2_chamber_choice_is_checked():
    for seed in range(20):
        st = new_game(setup(3, seed, (OPTION_SINGLE,)))
        if st.stack and st.held[PRIEST] == 0:
            with pytest.raises(RuleError) as e:
                apply(st, PlaceChamber(player=st.start, institution=TEMPLE))
            assert e.value.rule == "M-13.2"
            return
    pytest.skip("no seed drew a two-chamber citizen")


def test_m3_1_start_player_from_the_seed():
    starts = {new_game(setup(4, seed)).start for seed in range(30)}
    assert starts == {0, 1, 2, 3}
    assert new_game(setup(4, 5)) == new_game(setup(4, 5))


def test_m3_2_placement_from_the_start_player_clockwise_one_at_a_time():
    st = new_game(setup(3, 2))
    order = []
    for _ in range(21):
        seat = to_act(st)
        order.append(seat)
        with pytest.raises(RuleError):
            apply(st, PlaceMember(player=(seat + 1) % 3, institution=1))
        st, _ = apply(st, PlaceMember(player=seat, institution=1))
    assert order == [(st.start + i) % 3 for i in range(21)]
    assert st.phase == "move" and st.active == st.start and st.turn == 1
    assert all(p.plain[1] == 7 for p in st.players)


def _place_all(n, seed, temple_counts):
    """Everyone places ``temple_counts[seat]`` members in the Temple, the rest at the Tavern."""
    st = new_game(setup(n, seed))
    left = list(temple_counts)
    while st.phase == "place":
        seat = to_act(st)
        inst = TEMPLE if left[seat] else 1
        left[seat] -= inst == TEMPLE
        st, _ = apply(st, PlaceMember(player=seat, institution=inst))
    return st


def test_m3_3_temple_order_ties_from_the_start_player_clockwise():
    # find a seed whose start player is seat 2 of 4
    seed = next(s for s in range(100) if new_game(setup(4, s)).start == 2)
    st = _place_all(4, seed, [1, 3, 1, 0])
    # B has most; A and C tie (C is the start player: before A); D with none still ranked
    assert st.temple == (1, 2, 0, 3)
    st = _place_all(4, seed, [0, 0, 0, 0])
    assert st.temple == (2, 3, 0, 1)


def test_m3_4_start_player_takes_the_first_turn():
    seed = next(s for s in range(100) if new_game(setup(3, s)).start == 1)
    st = _place_all(3, seed, [0, 0, 0])
    assert to_act(st) == 1 and st.phase == "move"
