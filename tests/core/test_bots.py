"""Bots: the greedy bot's strength and judgement, and that every bot answers every decision.

Rule ids refer to docs/rules.md.
"""

from __future__ import annotations

from collections import Counter

import pytest
from msgspec.structs import replace

from colosseum.core.games.colosseum import apply, legal, to_act
from colosseum.core.games.colosseum.actions import AcceptDeal, MoveNoble, Perform, ProposeDeal, RejectDeal
from colosseum.core.games.colosseum.bots import BOTS, make_bot
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.games.colosseum.engine import new_game
from colosseum.core.games.colosseum.model import Transfer
from colosseum.core.simulate import make_bots, make_setup, play_game, play_series


def situation(state) -> str:
    """The kind of decision the player to act faces."""
    ph = state.phase
    if ph == "hire":
        return "hire/bid" if state.hire.auction else "hire/open"
    if ph == "trade":
        t = state.trade
        if t.deal is None:
            return "trade/propose"
        return "trade/answer" if to_act(state) != t.active else "trade/close"
    if ph == "perform":
        return f"perform/{state.perform.stage}"
    if ph == "closing":
        return f"closing/{state.closing.stage}"
    return ph


ALL_SITUATIONS = {
    "setup",
    "invest",
    "hire/open",
    "hire/bid",
    "trade/propose",
    "trade/answer",
    "trade/close",
    "perform/roll",
    "perform/mode",
    "perform/move",
    "perform/after",
    "closing/retire",
    "closing/steal",
    "closing/first",
}


def advance(state, bots, until):
    while to_act(state) >= 0 and not until(state):
        state, _ = apply(state, bots[to_act(state)].act(state))
    assert to_act(state) >= 0, "the game ended before the position was reached"
    return state


def test_registry():
    assert set(BOTS) >= {"random", "greedy"}
    assert make_bot("greedy", 3).name == "greedy"
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody")


def test_greedy_beats_random_clearly():
    """4 players, 40 games, seats rotated: greedy wins far more than its 25% share."""
    recs = list(play_series(4, 40, 5000, ["greedy", "random", "random", "random"], rotate=True))
    wins = sum(r.winner_bot == "greedy" for r in recs)
    assert wins >= 32, f"greedy won only {wins} of 40"
    # and it wins by performing: its best performance beats every random bot's on average
    margin = [
        r.scores[r.seats.index("greedy")] - max(a for s, a in enumerate(r.scores) if r.seats[s] != "greedy")
        for r in recs
    ]
    assert sum(margin) / len(margin) > 15


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variant,options", [("grand", ()), ("classic", ()), ("grand", ("auction-2007",))])
def test_bots_answer_every_decision(players, variant, options):
    """Whole games with invariants checked after every action (simulate --check semantics):
    every decision any bot faced got a legal answer (play_game raises otherwise)."""
    faced: dict[str, set[str]] = {"greedy": set(), "random": set()}

    def note(state, action, _next):
        seat = to_act(state)
        name = state.players[seat].name.rstrip("0123456789")
        faced[name].add(situation(state))

    configs = [["greedy"] * players, ["greedy"] + ["random"] * (players - 1), ["random"] * (players - 1) + ["greedy"]]
    seed = 100 * players
    for bots in configs:
        for _ in range(2):
            setup = make_setup(players, seed, bots, variant=variant, options=options)
            rec = play_game(setup, make_bots(bots, seed), check=True, on_action=note)
            seed += 1
            assert rec.details["rounds"] == load_catalog(variant).rules.gifts + 1
    # greedy met (nearly) every kind of decision; the rare ones are covered by scenarios below
    rare = {"closing/steal", "trade/close", "perform/mode", "hire/bid"}
    assert ALL_SITUATIONS - rare <= faced["greedy"], ALL_SITUATIONS - faced["greedy"]


def test_greedy_faces_every_decision_over_a_series():
    faced: Counter[str] = Counter()

    def note(state, action, _next):
        if state.players[to_act(state)].name.startswith("greedy"):
            faced[situation(state)] += 1

    for i in range(6):
        bots = ["greedy", "random", "greedy", "random"] if i % 2 else ["greedy"] * 4
        play_game(make_setup(4, 700 + i, bots), make_bots(bots, 700 + i), check=True, on_action=note)
    assert set(faced) == ALL_SITUATIONS, ALL_SITUATIONS - set(faced)


