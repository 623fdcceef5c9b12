"""Greedy's investment search (``GreedyBot._invest``, written out for speed: each spectacle's part
computed once per gate count, no closures) chooses what the plain valuation of every bundle
chooses: ``GreedyValuation._bundle_value`` of each investment alone and of each pair of regular
ones (G-2: of different kinds where the edition says so), less what pays for them (C-3 extras),
on the positions of seeded random and greedy games of every edition.  The choices must be the
very same actions: a value changed in its last bit could flip a tie."""

from __future__ import annotations

import pytest

from colosseum.core.games.colosseum import apply, legal, new_game, to_act
from colosseum.core.games.colosseum.actions import (
    Action,
    BuildGate,
    BuildLoge,
    BuildTemple,
    BuySeasonTicket,
    EndTurn,
    HirePromoter,
    PlanSpectacle,
)
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.bots.greedy_nobles import AQUILA_VALUE
from colosseum.core.games.colosseum.components import Catalog, load_catalog
from colosseum.core.games.colosseum.model import State
from colosseum.core.simulate import make_bots, make_setup


def reference(bot: GreedyBot, state: State, cat: Catalog, seat: int, acts: list[Action]) -> Action:
    """The investment greedy makes, valued bundle by bundle with ``_bundle_value``."""
    p = state.players[seat]
    rules = cat.rules
    aq_pay = rules.extra_investment_aquilas * (2.0 if rules.endgame_aquila_acclaim == 0 else AQUILA_VALUE)
    owned = bot.owned_specs(state, seat)
    now_val: dict[int, float] = {}
    fits = bot.spectacle_fits(state, cat, seat, (*owned, *state.display), now_val)
    ids = {spec.key: sid for sid, spec in enumerate(cat.spectacles)}
    cands: list[tuple[str, int, Action, float, int]] = []  # kind, cost, action, paid by, spectacle
    gate_best: dict[str, tuple[float, Action, float]] = {}
    for a in acts:
        extra = getattr(a, "extra", None)
        if extra is None:
            continue
        pay = aq_pay if extra == "aquilas" else 1.5 if extra == "construction" else 0.0
        if isinstance(a, PlanSpectacle):
            sid = ids[a.spectacle]
            cands.append(("spectacle", cat.spectacles[sid].cost, a, pay, sid))
        elif isinstance(a, BuildGate):  # one gate space: the most attractive (the same draws)
            att = bot.gate_attraction(state, cat, a.space) + bot.rng.random() * 1e-6
            if extra not in gate_best or att > gate_best[extra][0]:
                gate_best[extra] = (att, a, pay)
        elif isinstance(a, (HirePromoter, BuySeasonTicket)):
            cands.append(("promoter", cat.promoter_price, a, pay, -1))
        elif isinstance(a, (BuildTemple, BuildLoge)):
            cands.append(("temple", cat.temple_price, a, pay, -1))
    for att, a, pay in gate_best.values():
        cands.append(("gate", cat.common.gate_cost, a, pay - 0.02 * att, -1))

    def value(chosen: tuple[int, ...]) -> float:
        spent = sum(cands[i][1] for i in chosen)
        if spent > p.coins:
            return -1e9
        paid = 0.0
        for i in chosen:
            paid += cands[i][3]
        gates = len(p.gates) + sum(1 for i in chosen if cands[i][0] == "gate")
        promoters = p.promoters + sum(1 for i in chosen if cands[i][0] == "promoter")
        temple = p.temple or any(cands[i][0] == "temple" for i in chosen)
        specs = [*owned, *(cands[i][4] for i in chosen if cands[i][4] >= 0)]
        return bot._bundle_value(state, cat, seat, fits, now_val, specs, gates, promoters, temple, spent) - paid

    best_v, best = value(()) + 0.3, None
    turn = state.invest
    assert turn is not None
    pairs = not turn.made and rules.investments_per_turn > 1
    regular = [i for i, x in enumerate(cands) if getattr(x[2], "extra", "") == ""] if pairs else []
    for i, x in enumerate(cands):
        v = value((i,))
        if v > best_v:
            best_v, best = v, x[2]
        if i not in regular:
            continue
        for j in regular:
            if j <= i or (rules.investment_kinds_distinct and cands[j][0] == x[0]):
                continue
            v2 = value((i, j)) - 0.01
            if v2 > best_v:
                best_v, best = v2, x[2]
    return best if best is not None else next(a for a in acts if type(a) is EndTurn)


GAMES = [
    (bots, n, seed, variant)
    for bots in ("greedy", "random")
    for n, seed, variant in [(4, 31, "grand"), (3, 32, "classic"), (5, 33, "original"), (4, 34, "classic")]
]


@pytest.mark.parametrize(("bots", "players", "seed", "variant"), GAMES)
def test_the_investment_search_chooses_what_every_bundle_valued_plainly_chooses(bots, players, seed, variant):
    cat = load_catalog(variant)
    state = new_game(make_setup(players, seed, variant=variant))
    players_bots = make_bots([bots] * players, seed)
    compared = 0
    while (seat := to_act(state)) >= 0:
        if state.phase == "invest":
            acts = list(legal(state).actions)
            fast = GreedyBot(seed * 10 + seat)
            plain = fast.fork()  # the same generator state: the gate spaces' tie-breaking draws
            assert fast._invest(state, cat, seat, acts) == reference(plain, state, cat, seat, acts)
            compared += 1
        state, _ = apply(state, players_bots[seat].act(state))
    assert compared >= 10
