"""Illegal actions of every kind raise RuleError whose message starts with the rule id, and
leave the state exactly as it was (compared with encode_state)."""

from __future__ import annotations

from functools import cache

import pytest
from builders import assert_illegal, give_spectacle, play, set_player, set_tiles, skip_to, start, with_dice
from test_rules_closing import closing_start, end, last_round

from colosseum.core.games.colosseum import RuleError, Transfer, apply, to_act
from colosseum.core.games.colosseum.actions import (
    AcceptDeal,
    AquilaMove,
    BuildGate,
    BuildTemple,
    CancelDeal,
    ChooseDice,
    ChooseFirstPlayer,
    CloseDeal,
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
    RejectDeal,
    Retire,
    Roll,
    Steal,
)

B, K, L = 0, 1, 2


@cache
def position(name: str):
    """Named positions; Becky (seat 0) is to act in each, unless the name says otherwise."""
    if name == "setup":
        from colosseum.core.games.colosseum import GameSetup, new_game

        return new_game(GameSetup(players=("Becky", "Kat", "Laura"), seed=1, first_player=1))  # Becky picks first
    if name == "invest":
        st = start(3, seed=1, first=B)
        st = set_player(st, B, gates=(21, 22), coins=30, aquilas=1)
        st = set_player(st, K, gates=(8, 9))
        return set_player(st, L, gates=(32, 33))
    if name == "hire":
        st = skip_to(start(3, seed=1, first=B), "hire")
        return set_player(set_player(st, B, coins=10, aquilas=1), K, coins=20)
    if name == "auction":
        st, _ = play(position("hire"), OpenAuction(player=B, market=0, bid=8))
        return st  # Kat to bid
    if name == "trade":
        st = skip_to(start(3, seed=1, first=B), "trade")
        st = set_tiles(st, B, {"G": 2, "Co": 1})
        return set_tiles(st, K, {"H": 2})
    if name == "deal":
        st, _ = play(position("trade"), ProposeDeal(player=B, transfers=(Transfer(K, B, "H", 1),)))
        return st  # Kat to answer
    if name == "roll":
        st = skip_to(start(3, seed=1, first=B), "perform")
        st = give_spectacle(st, B, "neptunes-fury")
        st = set_tiles(st, B, {"G": 3, "S": 3})
        return set_player(st, B, gates=(20, 21, 22, 23), aquilas=1)
    if name == "mode":
        st, _ = play(with_dice(position("roll"), 2, 4), Roll(player=B))
        return st
    if name == "move":
        st, _ = play(position("mode"), ChooseDice(player=B, mode="split"))
        st, _ = play(st, MoveNoble(player=B, noble=0, die=0, steps=2))
        return st  # die 0 used
    if name == "after":
        st, _ = play(position("move"), MoveNoble(player=B, noble=1, die=1, steps=4))
        return st
    if name == "retire":
        return closing_start()
    if name == "steal":
        st, _ = play(closing_start(acclaims=(0, 5, 1)), Retire(player=B, tile="Co"))
        return st  # Laura to steal
    if name == "first":
        st, _ = play(position("steal"), EndTurn(player=L))
        return st  # Laura to choose
    if name == "over":
        st, _ = end(last_round(acclaims=(1, 2, 3), aquilas=(0, 0, 0)))
        return st
    raise KeyError(name)


NF = "neptunes-fury"

