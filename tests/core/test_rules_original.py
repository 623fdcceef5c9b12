"""O-1..O-30: the original 2007 edition as the ruleset ``original``.  One test (or more) per
rule of RULES-2007 that differs from The Grand Spectacle, named by its O-id; each shows the
difference from the G rule it replaces."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import (
    assert_illegal,
    assert_ok,
    code_index,
    give_spectacle,
    play,
    set_market,
    set_player,
    set_tiles,
    skip_to,
    spec_id,
    texts,
    with_dice,
)
from msgspec.structs import replace

from colosseum.core.games.colosseum import GameSetup, Transfer, apply, breakdown, legal, new_game, to_act
from colosseum.core.games.colosseum.actions import (
    AquilaMove,
    BuildGate,
    BuildLoge,
    BuildTemple,
    BuySeasonTicket,
    ChooseDice,
    ChooseFirstPlayer,
    ConstructionForAquila,
    EndTurn,
    ExchangeAquilas,
    HirePromoter,
    MoveNoble,
    OpenAuction,
    PassBid,
    Perform,
    PlaceStartGates,
    PlanSpectacle,
    ProposeDeal,
    Raise,
    Retire,
    Roll,
    Steal,
)
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import NOBODY, start_game
from colosseum.core.games.colosseum.invariants import check
from colosseum.core.games.colosseum.queries import bid_limit, noble_step_range, numbering_floor, spectacle_by_key

ORIG = load_catalog("original")
GRAND = load_catalog("grand")
BECKY, KAT, LAURA, MIA, NORA = 0, 1, 2, 3, 4
NAMES = ("Becky", "Kat", "Laura", "Mia", "Nora")


def game(n: int = 3, seed: int = 1):
    """A new original game: already in round 1, Phase 1 (O-7: nothing to choose at setup)."""
    return new_game(GameSetup(players=NAMES[:n], seed=seed, variant="original"))


def program(key: str) -> int:
    return spectacle_by_key(ORIG, key).id


# ---------------------------------------------------------------------------- O-1


def test_o1_five_rounds_the_last_without_phase_5():
    """O-1: 5 rounds, a round counter (not the podiums) ends the game after Phase 4 of
    round 5; 4 podiums are handed out in rounds 1-4 (G-5.4 ends The Grand Spectacle with the
    gifts after 4 rounds)."""
    st = game(3, seed=2)
    phases = Counter()
    while st.phase != "over":
        phases[(st.round, st.phase)] += 1
        st, _ = apply(st, EndTurn(player=to_act(st)) if _can_end(st) else legal(st).actions[0])
    assert st.round == 5 == ORIG.rounds and GRAND.rounds == 4
    assert {r for r, _ in phases} == {1, 2, 3, 4, 5}
    assert (5, "closing") not in phases and all((r, "closing") in phases for r in range(1, 5))
    assert st.gifts_left == 0 and sum(p.gifts for p in st.players) == 4
    assert_ok(st)


def _can_end(st) -> bool:
    return any(isinstance(a, EndTurn) for a in legal(st).actions)


# ---------------------------------------------------------------------------- O-2, O-3, O-4, O-6


def test_o2_o3_o4_components():
    """O-3: the classic tile mix (140 normal + 4 jokers, 4 medal tiles, 4 construction tiles);
    40 green starting tiles; O-4: 7 Star cards; O-2: 10 season tickets, 4 podiums, 18 medals."""
    counts = dict(zip(ORIG.codes, ORIG.counts, strict=True))
    assert sum(counts[c] for c in ORIG.codes if c not in ("Bal", "Aq", "Con")) == 140
    assert (counts["Bal"], counts["Aq"], counts["Con"]) == (4, 4, 4)
    assert sum(ORIG.starting) == 40
    assert {ORIG.codes[k] for k in ORIG.star_types} == {"G", "S", "M", "Co", "P", "H", "L"}
    assert ORIG.promoter_supply == 10 and ORIG.rules.gifts == 4 and ORIG.rules.aquila_supply == 18


def test_o6_setup_money_markers_nobles():
    """O-6: 30 coins, every marker at 0, nobles on their rest spaces."""
    st = game(4)
    assert all(p.coins == 30 and p.acclaim == 0 and p.aquilas == 0 for p in st.players)
    assert st.nobles == ORIG.noble_starts


# ---------------------------------------------------------------------------- O-7, O-8


@pytest.mark.parametrize("n", [3, 4, 5])
def test_o7_o8_fixed_arenas_and_seat_0_first_no_setup_choice(n):
    """O-7: seat i takes the i-th gate pair clockwise from space 0, nobody chooses (G-1.6 lets
    players choose); O-8: the first player is the owner of the first arena after the emperor,
    seat 0 (G-1.4 draws the first player at random)."""
    st, events = start_game(GameSetup(players=NAMES[:n], seed=3, variant="original"))
    assert st.phase == "invest" and st.round == 1 and st.first == 0 and to_act(st) == 0
    assert [p.gates for p in st.players] == [tuple(pair) for pair in ORIG.gate_pairs[n]]
    assert not any(isinstance(a, PlaceStartGates) for a in legal(st).actions)
    assert "Becky's arena stands on" in texts(events)
    assert new_game(GameSetup(players=NAMES[:n], seed=3, variant="original")) == st
    assert_ok(st)


def test_o8_a_given_first_player_owns_the_first_arena():
    st = new_game(GameSetup(players=NAMES[:3], seed=3, variant="original", first_player=KAT))
    assert st.first == KAT and st.players[KAT].gates == tuple(ORIG.gate_pairs[3][0])


# ---------------------------------------------------------------------------- O-9


@pytest.mark.parametrize("n,dealt,aside", [(3, 8, 1), (4, 6, 1), (5, 5, 0)])
def test_o9_green_tiles_dealt_8_6_5_fifteen_in_the_markets_one_aside(n, dealt, aside):
    """O-9: 15 green (starting) tiles fill the markets, each player is dealt 8 / 6 / 5 of the
    other 25, and with 3 or 4 players the one left lies face down by the board; the bag holds
    exactly the orange tiles.  (G-1.8/G-1.9 deal 8 / 7 / 6 and fill the markets from the mixed
    bag.)"""
    for seed in range(4):
        st = game(n, seed)
        assert all(sum(p.tiles) == dealt for p in st.players)
        assert all(len(m) == 3 for m in st.markets)
        assert len(st.aside) == aside
        green = [0] * len(ORIG.tiles)
        for k in [*(k for m in st.markets for k in m), *st.aside]:
            green[k] += 1
        for p in st.players:
            for k, c in enumerate(p.tiles):
                green[k] += c
        assert green == list(ORIG.starting), "every green tile dealt, in a market or aside"
        assert list(st.bag) == [c - s for c, s in zip(ORIG.counts, ORIG.starting, strict=True)]
        assert_ok(st)


def test_o9_o18_the_tile_left_aside_is_the_first_used_in_the_next_refill():
    """O-18: an emptied market is refilled when the auctioneer's turn ends, first with the green
    tile left aside (O-9), then from the bag, in board order."""
    st = skip_to(game(3, seed=5), "hire")
    assert len(st.aside) == 1
    left = st.aside[0]
    st = set_market(st, 0, ["G", "G", "H"])
    st, ev = play(st, OpenAuction(player=BECKY, market=0, bid=8), PassBid(player=KAT), PassBid(player=LAURA))
    assert st.aside == ()
    assert st.markets[0][0] == left and len(st.markets[0]) == 3
    assert "The green tile left aside" in texts(ev)
    assert_ok(st)


# ---------------------------------------------------------------------------- O-10


def test_o10_one_program_from_1_to_5_and_one_from_6_to_10_face_up():
    """O-10: each player is dealt one of #1-5 and one of #6-10 (G-1.7 deals by pile icons, C-2
    any two); the rest of #1-10 leave the game; the display is #11-30, all buyable."""
    for n in (3, 4, 5):
        for seed in range(5):
            st = game(n, seed)
            for p in st.players:
                nums = sorted(ORIG.spectacles[i].number_2007 for i in p.face_down)
                assert len(nums) == 2 and 1 <= nums[0] <= 5 and 6 <= nums[1] <= 10
            dealt = [i for p in st.players for i in p.face_down]
            assert len(set(dealt)) == 2 * n
            assert sorted(ORIG.spectacles[i].number_2007 for i in st.display) == list(range(11, 31))
    st, events = start_game(GameSetup(players=NAMES[:3], seed=1, variant="original"))
    assert "is dealt #" in texts(events)


