"""The ``greedy`` Municipium bot: a one-step valuation of the public position.

Deterministic choices (moves, placements, keeps, pulls, takes, relocations, exchanges, power
uses) are tried with ``apply`` and the best resulting position is taken.  Choices whose outcome
is chance (the common card, the Emporium and Basilica draws, the family cards) are valued by
rules of thumb instead, so the bot never profits from the hidden deck order or bag contents.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from colosseum.core.games.municipium.actions import (
    BasilicaDraw,
    DrawCommon,
    EmporiumDraw,
    MuniAction,
    Pass,
    PlayFamily,
    UsePower,
)
from colosseum.core.games.municipium.board import led_by, ranking
from colosseum.core.games.municipium.catalog import load_catalog
from colosseum.core.games.municipium.engine import apply, target
from colosseum.core.games.municipium.model import State
from colosseum.core.games.municipium.offers import legal

# A prior for powers whose value only shows in the choices that follow.
POWER_BONUS = (0.0, 4.0, 0.0, 6.0, 12.0, 10.0, 3.0)


def seat_scores(state: State) -> list[float]:
    """Each seat's score: decurions, progress towards a set, citizens and favours held,
    leaderships (weighted by the citizens waiting on their banners) and second places, Temple
    rank, crowns.  Every term is a whole number, so the sum is exact in any order.

    The playouts of the search call this for every option of every decision (most of a
    playout's time): the ranking at each institution is found in one pass, by a key in which
    more influence wins and, at equal influence, the better Temple space (M-4.2)."""
    players = state.players
    n = len(players)
    temple = state.temple
    order = list(range(n))  # each seat's Temple space (the seat order before the Temple's)
    for space, s in enumerate(temple):
        order[s] = space
    out = []
    infl = []
    for s, p in enumerate(players):
        c = p.citizens
        kinds = len(c) - c.count(0)
        favours = p.favours
        progress = kinds + favours
        if progress > 4:
            progress = 4
        crowned = p.crowned
        score = 100.0 * p.decurions + 18.0 * progress + 4.0 * (sum(c) - kinds) + 3.0 * favours
        if temple:
            score += 2.0 * (n - order[s])
        out.append(score + 3.0 * sum(crowned))
        infl.append([a + b + b for a, b in zip(p.plain, crowned, strict=True)])  # M-4.1: a crowned counts 2
    banners = state.banners
    for i, column in enumerate(zip(*infl, strict=True)):
        first = second = -1
        first_key = second_key = 0
        for s, v in enumerate(column):
            if v:
                key = v * 64 - order[s]  # (fewer than 64 seats)
                if key > first_key:
                    second, second_key = first, first_key
                    first, first_key = s, key
                elif key > second_key:
                    second, second_key = s, key
        if first < 0:
            continue
        if second >= 0:
            out[second] += 2.0
        out[first] += 7.0 + 2.0 * sum(banners[i])
    return out


def player_score(state: State, seat: int) -> float:
    return seat_scores(state)[seat]


def value(state: State, seat: int) -> float:
    """The seat's score against its strongest opponent."""
    scores = seat_scores(state)
    return scores[seat] - 0.7 * max(x for s, x in enumerate(scores) if s != seat)


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def fork(self) -> GreedyBot:
        """A twin that makes the choices this bot would make from now on (its generator's
        state), without touching this one: the search's ``twin_of`` copies the attributes of a
        bot without ``fork``, which a compiled class (the mypyc build) has no ``vars()`` of."""
        twin = GreedyBot()
        twin.rng.setstate(self.rng.getstate())
        return twin

    def act(self, state: State) -> MuniAction:
        options = legal(state)
        seat = options[0].player
        if isinstance(options[0], DrawCommon):
            return self.card_choice(state, seat, options)
        if any(isinstance(a, EmporiumDraw) for a in options):
            return next(a for a in options if isinstance(a, EmporiumDraw))
        best: list[MuniAction] = []
        best_v = float("-inf")
        for a, v in zip(options, self.values(state, seat, options), strict=True):
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif abs(v - best_v) <= 1e-9:
                best.append(a)
        return self.rng.choice(best)

    def values(self, state: State, seat: int, options: Sequence[MuniAction]) -> list[float]:
        """The value of each option for ``seat``: the position after it (a deterministic
        choice), or a rule of thumb (a draw)."""
        out = []
        now = value(state, seat)
        for a in options:
            if isinstance(a, BasilicaDraw):
                v = now + 12.0
            elif isinstance(a, Pass) and state.stack:
                v = now
            else:
                after, _ = apply(state, a)
                v = value(after, seat)
                if isinstance(a, UsePower):
                    v += POWER_BONUS[a.institution]
            out.append(v)
        return out

    def ranked(self, state: State) -> list[MuniAction]:
        """Every legal option, best first by the values ``act`` compares (the card and the
        Emporium's choices, decided by rules of thumb, in the order offered)."""
        options = legal(state)
        if not options or isinstance(options[0], DrawCommon) or any(isinstance(a, EmporiumDraw) for a in options):
            return list(options)
        vals = self.values(state, options[0].player, options)
        order = sorted(range(len(options)), key=lambda i: -vals[i])
        return [options[i] for i in order]

    def card_choice(self, state: State, seat: int, options: tuple[MuniAction, ...]) -> MuniAction:
        cat = load_catalog()
        p = state.players[seat]
        led = led_by(state, seat)
        late = max(q.decurions for q in state.players) >= target(state) - 1
        scores: dict[str, float] = {}
        for card in p.family:
            if card == "your_powers":
                scores[card] = len(led) + (2 if 4 in led or 5 in led else 0)
            elif card == "great_family":
                g = cat.route[state.governor]
                r = ranking(state, g)
                scores[card] = 4.0 if r and r[0] == seat and state.favour_spaces[g] else 1.0
            else:
                ready = sum(1 for i in led if sum(state.banners[i]) == 2)
                scores[card] = 1.0 + 1.5 * ready
        threshold = 2.0 if late else 4.0
        choice = max(scores, key=lambda c: scores[c], default="")
        if choice and scores[choice] >= threshold:
            return next(a for a in options if isinstance(a, PlayFamily) and a.card == choice)
        return options[0]
