"""Playouts for the ``hard`` (search) bot: a candidate action followed by greedy play to the end.

Module-level functions only, so that worker processes can run them (they are pickled by name).

Chance is *determinised*: before a playout the state's generator state (``State.rng``) is
replaced by a value drawn from the searching bot's own generator, so a playout never sees the
game's real future.  Every candidate of one decision is played on the same list of such values
(common random numbers), so candidates are compared on the same luck.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from colosseum.core.games.colosseum import Action, EndTurn, RuleError, State, apply, to_act
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.engine import apply_fast
from colosseum.core.games.colosseum.view import determinised

MASK64 = (1 << 64) - 1
#: Weight of the Acclaim margin (own Acclaim minus the best other) next to a win (1.0): the
#: margin is far less noisy than the win itself, so it steers the search when wins are rare.
MARGIN_WEIGHT = 0.03
MARGIN_CLIP = 25
MAX_PLAYOUT_ACTIONS = 20_000

#: Clocks a time budget can be counted on: ``wall`` (what a player waits) or ``cpu`` (the
#: process's own CPU time: what the search gets on a machine busy with other work, for
#: strength measurements that do not depend on the load).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.monotonic, "cpu": time.process_time}


class Outcome:
    """One finished playout seen from the searching seat."""

    __slots__ = ("acclaim", "score", "won")

    def __init__(self, won: bool, acclaim: int, score: float) -> None:
        self.won = won
        self.acclaim = acclaim
        self.score = score


def luck(base: int, i: int) -> int:
    """The generator state of playout iteration ``i`` of a decision whose base draw is ``base``."""
    return random.Random(base * 1_000_003 + i).getrandbits(64) & MASK64


def evaluate(state: State, me: int) -> Outcome:
    """The outcome of a finished game for seat ``me``: won or not, and the Acclaim margin."""
    res = state.result
    assert res is not None
    mine = state.players[me].acclaim
    best_other = max(p.acclaim for i, p in enumerate(state.players) if i != me)
    margin = max(-MARGIN_CLIP, min(MARGIN_CLIP, mine - best_other))
    won = res.winner == me
    return Outcome(won, mine, (1.0 if won else 0.0) + MARGIN_WEIGHT * margin)


def playout(
    state: State, action: Action, me: int, seed: int, deadline: float | None, clock: str = "wall"
) -> Outcome | None:
    """``action`` in ``state`` (re-seeded with ``seed``), then greedy play by every seat to the
    end of the game.  None when ``deadline`` (on ``CLOCKS[clock]``) passes first or the action is
    refused.  Nobody proposes deals in a playout (cheaper; deals on the table are answered)."""
    st = determinised(state, seed)
    try:
        st, _ = apply(st, action)
    except RuleError:
        return None
    bots = [GreedyBot(seed * 7 + i) for i in range(st.n)]
    now = CLOCKS[clock]
    steps = 0
    while True:
        seat = to_act(st)
        if seat < 0:
            return evaluate(st, me)
        if deadline is not None and now() > deadline:
            return None
        steps += 1
        if steps > MAX_PLAYOUT_ACTIONS:
            return None
        t = st.trade
        if st.phase == "trade" and t is not None and t.deal is None and t.active == seat:
            nxt: Action = EndTurn(player=seat)
        else:
            nxt = bots[seat].act(st)
        try:
            # greedy's actions are checked against legal() by greedy itself; the quiet path
            # (no events: a playout throws them away) gives the same states
            st, _ = apply_fast(st, nxt)
        except RuleError:
            return None


def run_iterations(
    state: State,
    cands: Sequence[Action],
    me: int,
    base: int,
    iterations: Sequence[int],
    seconds: float | None,
    max_playouts: int | None,
    clock: str = "wall",
) -> list[tuple[int, list[Outcome]]]:
    """Play every candidate on the luck of each iteration in turn, until ``seconds`` (from now)
    pass or ``max_playouts`` playouts are used.  Returns the complete iterations only (every
    candidate played on the same luck), as (iteration, outcome per candidate)."""
    now = CLOCKS[clock]
    deadline = None if seconds is None else now() + seconds
    out: list[tuple[int, list[Outcome]]] = []
    used = 0
    for i in iterations:
        if max_playouts is not None and used + len(cands) > max_playouts:
            break
        if deadline is not None and now() > deadline:
            break
        seed = luck(base, i)
        row: list[Outcome] = []
        for a in cands:
            o = playout(state, a, me, seed, deadline, clock)
            used += 1
            if o is None:
                break
            row.append(o)
        if len(row) < len(cands):
            if deadline is not None and now() > deadline:
                break
            continue  # a refused candidate: this iteration is not comparable, skip it
        out.append((i, row))
    return out