# ---------------------------------------------------------------------------- O-11


def test_o11_one_investment_then_at_most_one_extra_for_2_medals():
    """O-11: one investment per turn; 2 medals (or a construction tile) buy one extra, which may
    be of the same kind; no second extra (C-3 / D-13 allow any number); the turn then ends by
    itself (as D-3)."""
    st = set_player(game(3), BECKY, coins=60, aquilas=4)
    st, _ = play(st, BuySeasonTicket(player=BECKY))
    assert to_act(st) == BECKY
    assert_illegal(st, BuySeasonTicket(player=BECKY), "O-11")  # needs payment for an extra
    st, ev = play(st, BuySeasonTicket(player=BECKY, extra="aquilas"))
    b = st.players[BECKY]
    assert (b.promoters, b.aquilas, b.coins) == (2, 2, 40)
    assert to_act(st) == KAT, "after the one extra investment the turn ends"


def test_o11_construction_tile_pays_for_the_extra_and_no_medal_exchange():
    st = set_tiles(set_player(game(3), BECKY, coins=60, aquilas=3), BECKY, {"Con": 1}, keep_others=True)
    assert not any(isinstance(a, ExchangeAquilas) for a in legal(st).actions)
    assert_illegal(st, ExchangeAquilas(player=BECKY, count=1), "O-11")
    st, _ = play(st, BuildLoge(player=BECKY))
    offered = legal(st).actions
    assert BuySeasonTicket(player=BECKY, extra="construction") in offered
    assert BuySeasonTicket(player=BECKY, extra="aquilas") in offered
    st, _ = play(st, BuySeasonTicket(player=BECKY, extra="construction"))
    assert st.players[BECKY].tiles[code_index(st, "Con")] == 0 and to_act(st) == KAT


