"""C-1..C-6 (the classic game) and A07-1..A07-2 (the 2007 auction option).  Each test shows
the difference from the Grand Spectacle rule it replaces."""

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
    with_dice,
)
from msgspec.structs import replace
from test_rules_closing import end, last_round

from colosseum.core.games.colosseum import Transfer, legal, to_act
from colosseum.core.games.colosseum.actions import (
    AcceptDeal,
    BuildGate,
    BuildTemple,
    ChooseDice,
    CloseDeal,
    ConstructionForAquila,
    EndTurn,
    HirePromoter,
    MoveNoble,
    OpenAuction,
    PassBid,
    PlanSpectacle,
    ProposeDeal,
    Roll,
)
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import NOBODY

BECKY, KAT, LAURA = 0, 1, 2
GRAND, CLASSIC = load_catalog("grand"), load_catalog("classic")


# ---------------------------------------------------------------------------- C-1


def test_c1_components():
    """C-1: fewer standard tiles, only the 2 small spectacles it names out,
    7 Star Performers instead of 12, 4 construction tiles in."""

    def count(cat, code):
        return cat.counts[cat.index[code]]

    removed = {"Ch": 2, "D": 2, "E": 2, "G": 4, "L": 2, "P": 1, "Sc": 2, "S": 1, "Bal": 2, "Aq": 2}
    for code in GRAND.codes:
        if code == "Con":
            assert (count(GRAND, code), count(CLASSIC, code)) == (0, 4)
        else:
            assert count(GRAND, code) - count(CLASSIC, code) == removed.get(code, 0), code
    assert sum(GRAND.counts) == 172 - 4 + 4 - 4 and sum(CLASSIC.counts) == 152
    stars = {CLASSIC.codes[k] for k in CLASSIC.star_types}
    assert stars == {"Co", "G", "H", "L", "M", "P", "S"}
    assert len(GRAND.star_types) == 12
    smalls = {CLASSIC.spectacles[i].key for i in CLASSIC.smalls}
    assert len(smalls) == 10 and len(GRAND.smalls) == 12
    assert not smalls & {"pugnae-bestiae", "ships-of-triton"}
    # C-1 takes out only the two small tiles it names: all ten medium and twelve large stay
    assert len(CLASSIC.display) == 22 and CLASSIC.display == GRAND.display
    numbers = sorted(CLASSIC.spectacles[i].number for i in CLASSIC.display)
    assert numbers == list(range(1, 23))


def test_c1_construction_tiles_go_in_the_bag_and_come_out_in_markets():
    """C-1 / D-10: the 4 construction tiles join the standard tiles in the bag (never the
    starting tiles), so they are won in auctions like any tile; none in the grand game."""
    con = CLASSIC.construction
    seen_market = False
    for seed in range(30):
        st = start(3, seed=seed, variant="classic")
        assert all(p.tiles[con] == 0 for p in st.players)
        in_markets = sum(m.count(con) for m in st.markets)
        assert st.bag[con] + in_markets == 4
        seen_market |= in_markets > 0
        g = start(3, seed=seed)
        assert g.bag[con] == 0 and all(con not in m for m in g.markets)
    assert seen_market


# ---------------------------------------------------------------------------- C-2


def test_c2_four_gifts_and_two_random_small_spectacles_each():
    """C-2: 4 gifts (5 rounds) instead of 3; all 10 small spectacles shuffled, 2 dealt to
    each player, not one from pile A and one from the pile its icon names."""
    st = start(5, seed=1, variant="classic")
    assert st.gifts_left == 4 and start(5, seed=1).gifts_left == 3
    not_by_piles = False
    for seed in range(40):
        st = start(5, seed=seed, variant="classic")
        dealt = [i for p in st.players for i in p.face_down]
        assert sorted(dealt) == sorted(CLASSIC.smalls)
        for p in st.players:
            a, b = (CLASSIC.spectacles[i] for i in p.face_down)
            if not (a.pile == "A" and b.pile == a.icon):
                not_by_piles = True
    assert not_by_piles


# ---------------------------------------------------------------------------- C-3


def classic_invest(**changes):
    st = start(3, seed=2, variant="classic", first=BECKY)
    st = set_player(st, BECKY, gates=(21, 22), coins=80, **changes)
    st = set_player(st, KAT, gates=(8, 9))
    st = set_player(st, LAURA, gates=(32, 33))
    return assert_ok(st)


