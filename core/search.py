"""One search for every game: the ``hard`` and ``expert`` bots and the hint.

Written against the game interface only (:class:`colosseum.core.game.Rules`): ``legal_actions``,
``apply`` / ``apply_quiet``, ``to_act``, ``determinised``, ``ranks`` / ``scores`` and the hooks a
game may refine, ``candidates`` (the actions worth comparing, the policy's choice first) and
``playout_bot`` (who plays every seat in a playout).  No game is named here (import-linter).

For each decision with a real choice the search takes a few candidate actions and plays each
out to the end of the game with the playout bot at every seat, on luck drawn from its own
generator (``determinised``: never the game's real future), every candidate of one iteration
on the same luck (common random numbers), and scores the end from the searching seat: 1 for a
win (shared: 1 / the winners), plus ``rules.margin_weight`` per point of the score over the best
other seat (clipped at ``rules.margin_clip``).

* ``hard``: two screening iterations play every candidate, then only the policy's choice and
  the best other one; the other replaces the policy's choice only when it is ahead by more than
  the noise of the paired differences (so with few playouts the bot plays like its policy).
* ``expert``: twice as many candidates (the game's wider list), narrowed by sequential halving:
  each round plays the survivors on new luck and keeps the better half by their mean over every
  round so far (the policy's choice always goes on), the time a round gets being the time left
  shared among the rounds to come, until the policy's choice and one other are left; they share
  what remains, and the same paired test decides.  See docs/decisions.md.

Budgets: ``think`` seconds a decision (``clock`` ``wall``, what a player waits, or ``cpu``, the
process's CPU time: figures independent of the machine's load), checked inside the playouts
too; or ``playouts`` a decision (a node budget: with ``think=None`` the choice is deterministic
for a seed).  ``workers=2`` spreads the playouts over processes.
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any

from colosseum.core.errors import RuleError
from colosseum.core.gcpause import paused_gc

if TYPE_CHECKING:
    from colosseum.core.game import Rules

__all__ = [
    "CLOCKS",
    "DEFAULT_THINK",
    "LEVELS",
    "CandidateStats",
    "Level",
    "Outcome",
    "SearchBot",
    "evaluate",
    "playout",
    "run_iterations",
]

DEFAULT_THINK = 1.0  # seconds a decision
MASK64 = (1 << 64) - 1
MAX_ITERATIONS = 100_000
MAX_PLAYOUT_ACTIONS = 20_000
#: The search stops at this share of ``think`` after the decision began, leaving room for the
#: last playout steps and the answer, so that a decision stays within its budget.
DEADLINE_SHARE = 0.9
#: the clock is read every this many playout steps (reading the CPU clock is a system call)
CLOCK_EVERY = 4
#: A candidate replaces the policy's choice when it is ahead by more than MIN_GAIN and by more
#: than the level's ``switch_z`` standard errors of the paired differences, over at least
#: MIN_ITERATIONS iterations.
MIN_ITERATIONS = 3
MIN_GAIN = 0.01

#: Clocks a time budget can be counted on.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.monotonic, "cpu": time.process_time}


@dataclass(frozen=True)
class Level:
    """How a level searches: ``cap`` candidates, ``screen`` iterations that play them all
    (``hard``) or sequential halving (``halving``: ``expert``), and ``switch_z``, the paired
    test for leaving the policy's choice."""

    name: str
    cap: int
    screen: int = 2
    halving: bool = False
    switch_z: float = 0.5


LEVELS: dict[str, Level] = {
    "hard": Level("hard", cap=4),
    "expert": Level("expert", cap=8, halving=True),
}


class Outcome:
    """One finished playout seen from the searching seat."""

    __slots__ = ("points", "score", "won")

    def __init__(self, won: float, points: int, score: float) -> None:
        self.won = won  # 1 for a win, 1/k for a win shared by k, else 0
        self.points = points  # the seat's final score (Acclaim, decurions)
        self.score = score  # what the search maximises

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Outcome) and (self.won, self.points, self.score) == (
            other.won,
            other.points,
            other.score,
        )

    def __repr__(self) -> str:
        return f"Outcome(won={self.won}, points={self.points}, score={self.score:.4f})"