# ---------------------------------------------------------------------------- O-12


def test_o12_numbering_rule_refuses_a_lower_number_after_a_performance():
    """O-12: a program bought must be numbered above every program the player has performed;
    programs owned but not performed do not restrict (G-2 has no such rule)."""
    st = set_player(game(3), BECKY, coins=80)
    st = give_spectacle(st, BECKY, "satyricon-of-momus", face_up=True)  # #14, performed
    st = give_spectacle(st, BECKY, "circus-maximus")  # #20, owned only
    p = st.players[BECKY]
    assert numbering_floor(ORIG, p) == 14
    offered = {a.spectacle for a in legal(st).actions if isinstance(a, PlanSpectacle)}
    assert "retiarius-vs-secutor" not in offered and "lyres-of-mercury" in offered  # #13 / #15
    err = assert_illegal(st, PlanSpectacle(player=BECKY, spectacle="retiarius-vs-secutor"), "O-12")
    assert "#13 Retiarius vs. Secutor" in str(err) and "#14" in str(err)
    st, ev = play(st, PlanSpectacle(player=BECKY, spectacle="lyres-of-mercury"))
    assert "buys program #15 Lyres of Mercury" in texts(ev)
    assert_ok(st)


def test_o12_a_performed_small_program_counts_and_the_grand_game_has_no_rule():
    st = give_spectacle(game(3), BECKY, "cavalry-of-spartacus", face_up=True)  # #10
    assert numbering_floor(ORIG, st.players[BECKY]) == 10
    g = give_spectacle(skip_setup(GRAND), BECKY, "circus-maximus", face_up=True)
    assert numbering_floor(GRAND, g.players[BECKY]) == 0