CASES = [
    # G-0: whose turn, which seat
    ("invest", HirePromoter(player=K), "G-0"),
    ("invest", HirePromoter(player=5), "G-0"),
    ("invest", HirePromoter(player=-1), "G-0"),
    ("auction", Raise(player=B, bid=12), "G-0"),
    ("auction", PassBid(player=L), "G-0"),
    ("deal", AcceptDeal(player=L), "G-0"),
    ("roll", Roll(player=K), "G-0"),
    ("setup", PlaceStartGates(player=K, space=8), "G-0"),
    ("steal", Steal(player=B, tile="G"), "G-0"),
    # G-1.6 setup
    ("setup", PlaceStartGates(player=B, space=9), "G-1.6"),
    ("setup", EndTurn(player=B), "G-1.6"),
    ("invest", PlaceStartGates(player=B, space=8), "G-1.6"),
    # G-2 investments
    ("invest", BuildGate(player=B, space=25), "G-2"),  # not adjacent
    ("invest", BuildGate(player=B, space=9), "G-2"),  # taken
    ("invest", BuildGate(player=B, space=-1), "G-2"),
    ("invest", PlanSpectacle(player=B, spectacle=NF), "G-2"),  # 35 coins
    ("invest", PlanSpectacle(player=B, spectacle="amphitryon"), "G-2"),  # not on the display
    ("hire", BuildGate(player=B, space=23), "G-2"),  # wrong phase
    ("hire", HirePromoter(player=B), "G-2"),
    ("hire", BuildTemple(player=B), "G-2"),
    ("hire", PlanSpectacle(player=B, spectacle=NF), "G-2"),
    ("invest", BuildTemple(player=B, extra="aquilas"), "C-3"),  # classic only
    # G-8 Aquilas
    ("invest", ExchangeAquilas(player=B, count=2), "G-8"),
    ("hire", ExchangeAquilas(player=B, count=1), "G-8"),
    ("after", AquilaMove(player=B, noble=0, steps=1), None),  # legal: sanity below
    # G-3 auctions
    ("invest", OpenAuction(player=B, market=0, bid=8), "G-3"),
    ("hire", OpenAuction(player=B, market=0, bid=7), "G-3.2"),
    ("hire", OpenAuction(player=B, market=0, bid=17), "G-3.4"),  # 10 coins + 1 Aquila
    ("hire", OpenAuction(player=B, market=5, bid=8), "G-3.1"),
    ("hire", Raise(player=B, bid=9), "G-3.3"),
    ("hire", PassBid(player=B), "G-3.3"),
    ("auction", Raise(player=K, bid=8), "G-3.3"),
    ("auction", Raise(player=K, bid=21), "G-3.4"),
    ("auction", OpenAuction(player=K, market=1, bid=9), "G-3"),
    ("auction", EndTurn(player=K), "G-3.3"),
    # G-4 trades
    ("invest", ProposeDeal(player=B, transfers=(Transfer(K, B, "H", 1),)), "G-4"),
    ("trade", ProposeDeal(player=K, transfers=(Transfer(K, L, "H", 1),)), "G-4"),  # active not a party
    ("trade", ProposeDeal(player=B, transfers=(Transfer(B, K, "amphitryon", 1),)), "G-4"),  # a spectacle
    ("trade", ProposeDeal(player=B, transfers=(Transfer(B, K, "star", 1),)), "G-4"),
    ("trade", ProposeDeal(player=B, transfers=(Transfer(B, K, "promoters", 1),)), "G-4"),
    ("trade", ProposeDeal(player=B, transfers=(Transfer(B, K, "G", 3),)), "G-4"),  # owns 2
    ("trade", ProposeDeal(player=L, transfers=(Transfer(K, B, "H", 1),)), "G-4"),  # D-6
    ("trade", AcceptDeal(player=B), "G-4"),
    ("trade", RejectDeal(player=B), "G-4"),
    ("trade", CloseDeal(player=B), "G-4"),
    ("trade", CancelDeal(player=B), "G-4"),
    ("deal", CancelDeal(player=L), "G-4"),
    ("deal", ProposeDeal(player=L, transfers=(Transfer(L, B, "G", 1),)), "G-4"),
    # G-5 performing
    ("trade", Roll(player=B), "G-5.1"),
    ("mode", Roll(player=B), "G-5.1"),
    ("roll", ChooseDice(player=B, mode="sum"), "G-5.1"),
    ("roll", MoveNoble(player=B, noble=0, die=0, steps=1), "G-5.1"),
    ("move", MoveNoble(player=B, noble=2, die=0, steps=2), "G-5.1"),  # die already used
    ("move", MoveNoble(player=B, noble=0, die=1, steps=4), "G-5.1"),  # noble already moved
    ("move", MoveNoble(player=B, noble=2, die=1, steps=3), "G-5.1"),  # wrong count
    ("move", MoveNoble(player=B, noble=6, die=1, steps=4), "G-5.1"),
    ("move", MoveNoble(player=B, noble=2, die=-1, steps=6), "G-5.1"),  # split chosen
    ("move", MoveNoble(player=B, noble=2, die=2, steps=4), "G-5.1"),
    ("move", AquilaMove(player=B, noble=2, steps=1), "G-5.1"),  # dice first
    ("move", EndTurn(player=B), "G-5"),
    ("after", AquilaMove(player=B, noble=2, steps=4), "G-5.1"),
    ("after", AquilaMove(player=B, noble=9, steps=1), "G-5.1"),
    ("roll", Perform(player=B, spectacle=NF), "G-5.2"),
    ("after", Perform(player=B, spectacle=NF), "G-5.2"),  # 6 of 13: too few performers
    ("after", Perform(player=B, spectacle="venatio"), "G-5.2"),  # not hers
    ("after", Perform(player=B, spectacle="no-such"), "G-5.2"),
    ("after", Roll(player=B), "G-5.1"),
    # G-6 closing
    ("after", Retire(player=B, tile="G"), "G-6.1"),
    ("retire", Retire(player=B, tile="G"), "G-6.1"),  # not used in the spectacle
    ("retire", Retire(player=B, tile="Xx"), "G-6.1"),
    ("retire", EndTurn(player=B), "G-6"),
    ("retire", Steal(player=B, tile="Co"), "G-6.2"),
    ("retire", ChooseFirstPlayer(player=B, first=0), "G-6.3"),
    ("steal", Steal(player=L, tile="H"), "G-6.2"),
    ("first", ChooseFirstPlayer(player=L, first=3), "G-6.3"),
    ("first", EndTurn(player=L), "G-6"),
    ("first", Steal(player=L, tile="Co"), "G-6.2"),
    # C-5 in the grand game
    ("trade", ConstructionForAquila(player=K), "C-5"),
    # G-9 over
    ("over", EndTurn(player=0), "G-9"),
    ("over", Roll(player=1), "G-9"),
]