def test_greedy_is_deterministic():
    bots = ["greedy", "greedy", "random"]
    a = play_game(make_setup(3, 42, bots), make_bots(bots, 42))
    b = play_game(make_setup(3, 42, bots), make_bots(bots, 42))
    assert (a.scores, a.details, a.actions, a.winner) == (b.scores, b.details, b.actions, b.winner)


def _perform_state(variant: str, seed: int, temple: bool):
    """A position where a greedy player must move nobles (G-5.1)."""
    names = ["greedy"] * 4
    bots = make_bots(names, seed)
    state = new_game(make_setup(4, seed, names, variant=variant))
    state = advance(state, bots, lambda s: s.phase == "perform" and s.perform.stage == "roll")
    seat = to_act(state)
    return replace(
        state, players=tuple(replace(q, temple=temple) if i == seat else q for i, q in enumerate(state.players))
    ), seat


@pytest.mark.parametrize(
    "variant,temple,seed",
    [("grand", False, 1), ("grand", True, 2), ("grand", False, 3), ("classic", False, 4), ("classic", True, 5)],
)
def test_greedy_noble_moves_are_best(variant, temple, seed):
    """G-5.1: the greedy move sequence reaches the best nobles-at-its-gates score (plus Aquilas
    won) among all legal sequences, checked against the engine's own moves."""
    state, seat = _perform_state(variant, seed, temple)
    bot = GreedyBot(seed)
    cat = load_catalog(variant)
    state, _ = apply(state, bot.act(state))  # Roll
    if state.perform.stage == "mode":
        state, _ = apply(state, bot.act(state))

    w = bot.noble_weight(state, cat, seat)
    later = {g for k in range(state.turn + 1, state.n) for g in state.players[(state.first + k) % state.n].gates}
    vals = (7, 5, 5, 3, 3, 3)

    def value(st) -> float:
        denied = sum(v for v, pos in zip(vals, st.nobles, strict=False) if pos in later)
        return w * bot.noble_score(st, cat, seat, st.nobles) + 3.5 * st.players[seat].aquilas - bot.DENIAL * denied

    def best_from(st) -> float:
        if st.perform is None or st.perform.stage != "move":
            return value(st)
        return max(best_from(apply(st, a)[0]) for a in legal(st).actions if isinstance(a, MoveNoble))

    target = best_from(state)
    while state.perform.stage == "move":
        state, _ = apply(state, bot.act(state))
    assert value(state) == pytest.approx(target)


def _trade_state(seed: int = 11):
    names = ["greedy", "random", "random", "random"]
    bots = make_bots(names, seed)
    state = new_game(make_setup(4, seed, names))
    state = advance(state, bots, lambda s: s.phase == "trade" and s.trade.deal is None and s.trade.active != 0)
    return state


def test_greedy_refuses_to_hand_over_a_star_cheaply():
    """G-4, G-7: a coin offer that would give the proposer a Star Performer is refused, the same
    offer without a star at stake is accepted."""
    state = _trade_state()
    cat = load_catalog("grand")
    bot = GreedyBot(0)
    active = state.trade.active
    me = 0
    # a star type the greedy player hardly needs
    loss = {}
    for k in cat.star_types:
        tiles = list(state.players[me].tiles)
        tiles[k] = 1
        t2 = list(tiles)
        t2[k] = 0
        loss[k] = bot.tile_utility(replace(state, stars=(-1,) * len(state.stars)), cat, me, tiles) - bot.tile_utility(
            state, cat, me, t2
        )
    k = min(loss, key=loss.get)
    code = cat.codes[k]

    def position(active_count: int):
        players = []
        for i, p in enumerate(state.players):
            tiles = list(p.tiles)
            tiles[k] = 1 if i == me else active_count if i == active else 0
            players.append(replace(p, tiles=tuple(tiles), coins=max(p.coins, 10)))
        stars = list(state.stars)
        stars[k] = -1
        st = replace(state, players=tuple(players), stars=tuple(stars))
        deal = (Transfer(me, active, code, 1), Transfer(active, me, "coins", 6))
        st, _ = apply(st, ProposeDeal(player=active, transfers=deal))
        assert to_act(st) == me
        return st

    assert isinstance(bot.act(position(0)), AcceptDeal)
    assert isinstance(bot.act(position(2)), RejectDeal)  # 2 + 1 = 3 -> the active player's star