def test_o12_purchased_reading_is_one_switch_in_the_data():
    rules = replace(ORIG.rules, numbering="purchased")
    cat = replace(ORIG, rules=rules)
    st = give_spectacle(game(3), BECKY, "circus-maximus")  # owned, not performed: #20
    assert numbering_floor(cat, st.players[BECKY]) == 20
    assert numbering_floor(ORIG, st.players[BECKY]) == 0


def skip_setup(cat):
    st = new_game(GameSetup(players=NAMES[:3], seed=1, variant=cat.variant, first_player=0))
    while st.phase == "setup":
        st, _ = apply(st, legal(st).actions[0])
    return st


# ---------------------------------------------------------------------------- O-13, O-14, O-15


def test_o13_arena_extension_10_coins_at_most_two():
    st = set_player(game(3), BECKY, coins=60, aquilas=2)
    a, b = st.players[BECKY].gates
    st, _ = play(st, BuildGate(player=BECKY, space=b + 1), BuildGate(player=BECKY, space=a - 1, extra="aquilas"))
    assert len(st.players[BECKY].gates) == 4 and st.players[BECKY].coins == 40


def test_o14_season_ticket_10_coins_plus_5_supply_10_no_promoters():
    """O-14: a season ticket costs 10 and adds 5 to every later performance; 10 in all; no
    promoters (7 coins) in this ruleset, and no season tickets in The Grand Spectacle."""
    st = set_player(game(3), BECKY, coins=30)
    assert_illegal(st, HirePromoter(player=BECKY), "O-14")
    assert_illegal(st, BuildTemple(player=BECKY), "O-14")
    st, ev = play(st, BuySeasonTicket(player=BECKY))
    assert st.players[BECKY].coins == 20 and st.promoters_left == 9
    assert "buys a season ticket" in texts(ev)
    st = set_player(st, BECKY, promoters=3)
    st = replace(st, promoters_left=7)
    spec = spectacle_by_key(ORIG, "tribute-to-munus")
    lines = dict(breakdown(st, BECKY, spec).lines)
    assert lines["Season tickets x3"] == 15 and lines["Podiums x0"] == 0
    st = replace(set_player(st, KAT, promoters=7), promoters_left=0)
    assert not any(isinstance(a, BuySeasonTicket) for a in legal(skip_to(st, "invest")).actions)
    g = skip_setup(GRAND)
    assert_illegal(g, BuySeasonTicket(player=to_act(g)), "G-2")
    assert_illegal(g, BuildLoge(player=to_act(g)), "G-2")


def test_o15_o20_loge_5_coins_two_dice_no_ranges_occupied_spaces_counted():
    """O-15: the loge costs 5, once; O-20: its owner rolls 2 dice, moves two nobles or one by the
    sum, no ranges (the Temple of Fortuna lets a die move 1 up to its face), occupied spaces
    counted (G-5.1 skips them)."""
    st = set_player(game(3), BECKY, coins=30)
    st, _ = play(st, BuildLoge(player=BECKY))
    assert st.players[BECKY].temple and st.players[BECKY].coins == 25
    st = skip_to(st, "perform")
    assert to_act(st) == BECKY
    st = with_dice(st, 3, 5)
    st, ev = play(st, Roll(player=BECKY))
    assert st.perform.dice == (3, 5) and "rolls 3 and 5" in texts(ev)
    st, _ = play(st, ChooseDice(player=BECKY, mode="split"))
    assert noble_step_range(st, 0) == (3, 3) and noble_step_range(st, 1) == (5, 5)
    # the emperor (0) moves 3 to space 3; a consul from 26 moves 5 to 31, through the senator
    # on 30, which is counted (G-5.1 would jump it and land on 32)
    st, _ = play(st, MoveNoble(player=BECKY, noble=0, die=0, steps=3), MoveNoble(player=BECKY, noble=2, die=1, steps=5))
    assert st.nobles[0] == 3 and st.nobles[2] == 31
    assert_ok(st)