def test_c3_one_investment_then_extras_for_two_aquilas_or_a_construction_tile():
    """C-3: one investment per turn (grand: two of different kinds); each extra costs 2
    Aquilas or a construction tile, may repeat a kind, any number of them."""
    st = classic_invest(aquilas=4)
    st = set_tiles(st, BECKY, {"Con": 1, "G": 2}, keep_others=False)
    st, _ = play(st, HirePromoter(player=BECKY))
    assert to_act(st) == BECKY, "no automatic end of turn: extras may follow"
    assert_illegal(st, BuildTemple(player=BECKY), "C-3")
    assert_illegal(st, HirePromoter(player=BECKY, extra="bogus"), "C-3")
    extras = {(type(a).__name__, a.extra) for a in legal(st).actions if hasattr(a, "extra")}
    assert ("HirePromoter", "aquilas") in extras and ("HirePromoter", "construction") in extras
    assert ("HirePromoter", "") not in extras
    st, _ = play(st, HirePromoter(player=BECKY, extra="aquilas"))
    p = st.players[BECKY]
    assert p.promoters == 2 and p.aquilas == 2
    con = code_index(st, "Con")
    box = st.box[con]
    st, _ = play(st, BuildGate(player=BECKY, space=23, extra="construction"))
    assert st.players[BECKY].tiles[con] == 0 and st.box[con] == box + 1
    st, _ = play(st, BuildGate(player=BECKY, space=24, extra="aquilas"))
    p = st.players[BECKY]
    assert p.gates == (21, 22, 23, 24) and p.aquilas == 0
    assert_illegal(st, PlanSpectacle(player=BECKY, spectacle="circus-maximus", extra="aquilas"), "C-3")
    assert_ok(st)
    st, _ = play(st, EndTurn(player=BECKY))
    assert to_act(st) == KAT


def test_c3_extras_need_the_regular_investment_first_and_do_not_exist_in_grand():
    st = classic_invest(aquilas=2)
    assert_illegal(st, HirePromoter(player=BECKY, extra="aquilas"), "C-3")
    grand = set_player(start(3, seed=2, first=BECKY), BECKY, aquilas=2)
    grand, _ = play(grand, HirePromoter(player=BECKY))
    assert_illegal(grand, BuildTemple(player=BECKY, extra="aquilas"), "C-3")
    assert_illegal(grand, HirePromoter(player=BECKY), "G-2")
    st, _ = play(st, HirePromoter(player=BECKY))
    st1 = set_player(st, BECKY, aquilas=1)
    assert_illegal(st1, HirePromoter(player=BECKY, extra="aquilas"), "C-3")
    assert_illegal(st1, HirePromoter(player=BECKY, extra="construction"), "C-3")


# ---------------------------------------------------------------------------- C-4


def classic_perform(temple=False):
    st = skip_to(start(3, seed=3, variant="classic", first=KAT), "perform")
    st = set_player(st, KAT, gates=(8, 9), temple=temple)
    st = set_player(st, BECKY, gates=(21, 22))
    st = set_player(st, LAURA, gates=(32, 33))
    return replace(st, nobles=(3, 12, 26, 6, 19, 30))


def test_c4_one_die_one_noble_no_skipping_sharing_allowed():
    """C-4: without the Temple one die moves one noble; occupied spaces count and may be
    shared (grand: two dice, occupied spaces skipped)."""
    st = with_dice(classic_perform(), 3)
    st, ev = play(st, Roll(player=KAT))
    assert st.perform.dice == (3,) and st.perform.stage == "move"
    moves = {(a.noble, a.die, a.steps) for a in legal(st).actions if isinstance(a, MoveNoble)}
    assert moves == {(nb, 0, 3) for nb in range(6)}
    st, _ = play(st, MoveNoble(player=KAT, noble=0, die=0, steps=3))
    assert st.nobles[0] == 6 == st.nobles[3], "the emperor joins the senator on 6"
    assert st.perform.stage == "after"
    assert st.players[KAT].aquilas == 1, "6 is an Aquila space"
    assert_ok(st)


def test_c4_temple_gives_two_dice_without_ranges():
    st = with_dice(classic_perform(temple=True), 3, 5)
    st, _ = play(st, Roll(player=KAT))
    assert st.perform.dice == (3, 5) and st.perform.stage == "mode"
    split, _ = play(st, ChooseDice(player=KAT, mode="split"))
    assert {(a.die, a.steps) for a in legal(split).actions if isinstance(a, MoveNoble)} == {(0, 3), (1, 5)}
    total, _ = play(st, ChooseDice(player=KAT, mode="sum"))
    assert {a.steps for a in legal(total).actions if isinstance(a, MoveNoble)} == {8}
    total, _ = play(total, MoveNoble(player=KAT, noble=0, die=-1, steps=8))
    assert total.nobles[0] == 11, "3 + 8, counting the senator's space 6"


# ---------------------------------------------------------------------------- C-5


def test_c5_construction_tile_for_an_aquila_at_any_time():
    """C-5: discard a construction tile for 1 Aquila at any time, even on another player's
    turn; grand has no construction tiles."""
    st = skip_to(start(3, seed=4, variant="classic", first=BECKY), "trade")
    st = set_tiles(st, LAURA, {"Con": 2})
    assert to_act(st) == BECKY
    st, ev = play(st, ConstructionForAquila(player=LAURA))
    laura = st.players[LAURA]
    assert laura.aquilas == 1 and laura.tiles[code_index(st, "Con")] == 1
    assert "discards a construction tile for an Aquila" in texts(ev)
    assert_ok(st)
    none = set_tiles(st, LAURA, {})
    assert_illegal(none, ConstructionForAquila(player=LAURA), "C-5")
    grand = skip_to(start(3, seed=4, first=BECKY), "trade")
    assert_illegal(grand, ConstructionForAquila(player=LAURA), "C-5")


