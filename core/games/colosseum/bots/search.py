"""What Colosseum tells the shared search (:mod:`colosseum.core.search`): the candidate actions
worth comparing in each phase, greedy's choice first (``candidates``, the game's
``Rules.candidates``), and the bot that plays every seat in a playout (``PlayoutGreedy``:
greedy, but nobody proposes deals, which is cheaper; a deal on the table is answered).

The candidates by phase: the most attractive start gates; in Phase 1 ending the turn, a
promoter, the best fitting spectacles, the most attractive gate, the temple; in an auction
passing, raising by 1, 2, 3 and bidding up to greedy's value of the lot; opening the lots with
the best margin (and a jump opening on the best); accepting or refusing a deal on the table;
both ways of using the dice; performing with or without Aquilas; the best tiles to retire or to
steal.  A wider list (``cap`` above HARD_CAP: the ``expert`` level) also has more spectacles and
gates, performances with Aquilas and tiles, and whether to propose greedy's deal at all; not
more bids, lots or start gates (measured: more of those found noise more often than better
choices, see docs/decisions.md D-43).

``SearchBot(seed, think=..., playouts=...)`` is the ``hard`` bot of Colosseum (older callers).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from colosseum.core.games.colosseum.actions import (
    AcceptDeal,
    Action,
    BuildGate,
    BuildTemple,
    CancelDeal,
    ChooseDice,
    ChooseFirstPlayer,
    CloseDeal,
    EndTurn,
    HirePromoter,
    PassBid,
    Perform,
    PlaceStartGates,
    PlanSpectacle,
    ProposeDeal,
    RejectDeal,
    Retire,
    Steal,
)
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.components import Catalog, load_catalog
from colosseum.core.games.colosseum.engine import to_act
from colosseum.core.games.colosseum.model import State
from colosseum.core.games.colosseum.offers import Choices, legal
from colosseum.core.search import DEFAULT_THINK, CandidateStats

__all__ = ["DEFAULT_THINK", "HARD_CAP", "CandidateStats", "PlayoutGreedy", "SearchBot", "candidates"]

#: the ``hard`` level's candidates a decision (one more in an auction)
HARD_CAP = 4


class PlayoutGreedy:
    """Greedy for a playout: the active player of a trade turn ends it instead of proposing
    (the search's playouts have no deals of their own; one on the table is answered)."""

    name = "playout"

    def __init__(self, seed: int = 0) -> None:
        self.greedy = GreedyBot(seed)

    def act(self, state: State) -> Action:
        t = state.trade
        if state.phase == "trade" and t is not None and t.deal is None and to_act(state) == t.active:
            return EndTurn(player=t.active)
        return self.greedy.act(state)


def SearchBot(  # noqa: N802 - the name older callers construct
    seed: int = 0,
    think: float | None = None,
    playouts: int | None = None,
    workers: int = 1,
    max_candidates: int | None = None,
    clock: str = "wall",
    level: str = "hard",
) -> Any:
    """Colosseum's search bot (``hard`` unless ``level`` says otherwise)."""
    from colosseum.core.registry import rules  # (not .rules itself: it imports the bots)

    RULES = rules("colosseum")

    return RULES.search_bot(
        level, seed, think, playouts=playouts, workers=workers, max_candidates=max_candidates, clock=clock
    )


def candidates(state: State, first: Action, cap: int, greedy: GreedyBot) -> list[Action]:
    """A short list of actions worth comparing, ``first`` (greedy's choice) first, no repeats."""
    cat = load_catalog(state.setup.variant)
    ch = legal(state)
    finder = _FINDERS.get(state.phase)
    wide = cap > HARD_CAP
    more = finder(state, cat, ch.player, ch, greedy, wide) if finder is not None else []
    if wide and isinstance(first, ProposeDeal):
        more = [EndTurn(player=first.player), *more]  # whether to propose greedy's deal at all
    out = [first]
    if state.phase == "hire":
        cap += 1  # auctions are where the search gains most: one more candidate there
    for a in more:
        if len(out) >= cap:
            break
        if a not in out:
            out.append(a)
    return out


def _of(acts: Sequence[Action], kind: type) -> list[Action]:
    return [a for a in acts if isinstance(a, kind)]


def _setup(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot, wide: bool) -> list[Action]:
    n_sp = cat.track_spaces

    def attraction(a: Action) -> float:
        assert isinstance(a, PlaceStartGates)
        return sum(g.gate_attraction(state, cat, (a.space + d) % n_sp) for d in range(-1, 3))

    return sorted(_of(ch.actions, PlaceStartGates), key=attraction, reverse=True)[:3]


def _invest(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot, wide: bool) -> list[Action]:
    acts = [a for a in ch.actions if getattr(a, "extra", "") == ""]
    out: list[Action] = _of(acts, EndTurn) + _of(acts, HirePromoter)
    ids = {cat.spectacles[sid].key: sid for sid in state.display}
    plans: list[Action] = [a for a in acts if isinstance(a, PlanSpectacle) and a.spectacle in ids]

    def fit(a: Action) -> float:
        assert isinstance(a, PlanSpectacle)
        return g.spectacle_fit(state, cat, seat, cat.spectacles[ids[a.spectacle]])

    plans.sort(key=fit, reverse=True)
    builds = sorted(
        (a for a in acts if isinstance(a, BuildGate)), key=lambda a: -g.gate_attraction(state, cat, a.space)
    )
    gates: list[Action] = list(builds)
    out += plans[:1] + gates[:1] + _of(acts, BuildTemple) + plans[1:2]
    if wide:
        out += plans[2:4] + gates[1:2]
    return out


def _hire(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot, wide: bool) -> list[Action]:
    h = state.hire
    assert h is not None
    out: list[Action] = []
    if h.auction is not None:
        out += _of(ch.actions, PassBid)
        lot = state.markets[h.auction.market]
        top = g.max_bid(state, cat, seat, lot)
        high = h.auction.high
        bids = [high + 1, top, high + 3, high + 2]
        for opt in ch.bids:
            for bid in bids:
                if opt.low <= bid <= opt.high:
                    out.append(opt.action(seat, bid))
        return out
    out += _of(ch.actions, EndTurn)
    rate = max(g.coin_rate(state, cat), 0.05)
    ranked = sorted(ch.bids, key=lambda o: -(g.lot_value(state, cat, seat, state.markets[o.market]) - rate * o.low))
    out += [o.action(seat, o.low) for o in ranked[:3]]
    # a jump opening on the best lot: it may keep the others from raising
    if ranked and ranked[0].low + 3 <= ranked[0].high:
        out.append(ranked[0].action(seat, ranked[0].low + 3))
    return out


def _trade(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot, wide: bool) -> list[Action]:
    t = state.trade
    if t is None or t.deal is None:
        return []  # proposing: greedy's plan (a deal or the end of the turn)
    # a refusal "not this round" plays out as a plain one (nobody proposes in a playout)
    answers = (AcceptDeal, RejectDeal, CloseDeal, CancelDeal)
    return [a for a in ch.actions if isinstance(a, answers) and not (type(a) is RejectDeal and a.whole_round)]


def _perform(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot, wide: bool) -> list[Action]:
    pt = state.perform
    assert pt is not None
    if pt.stage == "mode":
        return _of(ch.actions, ChooseDice)
    if pt.stage == "after":
        performs = _of(ch.actions, Perform)
        plain = [a for a in performs if isinstance(a, Perform) and a.aquilas == 0]
        return plain + [a for a in performs if a not in plain][: 3 if wide else 1]
    return []  # rolling and noble moves: greedy scores every move sequence already


def _closing(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot, wide: bool) -> list[Action]:
    cl = state.closing
    assert cl is not None
    p = state.players[seat]
    if cl.stage in ("retire", "steal"):
        kind: type = Retire if cl.stage == "retire" else Steal
        sign = -1 if cl.stage == "retire" else 1

        def value(a: Action) -> float:
            tile = a.tile if isinstance(a, (Retire, Steal)) else ""
            return g.tile_utility(state, cat, seat, g.tiles_plus(p.tiles, (cat.index[tile],), sign))

        best = sorted(_of(ch.actions, kind), key=value, reverse=True)
        return best[: 5 if wide else 3] + _of(ch.actions, EndTurn)
    return _of(ch.actions, ChooseFirstPlayer)


_Finder = Callable[[State, Catalog, int, Choices, GreedyBot, bool], list[Action]]
_FINDERS: dict[str, _Finder] = {
    "setup": _setup,
    "invest": _invest,
    "hire": _hire,
    "trade": _trade,
    "perform": _perform,
    "closing": _closing,
}