def test_o20_one_die_without_the_loge():
    st = skip_to(game(3), "perform")
    st, _ = play(st, Roll(player=BECKY))
    assert len(st.perform.dice) == 1 and st.perform.stage == "move"


# ---------------------------------------------------------------------------- O-17, O-18


def test_o17_one_auction_win_per_phase_in_anyones_auction():
    """O-17: a player who has won a lot may not bid again this phase, in anyone's auction, and
    skips their own turn as auctioneer (G-3 returns pillars after each turn)."""
    st = skip_to(game(3, seed=4), "hire")
    st = set_market(st, 0, ["G", "G", "H"])
    # Becky opens, Kat wins Becky's lot
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=8), Raise(player=KAT, bid=9))
    st, ev = play(st, PassBid(player=LAURA), PassBid(player=BECKY))
    assert st.players[KAT].coins == 21 and not st.players[KAT].pillar
    assert "Kat wins market A" in texts(ev)
    # Becky may open another auction; Kat is out of it
    assert to_act(st) == BECKY
    st, _ = play(st, OpenAuction(player=BECKY, market=1, bid=8))
    assert st.hire.auction.out[KAT] and to_act(st) == LAURA
    st, ev = play(st, PassBid(player=LAURA))
    assert "Becky wins market B" in texts(ev)
    # Kat's own turn as auctioneer is skipped; Laura conducts hers
    assert to_act(st) == LAURA and st.hire.active == LAURA
    assert "Kat has won a lot this phase and passes" in texts(ev)
    assert_ok(st)


def test_o18_no_credit_bids_are_limited_to_coins():
    """O-18: medals are not credit (G-3.4 lets a player bid coins + 6 per Aquila)."""
    st = skip_to(game(3, seed=4), "hire")
    st = set_player(st, BECKY, coins=10, aquilas=3)
    assert bid_limit(ORIG, st.players[BECKY]) == 10
    assert all(b.high == 10 for b in legal(st).bids)
    assert_illegal(st, OpenAuction(player=BECKY, market=0, bid=11), "O-18")
    st, _ = play(st, OpenAuction(player=BECKY, market=0, bid=10))
    assert to_act(st) == KAT


def test_o18_an_auctioneer_below_8_coins_passes_at_once():
    st = set_player(game(3, seed=4), BECKY, coins=7, aquilas=5)
    st, ev = play(st, *(EndTurn(player=s) for s in range(3)))
    assert st.phase == "hire" and to_act(st) == KAT
    assert "Becky cannot open an auction and passes" in texts(ev)


# ---------------------------------------------------------------------------- O-19


def test_o19_medals_cannot_be_traded_tiles_and_coins_can():
    st = skip_to(set_player(game(3), BECKY, aquilas=2), "trade")
    assert to_act(st) == BECKY
    err = assert_illegal(st, ProposeDeal(player=BECKY, transfers=(Transfer(BECKY, KAT, "aquilas", 1),)), "O-19")
    assert "asset tiles and coins" in str(err)
    kinds = [k for k in ORIG.performers if st.players[KAT].tiles[k]]
    code = ORIG.codes[kinds[0]]
    st, _ = play(
        st,
        ProposeDeal(player=BECKY, transfers=(Transfer(BECKY, KAT, "coins", 3), Transfer(KAT, BECKY, code, 1))),
    )
    assert st.trade.deal is not None


# ---------------------------------------------------------------------------- O-2, O-21, O-28


def test_o21_medal_for_ending_on_an_image_space_and_o2_supply_of_18():
    """O-21: a noble ending a dice move on an image space gives 1 medal; O-2: none when all 18
    are held (the Grand Spectacle's Aquilas are unlimited)."""
    st = skip_to(game(3), "perform")
    st = with_dice(st, 6)
    st, ev = play(st, Roll(player=BECKY), MoveNoble(player=BECKY, noble=0, die=0, steps=6))
    assert st.nobles[0] == 6 and st.players[BECKY].aquilas == 1 and "takes a medal" in texts(ev)
    st = skip_to(game(3), "perform")
    st = set_player(set_player(st, KAT, aquilas=10), LAURA, aquilas=8)
    st = with_dice(st, 6)
    st, ev = play(st, Roll(player=BECKY), MoveNoble(player=BECKY, noble=0, die=0, steps=6))
    assert st.players[BECKY].aquilas == 0 and "no medal is left" in texts(ev)
    assert_ok(st)