def test_d11_construction_tiles_are_traded_and_stolen_like_performers():
    """D-11: in the classic game construction tiles can be traded and stolen."""
    st = skip_to(start(3, seed=4, variant="classic", first=BECKY), "trade")
    st = set_tiles(st, KAT, {"Con": 1})
    st, _ = play(
        st,
        ProposeDeal(player=BECKY, transfers=(Transfer(KAT, BECKY, "Con", 1), Transfer(BECKY, KAT, "coins", 4))),
        AcceptDeal(player=KAT),
        CloseDeal(player=BECKY),
    )
    assert st.players[BECKY].tiles[code_index(st, "Con")] == 1
    assert_ok(st)


# ---------------------------------------------------------------------------- C-6


def test_c6_aquilas_are_discarded_at_the_end():
    """C-6: no Acclaim for Aquilas at the end (grand: +3 each)."""
    st = last_round(acclaims=(20, 23, 26), aquilas=(2, 1, 0))
    classic = replace(st, setup=replace(st.setup, variant="classic"))
    grand_end, _ = end(st)
    assert grand_end.players[BECKY].acclaim == 26
    classic_end, ev = end(classic)
    assert [p.acclaim for p in classic_end.players] == [20, 23, 26]
    assert all(p.aquilas == 0 for p in classic_end.players)
    assert "discards 2 Aquilas" in texts(ev)
    assert classic_end.result.winner == LAURA


def test_c2_classic_game_lasts_five_rounds():
    """C-2: the game ends after the 5th Perform phase (when the 4th gift is gone)."""
    st = start(3, seed=9, variant="classic")
    while st.phase != "over":
        ch = legal(st)
        acts = ch.actions
        # everyone passes; the least acclaimed chooses themself; retire/steal the first option
        a = next((x for x in acts if isinstance(x, EndTurn)), acts[0])
        st, _ = play(st, a)
    assert st.round == 5 and st.gifts_left == 0
    assert sum(p.gifts for p in st.players) == 4


# ---------------------------------------------------------------------------- A07


def a07_hire(variant="grand"):
    st = skip_to(start(3, seed=5, variant=variant, options=("auction-2007",), first=BECKY), "hire")
    for seat in range(3):
        st = set_player(st, seat, coins=40, aquilas=0)
    return st


def test_a07_winner_keeps_no_pillar_for_the_rest_of_the_phase_but_markets_refill():
    """A07-2: pillars are not returned at the end of an active turn (grand: returned), so a
    winner cannot bid again this phase; the emptied market is refilled all the same."""
    st = a07_hire()
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=8), PassBid(player=KAT))
    st, ev = play(st, PassBid(player=LAURA))
    assert st.hire.active == KAT
    assert not st.players[BECKY].pillar, "A07-2: no pillar back"
    assert len(st.markets[0]) == 3 and st.pillars == (NOBODY,) * 5, "market A refilled"
    st, _ = play(st, OpenAuction(player=KAT, market=0, bid=8))
    assert to_act(st) == LAURA, "Becky, without her pillar, is never asked"
    grand = skip_to(start(3, seed=5, first=BECKY), "hire")
    grand, _ = play(grand, OpenAuction(player=BECKY, market=0, bid=8), PassBid(player=KAT), PassBid(player=LAURA))
    assert grand.players[BECKY].pillar


def test_a07_no_auction_without_the_pillar_at_the_start_of_the_turn():
    """A07-1: a player who won a lot earlier in the phase cannot conduct an auction."""
    st = a07_hire()
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=8), Raise_(KAT, 9), PassBid(player=LAURA))
    st, _ = play(st, PassBid(player=BECKY))
    assert not st.players[KAT].pillar and st.hire.active == BECKY
    st, ev = play(st, EndTurn(player=BECKY))
    assert "Kat has no pillar and passes" in texts(ev)
    assert st.hire.active == LAURA
    st, _ = play(st, EndTurn(player=LAURA))
    assert st.phase == "trade" and all(p.pillar for p in st.players), "A07-2: all back at the end"


def Raise_(seat, bid):
    from colosseum.core.games.colosseum.actions import Raise

    return Raise(player=seat, bid=bid)


def test_a07_works_in_the_classic_game_too():
    st = a07_hire("classic")
    st, _ = play(st, OpenAuction(player=BECKY, market=1, bid=8), PassBid(player=KAT), PassBid(player=LAURA))
    assert not st.players[BECKY].pillar and st.hire.active == KAT