def evaluate(rules: Rules[Any, Any, Any], state: Any, me: int) -> Outcome:
    """A finished game from seat ``me``: the win (``rules.win_share``) and the margin over the
    best other seat, weighted by ``rules.margin_weight`` and clipped at ``rules.margin_clip``."""
    won = rules.win_share(state, me)
    scores = rules.scores(state)
    mine = scores[me]
    best_other = max(s for i, s in enumerate(scores) if i != me)
    clip = rules.margin_clip
    margin = max(-clip, min(clip, mine - best_other))
    return Outcome(won, mine, won + rules.margin_weight * margin)


def luck(base: int, i: int) -> int:
    """The generator state of iteration ``i`` of a decision whose base draw is ``base``."""
    return random.Random(base * 1_000_003 + i).getrandbits(64) & MASK64


def playout(
    rules: Rules[Any, Any, Any],
    state: Any,
    action: Any,
    me: int,
    seed: int,
    deadline: float | None,
    clock: str = "wall",
) -> Outcome | None:
    """``action`` in ``state`` re-seeded with ``seed`` (``rules.determinised``), then the playout
    bot at every seat to the end.  None when ``deadline`` (on ``CLOCKS[clock]``) passes first or
    an action is refused."""
    with paused_gc():  # a playout makes no cycles: the collector's walks were pure cost
        return _playout(rules, state, action, me, seed, deadline, clock)


def _playout(
    rules: Rules[Any, Any, Any], state: Any, action: Any, me: int, seed: int, deadline: float | None, clock: str
) -> Outcome | None:
    st = rules.determinised(state, seed)
    try:
        st, _ = rules.apply(st, action)
    except RuleError:
        return None
    bots: dict[int, Any] = {}
    now = CLOCKS[clock]
    to_act, apply_quiet, make = rules.to_act, rules.apply_quiet, rules.playout_bot
    steps = 0
    while True:
        seat = to_act(st)
        if seat < 0:
            return evaluate(rules, st, me)
        steps += 1
        if deadline is not None and steps % CLOCK_EVERY == 0 and now() > deadline:
            return None
        if steps > MAX_PLAYOUT_ACTIONS:
            return None
        bot = bots.get(seat)
        if bot is None:
            bot = bots[seat] = make(seed * 7 + seat)
        try:
            # the playout bot's actions are legal ones: the quiet path gives the same states
            st = apply_quiet(st, bot.act(st))
        except RuleError:
            return None


def run_iterations(
    rules: Rules[Any, Any, Any],
    state: Any,
    cands: Sequence[Any],
    me: int,
    base: int,
    iterations: Sequence[int],
    seconds: float | None,
    max_playouts: int | None,
    clock: str = "wall",
) -> list[tuple[int, list[Outcome]]]:
    """Play every candidate on the luck of each iteration in turn, until ``seconds`` (from now)
    pass or ``max_playouts`` playouts are used.  The complete iterations only (every candidate
    played on the same luck), as (iteration, outcome per candidate)."""
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
            o = playout(rules, state, a, me, seed, deadline, clock)
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


@dataclass(frozen=True)
class CandidateStats:
    """What the search found for one candidate action."""

    action: Any
    score: float  # mean of the win + the weighted margin over the playouts
    win_share: float  # share of the playouts the seat won
    points: float  # the seat's mean final score (Acclaim, decurions)
    playouts: int
    first: bool  # the policy's own choice


Rows = list[list[Outcome | None]]