def test_o28_medal_moves_a_noble_1_to_3_either_way_and_adds_3_when_performing():
    st = skip_to(game(3), "perform")
    st = set_player(st, BECKY, aquilas=3)
    st = with_dice(st, 1)
    st, _ = play(st, Roll(player=BECKY), MoveNoble(player=BECKY, noble=0, die=0, steps=1))
    st, ev = play(st, AquilaMove(player=BECKY, noble=0, steps=-2))
    assert st.nobles[0] == 35 and st.players[BECKY].aquilas == 2
    assert "spends a medal" in texts(ev)
    sid = st.players[BECKY].face_down[0]
    spec = ORIG.spectacles[sid]
    lines = dict(breakdown(st, BECKY, spec, 2).lines)
    assert lines["Medals spent x2"] == 6


def test_o2_construction_tile_gives_no_medal_when_the_supply_is_empty():
    st = set_tiles(game(3), BECKY, {"Con": 1}, keep_others=True)
    st = set_player(set_player(st, KAT, aquilas=9), LAURA, aquilas=9)
    assert not any(isinstance(a, ConstructionForAquila) for a in legal(st).actions)
    assert_illegal(st, ConstructionForAquila(player=BECKY), "O-2")


# ---------------------------------------------------------------------------- O-23


def test_o23_spectators_strip_performed_stars_nobles_tickets_podiums_medals():
    st = skip_to(game(3, seed=2), "perform")
    st = set_tiles(st, BECKY, {"G": 3, "H": 3})
    st = give_spectacle(st, BECKY, "cavalry-of-spartacus")
    st = give_spectacle(st, BECKY, "tribute-to-munus", face_up=True)
    st = set_player(st, BECKY, promoters=2, gifts=1)
    spec = spectacle_by_key(ORIG, "cavalry-of-spartacus")
    b = breakdown(st, BECKY, spec, 1)
    values = [v for _, v in b.lines]
    stars = 4 * sum(1 for k, h in enumerate(st.stars) if h == BECKY and spec.need[k])
    assert values[0] == 12 and values[1] == 5 and values[2] == stars
    assert values[4:] == [10, 3, 3]


# ---------------------------------------------------------------------------- O-24, O-25, O-26, O-27


def end_of_perform(acclaims, coins, seed=6):
    """Round 1, Phase 4 with nobody performing; markers and coins set."""
    st = skip_to(game(3, seed=seed), "perform")
    for seat in range(3):
        st = set_player(st, seat, acclaim=acclaims[seat], coins=coins[seat])
    return st


def nobody_performs(st):
    return play(st, *(EndTurn(player=s) for s in range(3)))


def test_o24_podium_to_the_highest_marker_tie_by_coins():
    """O-24: the highest marker takes a podium in Phase 5; tie: most coins (G-5.4: the bottom
    marker of the stack, at the end of Phase 4)."""
    st = end_of_perform(acclaims=(20, 20, 5), coins=(9, 12, 50))
    st, ev = nobody_performs(st)
    assert st.phase == "closing" and st.players[KAT].gifts == 1 and st.gifts_left == 3
    assert "Kat has the most spectators and takes a podium (1 in all)" in texts(ev)
    assert_ok(st)