@pytest.mark.parametrize(
    "where,action,rule",
    [c for c in CASES if c[2]],
    ids=lambda x: getattr(x, "__class__", type(x)).__name__ if not isinstance(x, str) else x,
)
def test_illegal_action_names_its_rule_and_changes_nothing(where, action, rule):
    st = position(where)
    assert_illegal(st, action, rule)


def test_positions_are_what_the_cases_assume():
    assert to_act(position("setup")) == B
    assert to_act(position("auction")) == K
    assert to_act(position("deal")) == K
    assert position("move").perform.dice == (2, 4)
    assert to_act(position("steal")) == L and to_act(position("first")) == L
    # the one legal sanity case: an Aquila move is fine after the dice
    st, _ = apply(position("after"), AquilaMove(player=B, noble=0, steps=1))
    assert st.players[B].aquilas == 0


def test_a_rule_error_carries_its_rule_and_detail():
    with pytest.raises(RuleError) as info:
        apply(position("hire"), OpenAuction(player=B, market=0, bid=7))
    e = info.value
    assert e.rule == "G-3.2" and str(e) == f"G-3.2: {e.detail}"
    assert str(e) == "G-3.2: opening bid must be at least 8", "as documented in README.md"


MALFORMED = [
    ("hire", OpenAuction(player=B, market=0, bid=8.5), "G-3.2"),
    ("hire", OpenAuction(player=B, market="A", bid=8), "G-3.1"),
    ("auction", Raise(player=K, bid="12"), "G-3.3"),
    ("invest", BuildGate(player=B, space="23"), "G-2"),
    ("mode", ChooseDice(player=B, mode="both"), "G-5.1"),
    ("move", MoveNoble(player=B, noble="consul", die=1, steps=4), "G-5.1"),
    ("after", AquilaMove(player=B, noble=1, steps=1.5), "G-5.1"),
    ("after", Perform(player=B, spectacle=NF, aquilas=-1), "G-5"),
    ("retire", Retire(player=B, tile=["Co"]), "G-"),
    ("trade", ProposeDeal(player=B, transfers=(Transfer(B, "Kat", "G", 1),)), "G-"),
    ("trade", ProposeDeal(player=B, transfers=("G",)), "G-4"),
    ("invest", HirePromoter(player="Becky"), "G-0"),
]


@pytest.mark.parametrize(
    "where,action,rule", MALFORMED, ids=lambda x: type(x).__name__ if not isinstance(x, str) else x
)
def test_malformed_actions_built_in_code_are_rule_errors_too(where, action, rule):
    """Actions decoded from JSON are type-checked by msgspec; ones built in code with a wrong
    field type are refused with a RuleError all the same, and change nothing."""
    assert_illegal(position(where), action, rule)
