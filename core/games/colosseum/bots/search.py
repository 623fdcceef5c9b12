"""The ``hard`` bot: flat Monte Carlo over a short candidate list, played out by greedy bots.

For each decision with a real choice the bot builds a few candidates (greedy's choice first,
then the alternatives that matter in that phase: open / pass / raise / jump bids in an auction,
other investments, spectacles, dice modes, accepting or refusing a deal, ...).  Each candidate is
played out to the end of the game by greedy bots for every seat, on luck drawn from the bot's
own generator (the game's future is never used; see ``playout``), all candidates on the same
luck.  A candidate replaces greedy's choice only when it scores better by more than the noise of
the paired differences, so with few playouts the bot plays like greedy.

Budgets: ``think`` seconds per decision (checked inside playouts too), or ``playouts`` (a node
budget: the number of playouts per decision; with ``think=None`` the choice is deterministic for
a given seed).  ``workers=2`` spreads the playouts over processes (a pool created on first use
and reused; one process when a pool cannot be had).

``analyse(state)`` answers "what would the bot do, and why": (action, score) best first, the
chosen action first; ``analyse_detail`` adds win share, mean Acclaim and playouts.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context

from colosseum.core.games.colosseum import (
    AcceptDeal,
    Action,
    BuildGate,
    BuildTemple,
    CancelDeal,
    Catalog,
    Choices,
    ChooseDice,
    ChooseFirstPlayer,
    CloseDeal,
    EndTurn,
    HirePromoter,
    OpenAuction,
    PassBid,
    Perform,
    PlaceStartGates,
    PlanSpectacle,
    ProposeDeal,
    Raise,
    RejectDeal,
    Retire,
    RuleError,
    State,
    Steal,
    apply,
    legal,
    load_catalog,
)
from colosseum.core.games.colosseum.bots.greedy import GreedyBot
from colosseum.core.games.colosseum.bots.playout import CLOCKS, Outcome, run_iterations

DEFAULT_THINK = 1.0  # seconds per decision
MAX_CANDIDATES = 4
#: A candidate replaces greedy's choice when its mean paired advantage exceeds this many
#: standard errors (and at least MIN_ITERATIONS complete iterations were played).
SWITCH_Z = 0.5
MIN_ITERATIONS = 3
MIN_GAIN = 0.01
MAX_ITERATIONS = 100_000
#: Iterations that play every candidate before the search narrows to greedy's choice and the
#: best of the others (with 4 or 5 candidates this more than doubles the iterations of the
#: comparison that decides).
SCREEN_ITERATIONS = 2
#: The search stops at this share of ``think`` after the decision began, leaving room for the
#: last playout steps and the answer, so that a decision stays within its budget.
DEADLINE_SHARE = 0.9


@dataclass(frozen=True)
class CandidateStats:
    """What the search found for one candidate action."""

    action: Action
    score: float  # mean of win (1/0) + 0.03 x Acclaim margin over the playouts
    win_share: float  # share of playouts the bot won
    acclaim: float  # mean final Acclaim of the bot
    playouts: int
    greedy: bool  # greedy's own choice


class SearchBot:
    name = "hard"
    #: a decision takes about its time budget: clients and the server run it off their event loop
    thinks = True

    def __init__(
        self,
        seed: int = 0,
        think: float | None = None,
        playouts: int | None = None,
        workers: int = 1,
        max_candidates: int = MAX_CANDIDATES,
        clock: str = "wall",
    ) -> None:
        """``think``: seconds per decision; ``playouts``: playouts per decision.  With neither,
        ``think`` is DEFAULT_THINK; with ``playouts`` alone the choice is deterministic.
        ``clock``: ``think`` counted in ``wall`` seconds (what a player waits) or in ``cpu``
        seconds of the searching processes (strength measurements on a busy machine)."""
        if clock not in CLOCKS:
            raise ValueError(f"unknown clock {clock!r}; choose from {', '.join(CLOCKS)}")
        self.clock = clock
        self._now = CLOCKS[clock]
        self.rng = random.Random(seed)
        self.think = DEFAULT_THINK if think is None and playouts is None else think
        self.playouts = playouts
        self.workers = max(1, workers)
        self.max_candidates = max(2, max_candidates)
        self.greedy = GreedyBot(seed)
        self._pool: Executor | None = None
        self._pool_failed = False
        self._warm: Future[bool] | None = None
        self.last_playouts = 0  # playouts used by the last decision (for tests and reports)
        self._started = 0.0  # the clock at the start of the decision: the budget is per decision

    # ------------------------------------------------------------------ interface

    def act(self, state: State) -> Action:
        self._started = self._now()
        ch = legal(state)
        if len(ch.actions) == 1 and not ch.bids and not ch.can_propose:
            self.last_playouts = 0
            return ch.actions[0]
        try:
            fallback = self.greedy.act(state)
        except Exception:  # noqa: BLE001 - a failing valuation must not stall the game
            return _safe(ch)
        try:
            stats = self._search(state, ch, fallback, self.greedy, self.rng)
            choice = stats[0].action if stats else fallback
        except Exception:  # noqa: BLE001 - any failure of the search falls back to greedy's choice
            choice = fallback
        if choice is not fallback and not _allowed(state, ch, choice):
            choice = fallback
        return choice

    def analyse(self, state: State) -> list[tuple[Action, float]]:
        """The candidates of ``state``'s decision with their scores (see ``CandidateStats``),
        the bot's choice first.  Changes neither ``state`` nor the bot."""
        return [(c.action, c.score) for c in self.analyse_detail(state)]

    def analyse_detail(self, state: State) -> list[CandidateStats]:
        self._started = self._now()
        ch = legal(state)
        # greedy remembers the deals it proposed and draws on its generator: a copy of both (its
        # caches are pure memos and may be shared)
        greedy = copy.copy(self.greedy)
        greedy.rng = random.Random()
        greedy.rng.setstate(self.greedy.rng.getstate())
        greedy._proposed = set(self.greedy._proposed)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        fallback = greedy.act(state)
        used = self.last_playouts
        try:
            found = self._search(state, ch, fallback, greedy, rng)
        finally:
            self.last_playouts = used
        return found or [CandidateStats(fallback, 0.0, 0.0, 0.0, 0, True)]

    def close(self) -> None:
        """Shut the worker processes down (they are also stopped at interpreter exit)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._warm = None

    # ------------------------------------------------------------------ search

    def _search(
        self, state: State, ch: Choices, fallback: Action, greedy: GreedyBot, rng: random.Random
    ) -> list[CandidateStats]:
        cands = candidates(state, ch, fallback, greedy, self.max_candidates)
        cands = [a for a in cands if a is fallback or _allowed(state, ch, a)]
        self.last_playouts = 0
        if len(cands) < 2:
            return []
        base = rng.getrandbits(64)
        rows = self._run(state, cands, ch.player, base)
        self.last_playouts = sum(1 for r in rows for o in r if o is not None)
        return rank(cands, rows)

    def _run(self, state: State, cands: list[Action], me: int, base: int) -> list[list[Outcome | None]]:
        """Playouts of the candidates, a row per iteration (None where a candidate was not
        played).  The first SCREEN_ITERATIONS iterations play every candidate; the rest only
        greedy's choice and the best of the others so far, so that the comparison that decides
        gets most of the budget."""
        limit = self.playouts
        # the budget counts from the start of the decision (greedy's choice, the candidates)
        deadline = None if self.think is None else self._started + self.think * DEADLINE_SHARE
        n = len(cands)
        screen = SCREEN_ITERATIONS if n > 2 else 0
        rows: list[list[Outcome | None]] = []
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
        sub = [cands[j] for j in keep]
        rest = self._iterations(
            state, sub, me, base, screen, MAX_ITERATIONS, deadline, None if limit is None else limit - used
        )
        for r in rest:
            row: list[Outcome | None] = [None] * n
            for j, o in zip(keep, r, strict=True):
                row[j] = o
            rows.append(row)
        return rows

    def _iterations(
        self,
        state: State,
        cands: list[Action],
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
        done = run_iterations(state, cands, me, base, range(start, stop), seconds, max_playouts, self.clock)
        return [row for _, row in done]

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


def _ready() -> bool:
    """Run in a new worker: the engine and the bots are imported, the worker is ready."""
    return True


def _share(total: int, w: int, workers: int) -> int:
    """Iterations worker ``w`` plays out of ``total`` dealt round robin."""
    return total // workers + (1 if w < total % workers else 0)


def rank(cands: Sequence[Action], rows: Sequence[Sequence[Outcome | None]]) -> list[CandidateStats]:
    """Candidates best first.  ``cands[0]`` is greedy's choice; the choice is among the
    candidates played most (the finalists of the screening), and another candidate than
    greedy's goes first only when its paired advantage over greedy's is clear (see SWITCH_Z)."""
    stats = []
    for j, a in enumerate(cands):
        col = [o for r in rows if (o := r[j]) is not None]
        n = len(col)
        stats.append(
            CandidateStats(
                action=a,
                score=sum(o.score for o in col) / n if n else 0.0,
                win_share=sum(1 for o in col if o.won) / n if n else 0.0,
                acclaim=sum(o.acclaim for o in col) / n if n else 0.0,
                playouts=n,
                greedy=j == 0,
            )
        )
    most = max(c.playouts for c in stats)
    order = sorted(range(len(cands)), key=lambda j: (-stats[j].score, j))
    best = next(j for j in order if stats[j].playouts == most)
    if best != 0 and not _clearly_better(rows, best, 0):
        best = 0
    return [stats[best]] + [stats[j] for j in order if j != best]


def _clearly_better(rows: Sequence[Sequence[Outcome | None]], j: int, k: int) -> bool:
    diffs = [a.score - b.score for r in rows if (a := r[j]) is not None and (b := r[k]) is not None]
    n = len(diffs)
    if n < MIN_ITERATIONS:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > MIN_GAIN and mean > SWITCH_Z * math.sqrt(var / n)


def _safe(ch: Choices) -> Action:
    """A pass, an end of turn or a refusal where one is offered, else the last legal action."""
    for kind in (PassBid, EndTurn, RejectDeal, CancelDeal):
        for a in ch.actions:
            if isinstance(a, kind):
                return a
    return ch.actions[-1]


def _allowed(state: State, ch: Choices, action: Action) -> bool:
    """``action`` is among the choices offered and the engine takes it."""
    if isinstance(action, (OpenAuction, Raise)):
        market = action.market if isinstance(action, OpenAuction) else -1
        if not any(o.market == market and o.low <= action.bid <= o.high for o in ch.bids):
            return False
    elif isinstance(action, ProposeDeal):
        if not ch.can_propose:
            return False
    elif action not in ch.actions:
        return False
    try:
        apply(state, action)
    except RuleError:
        return False
    return True


# ---------------------------------------------------------------------- candidates


def candidates(state: State, ch: Choices, first: Action, greedy: GreedyBot, cap: int) -> list[Action]:
    """A short list of actions worth comparing, ``first`` (greedy's choice) first, no repeats."""
    cat = load_catalog(state.setup.variant)
    seat = ch.player
    finder = _FINDERS.get(state.phase)
    more = finder(state, cat, seat, ch, greedy) if finder is not None else []
    out = [first]
    if state.phase == "hire":
        cap += 1  # auctions are where the search gains most: one more candidate there
    for a in more:
        if a not in out:
            out.append(a)
        if len(out) >= cap:
            break
    return out


def _of(acts: Sequence[Action], kind: type) -> list[Action]:
    return [a for a in acts if isinstance(a, kind)]


def _setup(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot) -> list[Action]:
    n_sp = cat.track_spaces

    def attraction(a: Action) -> float:
        assert isinstance(a, PlaceStartGates)
        return sum(g.gate_attraction(state, cat, (a.space + d) % n_sp) for d in range(-1, 3))

    return sorted(_of(ch.actions, PlaceStartGates), key=attraction, reverse=True)[:3]


def _invest(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot) -> list[Action]:
    acts = [a for a in ch.actions if getattr(a, "extra", "") == ""]
    out: list[Action] = _of(acts, EndTurn) + _of(acts, HirePromoter)
    ids = {cat.spectacles[sid].key: sid for sid in state.display}
    plans = [a for a in acts if isinstance(a, PlanSpectacle) and a.spectacle in ids]

    def fit(a: PlanSpectacle) -> float:
        return g.spectacle_fit(state, cat, seat, cat.spectacles[ids[a.spectacle]])

    plans.sort(key=fit, reverse=True)
    gates = sorted((a for a in acts if isinstance(a, BuildGate)), key=lambda a: -g.gate_attraction(state, cat, a.space))
    return out + plans[:1] + gates[:1] + _of(acts, BuildTemple) + plans[1:2]


def _hire(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot) -> list[Action]:
    h = state.hire
    assert h is not None
    out: list[Action] = []
    if h.auction is not None:
        out += _of(ch.actions, PassBid)
        lot = state.markets[h.auction.market]
        top = g.max_bid(state, cat, seat, lot)
        for opt in ch.bids:
            for bid in (h.auction.high + 1, top, h.auction.high + 3, h.auction.high + 2):
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


def _trade(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot) -> list[Action]:
    t = state.trade
    if t is None or t.deal is None:
        return []  # proposing: greedy's plan (a deal or the end of the turn), no search
    return [a for a in ch.actions if isinstance(a, (AcceptDeal, RejectDeal, CloseDeal, CancelDeal))]


def _perform(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot) -> list[Action]:
    pt = state.perform
    assert pt is not None
    if pt.stage == "mode":
        return _of(ch.actions, ChooseDice)
    if pt.stage == "after":
        performs = _of(ch.actions, Perform)
        plain = [a for a in performs if isinstance(a, Perform) and a.aquilas == 0]
        return plain + [a for a in performs if a not in plain][:1]
    return []  # rolling and noble moves: greedy scores every move sequence already


def _closing(state: State, cat: Catalog, seat: int, ch: Choices, g: GreedyBot) -> list[Action]:
    cl = state.closing
    assert cl is not None
    p = state.players[seat]
    if cl.stage in ("retire", "steal"):
        kind: type = Retire if cl.stage == "retire" else Steal
        sign = -1 if cl.stage == "retire" else 1

        def value(a: Action) -> float:
            tile = a.tile if isinstance(a, (Retire, Steal)) else ""
            return g.tile_utility(state, cat, seat, g.tiles_plus(p.tiles, (cat.index[tile],), sign))

        return sorted(_of(ch.actions, kind), key=value, reverse=True)[:3] + _of(ch.actions, EndTurn)
    return _of(ch.actions, ChooseFirstPlayer)


_Finder = Callable[[State, Catalog, int, Choices, GreedyBot], list[Action]]
_FINDERS: dict[str, _Finder] = {
    "setup": _setup,
    "invest": _invest,
    "hire": _hire,
    "trade": _trade,
    "perform": _perform,
    "closing": _closing,
}