def test_o24_podium_tie_on_marker_and_coins_goes_to_the_higher_dice_rerolling_ties():
    """O-24: still tied on coins, each tied player rolls 2 dice, the highest sum wins; a tie
    again is rolled again (with the game's seeded dice)."""
    st = end_of_perform(acclaims=(20, 20, 5), coins=(12, 12, 50))
    st = with_dice(st, 3, 4, 6, 6)
    st, ev = nobody_performs(st)
    assert st.players[KAT].gifts == 1 and st.players[BECKY].gifts == 0
    assert "Becky rolls 3 and 4 for the podium tie" in texts(ev)
    assert "Kat rolls 6 and 6 for the podium tie" in texts(ev)
    # a PRNG state where the first two rolls tie: both roll again
    st = end_of_perform(acclaims=(20, 20, 5), coins=(12, 12, 50))
    st = replace(st, rng=_tie_then_kat(st.rng))
    st, ev = nobody_performs(st)
    rolls = [e.text for e in ev if "for the podium tie" in e.text]
    assert len(rolls) == 4 and st.players[KAT].gifts == 1


def _tie_then_kat(start: int) -> int:
    from colosseum.core import rng

    for r in range(start, start + 100_000):
        s, faces = r & rng.MASK, []
        for _ in range(8):
            s, v = rng.below(s, 6)
            faces.append(v + 1)
        b1, k1, b2, k2 = (faces[i] + faces[i + 1] for i in range(0, 8, 2))
        if b1 == k1 and k2 > b2:
            return r & rng.MASK
    raise AssertionError("no such PRNG state")


def test_o26_the_lowest_takes_a_normal_tile_from_the_podium_winner():
    """O-26: the lowest marker of the others may take 1 normal tile (never a joker) from this
    round's podium winner (G-6.2: any tile, from the most acclaimed by stack order)."""
    st = end_of_perform(acclaims=(20, 3, 9), coins=(10, 10, 10))
    st = set_tiles(st, BECKY, {"G": 1, "Bal": 2, "Con": 1})
    st, _ = nobody_performs(st)
    cl = st.closing
    assert (cl.stage, cl.player, cl.victim) == ("steal", KAT, BECKY)
    offered = [a.tile for a in legal(st).actions if isinstance(a, Steal)]
    assert offered == ["G"]
    assert_illegal(st, Steal(player=KAT, tile="Bal"), "G-6.2")
    st, ev = play(st, Steal(player=KAT, tile="G"))
    assert "Kat takes a Gladiator from Becky" in texts(ev)
    assert st.phase == "invest" and st.round == 2
    assert_ok(st)


def test_o26_tie_for_lowest_fewest_coins_then_lowest_dice_podium_winner_excluded():
    st = end_of_perform(acclaims=(3, 3, 3), coins=(30, 8, 8))
    # podium: Becky (most coins).  Lowest among Kat and Laura: tied on coins -> dice, lowest sum
    st = with_dice(st, 6, 5, 1, 2)
    st, ev = nobody_performs(st)
    assert st.players[BECKY].gifts == 1
    if st.phase == "closing":
        assert st.closing.player == LAURA and st.closing.victim == BECKY
    assert "Laura rolls 1 and 2 for the lowest marker tie" in texts(ev)


def test_o26_nothing_happens_when_the_podium_winner_has_no_normal_tile():
    st = end_of_perform(acclaims=(20, 3, 9), coins=(10, 10, 10))
    st = set_tiles(st, BECKY, {"Bal": 1})
    st, ev = nobody_performs(st)
    assert "Becky has no normal tile for Kat to take" in texts(ev)
    assert st.phase == "invest" and st.round == 2


def test_o25_retire_a_used_tile_then_o27_first_player_passes_left():
    """O-25: a performer discards a tile used; O-27: the first player passes clockwise, nobody
    chooses (G-6.3: the least acclaimed chooses)."""
    st = skip_to(game(3, seed=2), "perform")
    st = set_tiles(st, BECKY, {"G": 3, "H": 3})
    st = give_spectacle(st, BECKY, "cavalry-of-spartacus")
    st = with_dice(st, 1)
    st, _ = play(
        st,
        Roll(player=BECKY),
        MoveNoble(player=BECKY, noble=3, die=0, steps=1),
        Perform(player=BECKY, spectacle="cavalry-of-spartacus"),
        EndTurn(player=KAT),
        EndTurn(player=LAURA),
    )
    assert st.phase == "closing" and st.closing.stage == "retire" and to_act(st) == BECKY
    st, _ = play(st, Retire(player=BECKY, tile="H"))
    while st.phase == "closing":
        assert not any(isinstance(a, ChooseFirstPlayer) for a in legal(st).actions)
        st, _ = play(st, EndTurn(player=to_act(st)))
    assert st.round == 2 and st.first == KAT and to_act(st) == KAT
    assert spec_id(st, "cavalry-of-spartacus") in st.players[BECKY].face_up
    assert_ok(st)