class SearchBot:
    """A ``hard`` or ``expert`` bot of any game (see the module's text)."""

    #: a decision takes about its time budget: clients and the server run it off their event loop
    thinks = True

    def __init__(
        self,
        rules: Rules[Any, Any, Any],
        seed: int = 0,
        think: float | None = None,
        playouts: int | None = None,
        *,
        level: str = "hard",
        clock: str = "wall",
        workers: int = 1,
        max_candidates: int | None = None,
    ) -> None:
        """``think``: seconds a decision; ``playouts``: playouts a decision.  With neither,
        ``think`` is DEFAULT_THINK; with ``playouts`` alone the choice is deterministic."""
        if clock not in CLOCKS:
            raise ValueError(f"unknown clock {clock!r}; choose from {', '.join(CLOCKS)}")
        if level not in LEVELS:
            raise ValueError(f"unknown search level {level!r}; choose from {', '.join(LEVELS)}")
        self.rules = rules
        self.name = level
        self.level = LEVELS[level]
        self.clock = clock
        self._now = CLOCKS[clock]
        self.rng = random.Random(seed)
        self.think = DEFAULT_THINK if think is None and playouts is None else think
        self.playouts = playouts
        self.workers = max(1, workers)
        self.max_candidates = max(2, max_candidates if max_candidates is not None else self.level.cap)
        self.policy = rules.make_bot("normal", seed)  # the choice to beat, and the game's valuations
        self._pool: Executor | None = None
        self._pool_failed = False
        self._warm: Future[bool] | None = None
        self.last_playouts = 0  # playouts used by the last decision (for tests and reports)
        self._started = 0.0  # the clock at the start of the decision: the budget is per decision

    # ------------------------------------------------------------------ interface

    def act(self, state: Any) -> Any:
        self._started = self._now()
        self.last_playouts = 0
        rules = self.rules
        try:
            first = self.policy.act(state)
        except Exception:  # noqa: BLE001 - a failing policy must not stall the game
            return rules.fallback_action(state)
        try:
            stats = self._search(state, first, self.policy, self.rng)
            choice = stats[0].action if stats else first
        except Exception:  # noqa: BLE001 - any failure of the search falls back to the policy's choice
            choice = first
        if choice is not first and not self._allowed(state, choice):
            choice = first
        if choice is first and not self._allowed(state, first):
            return rules.fallback_action(state)  # the last resort: a bot never stalls a game
        return choice

    def analyse(self, state: Any) -> list[tuple[Any, float]]:
        """The candidates of ``state``'s decision with their scores, the bot's choice first.
        Changes neither ``state`` nor the bot."""
        return [(c.action, c.score) for c in self.analyse_detail(state)]

    def analyse_detail(self, state: Any) -> list[CandidateStats]:
        self._started = self._now()
        policy = twin_of(self.policy)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        first = policy.act(state)
        used = self.last_playouts
        try:
            found = self._search(state, first, policy, rng)
        finally:
            self.last_playouts = used
        return found or [CandidateStats(first, 0.0, 0.0, 0.0, 0, True)]

    def close(self) -> None:
        """Shut the worker processes down (they are also stopped at interpreter exit)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._warm = None

    # ------------------------------------------------------------------ search

    def _allowed(self, state: Any, action: Any) -> bool:
        try:
            self.rules.apply(state, action)
        except RuleError:
            return False
        return True

    def candidates(self, state: Any, first: Any, policy: Any) -> list[Any]:
        """The game's candidates (``Rules.candidates``), ``first`` first, the refused ones left
        out, no repeats."""
        out = [first]
        for a in self.rules.candidates(state, first, self.max_candidates, policy):
            if a not in out and self._allowed(state, a):
                out.append(a)
        return out

    def _search(self, state: Any, first: Any, policy: Any, rng: random.Random) -> list[CandidateStats]:
        cands = self.candidates(state, first, policy)
        self.last_playouts = 0
        if len(cands) < 2:
            return []
        me = self.rules.to_act(state)
        base = rng.getrandbits(64)
        if self.level.halving:
            rows = self._halving(state, cands, me, base)
        else:
            rows = self._screened(state, cands, me, base)
        self.last_playouts = sum(1 for r in rows for o in r if o is not None)
        return rank(cands, rows, self.level.switch_z)

    def _deadline(self) -> float | None:
        return None if self.think is None else self._started + self.think * DEADLINE_SHARE

    def _screened(self, state: Any, cands: list[Any], me: int, base: int) -> Rows:
        """``hard``: the first ``screen`` iterations play every candidate; the rest only the
        policy's choice and the best of the others so far, so that the comparison that decides
        gets most of the budget."""
        limit = self.playouts
        deadline = self._deadline()
        n = len(cands)
        screen = self.level.screen if n > 2 else 0
        rows: Rows = []
        keep = list(range(n))
        used = 0
        if screen:
            budget = screen * n if limit is None else min(limit, screen * n)
            first = self._iterations(state, cands, me, base, 0, screen, deadline, budget)
            rows += [list(r) for r in first]
            used = len(first) * n
            if len(first) < screen:
                return rows
            means = [sum(r[j].score for r in first) / len(first) for j in range(n)]
            keep = [0, max(range(1, n), key=lambda j: (means[j], -j))]
        rest = self._iterations(
            state,
            [cands[j] for j in keep],
            me,
            base,
            screen,
            MAX_ITERATIONS,
            deadline,
            None if limit is None else limit - used,
        )
        rows += [_spread(r, keep, n) for r in rest]
        return rows

    def _halving(self, state: Any, cands: list[Any], me: int, base: int) -> Rows:
        """``expert``: sequential halving.  Each round plays the survivors on new luck; the
        better half (by the mean over every round so far, ties to the earlier candidate, the
        policy's choice never dropped before the last two) goes on, until two are left, which
        share what remains of the budget."""
        limit = self.playouts
        deadline = self._deadline()
        n = len(cands)
        alive = list(range(n))
        rows: Rows = []
        used = 0
        start = 0
        while True:
            k = len(alive)
            rounds = max(1, math.ceil(math.log2(k))) if k > 2 else 1
            if k <= 2:
                iters = MAX_ITERATIONS
            elif limit is not None:
                iters = max(self.level.screen, (limit - used) // (rounds * k))
            else:
                iters = self._affordable(deadline, used, rounds, k)
            budget = None if limit is None else limit - used
            sub = [cands[j] for j in alive]
            done = self._iterations(state, sub, me, base, start, start + iters, deadline, budget)
            rows += [_spread(r, alive, n) for r in done]
            used += len(done) * k
            start += iters if k > 2 else 0
            if k <= 2 or len(done) < iters:
                return rows
            means = {j: _mean(rows, j) for j in alive}
            order = sorted(alive, key=lambda j: (-means[j], j))
            keep = max(2, (k + 1) // 2)
            survivors = order[:keep]
            if 0 not in survivors:
                survivors[-1] = 0
            alive = sorted(survivors)

    def _affordable(self, deadline: float | None, used: int, rounds: int, k: int) -> int:
        """Iterations of ``k`` candidates a round can afford: the time left shared by the
        ``rounds`` to come, at the cost of the playouts so far (screen's worth at first)."""
        if deadline is None:
            return self.level.screen
        spent = self._now() - self._started
        left = deadline - self._now()
        if used == 0 or left <= 0:
            return self.level.screen
        per = spent / used
        return max(self.level.screen, int(left / per / (rounds * k)))

    def _iterations(
        self,
        state: Any,
        cands: list[Any],
        me: int,
        base: int,
        start: int,
        stop: int,
        deadline: float | None,
        max_playouts: int | None,
    ) -> list[list[Outcome]]:
        """Complete iterations ``start`` .. ``stop`` - 1 (in order, as far as the budget goes),
        spread over the worker processes when they are ready."""
        if max_playouts is not None and max_playouts < len(cands):
            return []
        seconds = None if deadline is None else max(0.0, deadline - self._now())
        iters = None if max_playouts is None else max_playouts // len(cands)
        if self.workers > 1 and not self._pool_failed:
            pool = self.start_workers()
            if pool is not None and self._warm is not None and self._warm.done():
                try:
                    futures = [
                        pool.submit(
                            run_iterations,
                            self.rules,
                            state,
                            cands,
                            me,
                            base,
                            range(start + w, stop, self.workers),
                            seconds,
                            None if iters is None else _share(iters, w, self.workers) * len(cands),
                            self.clock,
                        )
                        for w in range(self.workers)
                    ]
                    done = [r for f in futures for r in f.result()]
                    done.sort(key=lambda r: r[0])
                    return [row for _, row in done]
                except (BrokenProcessPool, OSError, RuntimeError):
                    self._pool_failed = True
                    self.close()
        found = run_iterations(
            self.rules, state, cands, me, base, range(start, stop), seconds, max_playouts, self.clock
        )
        return [row for _, row in found]

    def start_workers(self, wait: bool = False) -> Executor | None:
        """The worker pool, created on first use.  Decisions are searched in this process until
        the workers have started (so the first ones keep their time budget); ``wait`` blocks
        until they have."""
        if self.workers < 2 or self._pool_failed:
            return None
        if self._pool is None:
            try:
                self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=get_context("spawn"))
                self._warm = self._pool.submit(_ready)
            except (OSError, ValueError, NotImplementedError, RuntimeError):
                self._pool_failed = True
                return None
        if wait and self._warm is not None:
            try:
                self._warm.result()
            except (BrokenProcessPool, OSError, RuntimeError):
                self._pool_failed = True
                self.close()
                return None
        return self._pool


def twin_of(bot: Any) -> Any:
    """A copy of ``bot`` that chooses as it would from now on and leaves it untouched: its
    ``fork()`` where it has one, else a copy with its own generators and collections."""
    fork = getattr(bot, "fork", None)
    if fork is not None:
        return fork()
    twin = copy.copy(bot)
    for name, value in vars(bot).items():
        if isinstance(value, random.Random):
            rng = random.Random()
            rng.setstate(value.getstate())
            setattr(twin, name, rng)
        elif isinstance(value, (set, dict, list)):
            setattr(twin, name, copy.copy(value))
    return twin


def _ready() -> bool:
    """Run in a new worker: the worker is ready."""
    return True


def _share(total: int, w: int, workers: int) -> int:
    """Iterations worker ``w`` plays out of ``total`` dealt round robin."""
    return total // workers + (1 if w < total % workers else 0)


def _spread(row: Sequence[Outcome], keep: Sequence[int], n: int) -> list[Outcome | None]:
    out: list[Outcome | None] = [None] * n
    for j, o in zip(keep, row, strict=True):
        out[j] = o
    return out


def _mean(rows: Rows, j: int) -> float:
    col = [o.score for r in rows if (o := r[j]) is not None]
    return sum(col) / len(col) if col else float("-inf")


def rank(cands: Sequence[Any], rows: Rows, switch_z: float = 0.5) -> list[CandidateStats]:
    """Candidates best first.  ``cands[0]`` is the policy's choice; the choice is among the
    candidates played most (the finalists), and another than the policy's goes first only when
    its paired advantage over it is clear (``switch_z``)."""
    stats = []
    for j, a in enumerate(cands):
        col = [o for r in rows if (o := r[j]) is not None]
        n = len(col)
        stats.append(
            CandidateStats(
                action=a,
                score=sum(o.score for o in col) / n if n else 0.0,
                win_share=sum(o.won for o in col) / n if n else 0.0,
                points=sum(o.points for o in col) / n if n else 0.0,
                playouts=n,
                first=j == 0,
            )
        )
    most = max(c.playouts for c in stats)
    order = sorted(range(len(cands)), key=lambda j: (-stats[j].score, j))
    best = next(j for j in order if stats[j].playouts == most)
    if best != 0 and not _clearly_better(rows, best, 0, switch_z):
        best = 0
    return [stats[best]] + [stats[j] for j in order if j != best]


def _clearly_better(rows: Rows, j: int, k: int, switch_z: float) -> bool:
    diffs = [a.score - b.score for r in rows if (a := r[j]) is not None and (b := r[k]) is not None]
    n = len(diffs)
    if n < MIN_ITERATIONS:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > MIN_GAIN and mean > switch_z * math.sqrt(var / n)