def test_greedy_proposes_only_deals_it_would_take():
    """G-4: every deal greedy proposes is one it would accept itself, is legal, and the greedy
    players it is offered to mostly take it."""
    cat = load_catalog("grand")
    proposals = []
    answers = Counter()

    for seed in (12, 13, 14):
        names = ["greedy", "random", "greedy", "greedy"]
        bots = make_bots(names, seed)

        def note(state, action, _next, names=names, bots=bots):
            seat = to_act(state)
            if isinstance(action, ProposeDeal) and names[seat] == "greedy":
                assert bots[seat].accepts(state, cat, seat, action.transfers)
                proposals.append(action)
            if isinstance(action, (AcceptDeal, RejectDeal)) and names[seat] == "greedy":
                proposer = state.trade.deal.proposer
                if names[proposer] == "greedy":
                    answers[type(action).__name__] += 1

        play_game(make_setup(4, seed, names), bots, check=True, on_action=note)
    assert len(proposals) >= 5
    assert answers["AcceptDeal"] > answers["RejectDeal"]


def test_greedy_performs_its_best_spectacle():
    """G-5.2/G-5.3: among performable spectacles the greedy player performs one scoring the most
    (or a new one within 5, since it adds +5 to every later performance)."""
    names = ["greedy"] * 4
    checked = 0
    for seed in range(20, 26):
        bots = make_bots(names, seed)
        state = new_game(make_setup(4, seed, names))
        while to_act(state) >= 0:
            seat = to_act(state)
            a = bots[seat].act(state)
            if isinstance(a, Perform):
                cat = load_catalog("grand")
                from colosseum.core.games.colosseum import breakdown, performable

                totals = {
                    cat.spectacles[s].key: breakdown(state, seat, cat.spectacles[s]).total
                    for s in performable(state, seat)
                }
                assert totals[a.spectacle] >= max(totals.values()) - 5
                checked += 1
            state, _ = apply(state, a)
    assert checked > 50


def test_greedy_choices_are_always_legal(monkeypatch):
    """The safety net in GreedyBot.act (fall back to a pass) is never needed in real games."""
    fallbacks = []
    real = GreedyBot._checked

    def spy(ch, action):
        out = real(ch, action)
        if out is not action:
            fallbacks.append(action)
        return out

    monkeypatch.setattr(GreedyBot, "_checked", staticmethod(spy))
    for players, variant in ((3, "grand"), (5, "grand"), (4, "classic")):
        bots = ["greedy"] * players
        play_game(make_setup(players, 31, bots, variant=variant), make_bots(bots, 31))
    assert not fallbacks, fallbacks[:3]


def test_g4_a_bots_offer_to_the_active_player_is_legal_and_between_the_two():
    """G-4: anyone may propose a deal to the active player of a trade turn.  What a bot offers
    (the one function the local session and the server's tables both ask) is a deal the rules
    accept, between that bot and the active player only; a random bot offers nothing."""
    from colosseum.core.games.colosseum import GameSetup, apply, new_game, to_act
    from colosseum.core.games.colosseum.bots import deal_offer, make_bot

    offers = 0
    for seed in range(1, 7):
        state = new_game(GameSetup(players=("A", "B", "C", "D"), seed=seed))
        bots = [make_bot("greedy", seed=seed * 10 + i) for i in range(4)]
        while (seat := to_act(state)) >= 0 and state.round <= 2:
            t = state.trade
            if state.phase == "trade" and t is not None and t.deal is None and seat == t.active:
                for other in range(4):
                    assert deal_offer(make_bot("random", 1), state, other) is None
                    offer = deal_offer(bots[other], state, other)
                    if offer is None:
                        continue
                    assert other != t.active
                    parties = {p for tr in offer.transfers for p in (tr.giver, tr.receiver)}
                    assert parties == {other, t.active}
                    apply(state, offer)  # the rules accept it (RuleError would fail the test)
                    offers += 1
            state, _ = apply(state, bots[seat].act(state))
    assert offers > 0
