"""G-0 / G-1 Setup: nobles, gifts, display, first player, markers, starting gates in reverse
turn order, small spectacle piles, starting tiles 8/7/6, bag and markets."""

from __future__ import annotations

import pytest
from builders import NAMES, assert_illegal, assert_ok, play, start

from colosseum.core.games.colosseum import GameSetup, RuleError, legal, new_game, to_act
from colosseum.core.games.colosseum.actions import EndTurn, PlaceStartGates
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import NOBODY


def fresh(n=3, first=0, seed=11, variant="grand"):
    return new_game(GameSetup(players=NAMES[:n], seed=seed, first_player=first, variant=variant))


def test_g1_initial_state():
    """G-1.1 to G-1.5: nobles on their start spaces, 3 gifts, every medium and large
    spectacle on the display, 30 coins each, markers at 0 stacked in turn order."""
    cat = load_catalog("grand")
    st = fresh(4, first=2)
    assert st.phase == "setup" and st.round == 1
    assert st.nobles == (0, 12, 26, 6, 19, 30)
    assert st.gifts_left == 3 and st.promoters_left == 12
    sizes = sorted(cat.spectacles[i].size for i in st.display)
    assert sizes.count("medium") == 10 and sizes.count("large") == 12 and "small" not in sizes
    for p in st.players:
        assert (p.coins, p.aquilas, p.acclaim, p.gates, p.promoters, p.temple) == (30, 0, 0, (), 0, False)
        assert sum(p.tiles) == 0 and p.pillar
    # first player's marker at the bottom, then in turn order
    order = sorted(range(4), key=lambda s: st.players[s].seq)
    assert order == [2, 3, 0, 1]
    assert_ok(st)


def test_g1_first_player_random_from_seed_and_reproducible():
    """G-1.4: chosen at random from the seed; the same seed gives the same first player."""
    firsts = {new_game(GameSetup(players=NAMES[:5], seed=s)).first for s in range(40)}
    assert firsts == set(range(5))
    assert new_game(GameSetup(players=NAMES[:3], seed=9)) == new_game(GameSetup(players=NAMES[:3], seed=9))
    with pytest.raises(RuleError, match="^G-1.4"):
        new_game(GameSetup(players=NAMES[:3], seed=9, first_player=3))


def test_g0_three_to_five_players_with_distinct_names():
    with pytest.raises(RuleError, match="^G-0"):
        new_game(GameSetup(players=NAMES[:2], seed=1))
    with pytest.raises(RuleError, match="^G-0"):
        new_game(GameSetup(players=NAMES + ("Olga",), seed=1))
    with pytest.raises(RuleError, match="^G-1"):
        new_game(GameSetup(players=("A", "B", "A"), seed=1))
    with pytest.raises(RuleError, match="^G-1"):
        new_game(GameSetup(players=("A", "B", " "), seed=1))
    with pytest.raises(RuleError, match="^G-1"):
        new_game(GameSetup(players=("A", "B", "C"), seed=1, options=("nonsense",)))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_g16_starting_gates_in_reverse_turn_order(n):
    """G-1.6: in reverse turn order each player chooses a free starting pair for the count."""
    cat = load_catalog("grand")
    first = 1
    st = fresh(n, first=first)
    expected = [(first - 1 - k) % n for k in range(n)]
    chosen = []
    pairs = list(cat.gate_pairs[n])
    while st.phase == "setup":
        seat = to_act(st)
        chosen.append(seat)
        offered = [a.space for a in legal(st).actions]
        assert offered == [a for a, _ in pairs]
        a, b = pairs.pop()  # take the last free pair
        st, _ = play(st, PlaceStartGates(player=seat, space=a))
        assert st.players[seat].gates == (a, b)
    assert chosen == expected
    assert st.phase == "invest" and to_act(st) == first


def test_g16_pair_must_be_offered_and_free():
    st = fresh(3)
    seat = to_act(st)
    assert_illegal(st, PlaceStartGates(player=seat, space=9), "G-1.6")  # 9 ends a pair
    assert_illegal(st, PlaceStartGates(player=seat, space=3), "G-1.6")  # a 4-player pair
    assert_illegal(st, EndTurn(player=seat), "G-1.6")
    st, _ = play(st, PlaceStartGates(player=seat, space=8))
    assert_illegal(st, PlaceStartGates(player=to_act(st), space=8), "G-1.6")
    assert_illegal(st, PlaceStartGates(player=seat, space=21), "G-0")  # not her turn


@pytest.mark.parametrize("n,per", [(3, 8), (4, 7), (5, 6)])
def test_g17_g18_g19_dealing(n, per):
    """G-1.7 small spectacles from piles A then B/C by icon; G-1.8 starting tiles 8/7/6 from
    the dark-backed tiles only; G-1.9 the rest in the bag, 5 markets of 3 tiles."""
    cat = load_catalog("grand")
    for seed in range(12):
        st = start(n, seed=seed)
        used = set()
        for p in st.players:
            a, b = (cat.spectacles[i] for i in p.face_down)
            assert a.pile == "A" and b.pile == a.icon and b.size == "small"
            assert p.face_up == () and sum(p.tiles) == per
            used |= {a.id, b.id}
        assert len(used) == 2 * n
        assert not any(cat.spectacles[i].size == "small" for i in st.display)
        dealt = [sum(p.tiles[k] for p in st.players) for k in range(len(cat.tiles))]
        assert all(d <= s for d, s in zip(dealt, cat.starting, strict=False)), "starting tiles only"
        assert all(len(m) == 3 for m in st.markets) and st.pillars == (NOBODY,) * 5
        assert st.box == (0,) * len(cat.tiles), "every tile is in play (construction tiles: 0)"
        assert sum(st.bag) == sum(cat.counts) - n * per - 15
        assert st.invest.player == st.first
        assert_ok(st)


def test_g18_star_performers_awarded_at_setup():
    """G-1.8 / G-7: a player dealt 3+ of a type and more than anyone takes its star."""
    cat = load_catalog("grand")
    seen = 0
    for seed in range(60):
        st = start(3, seed=seed)
        for k in cat.star_types:
            counts = [p.tiles[k] for p in st.players]
            m = max(counts)
            if m >= 3 and counts.count(m) == 1:
                assert st.stars[k] == counts.index(m)
                seen += 1
            else:
                assert st.stars[k] == NOBODY
    assert seen > 0