# ---------------------------------------------------------------------------- O-29


def last_round(acclaims, coins, medals=(0, 0, 0)):
    st = skip_to(game(3, seed=8), "perform")
    st = replace(st, round=5, gifts_left=0)
    st = set_player(st, KAT, gifts=4)
    for seat in range(3):
        st = set_player(st, seat, acclaim=acclaims[seat], coins=coins[seat], aquilas=medals[seat])
    return st


def test_o29_end_ties_coins_then_star_cards_then_a_shared_win():
    """O-29: highest marker; ties: most coins, then most Star cards; still tied: a shared win
    (G-9 breaks the last tie by the stack).  Medals are worth nothing (C-6)."""
    st, ev = nobody_performs(last_round((30, 30, 29), (5, 9, 50), medals=(2, 0, 0)))
    assert st.phase == "over" and st.round == 5
    assert st.result.winner == KAT and st.result.shared == () and st.result.standings[0].decided_by == "coins"
    assert st.players[BECKY].aquilas == 0 and st.players[BECKY].acclaim == 30
    assert "medals are worth nothing" in texts(ev)

    st = last_round((30, 30, 29), (9, 9, 50))
    st = set_tiles(st, BECKY, {"G": 3})
    st = set_tiles(st, KAT, {"H": 1})
    st, _ = nobody_performs(st)
    assert st.result.winner == BECKY and st.result.standings[0].decided_by == "stars"

    st = last_round((30, 30, 29), (9, 9, 50))
    st = set_tiles(set_tiles(st, BECKY, {"H": 1}), KAT, {"H": 1})
    st, ev = nobody_performs(st)
    assert st.result.shared == (BECKY, KAT) and st.result.winner == BECKY
    assert [s.rank for s in st.result.standings] == [1, 1, 3]
    assert "Becky and Kat share the win" in texts(ev)
    assert not check(st)


# ---------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("n", [3, 4, 5])
def test_whole_original_games_keep_the_invariants_and_greedy_beats_random(n):
    wins = Counter()
    for seed in range(4):
        st = game(n, seed)
        bots = [make_bot("greedy" if i % 2 == 0 else "random", seed * 10 + i) for i in range(n)]
        while st.phase != "over":
            prev = st
            st, _ = apply(st, bots[to_act(st)].act(st))
            assert not check(st, prev)
        assert st.round == 5 and st.setup.variant == "original"
        wins["greedy" if st.result.winner % 2 == 0 else "random"] += 1
    assert wins["greedy"] >= 3, wins


def test_grand_has_no_aside_and_stays_unchanged():
    g = skip_setup(GRAND)
    assert g.aside == () and g.players[0].coins == 30
    assert g.setup.variant == "grand" and NOBODY == -1


def test_o5_star_cards_as_g7_jokers_never_count_two_challengers_tie_to_the_supply():
    """O-5: the first with 3 or more of a type takes its Star card; jokers never count; if two
    players pass the holder at once with equal counts, the card goes back to the supply."""
    st = game(3)
    g = code_index(st, "G")
    st = set_tiles(set_tiles(st, KAT, {}), LAURA, {})
    st = set_tiles(st, BECKY, {"G": 2, "Bal": 3})
    assert st.stars[g] == NOBODY
    st = set_tiles(st, BECKY, {"G": 3})
    assert st.stars[g] == BECKY
    st = set_tiles(set_tiles(st, KAT, {"G": 4}, recheck=False), LAURA, {"G": 4}, recheck=False)
    from colosseum.core.games.colosseum.queries import next_stars

    assert next_stars(ORIG, st.players, st.stars, (g,))[g] == NOBODY
