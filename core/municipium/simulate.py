"""Whole Municipium games played by bots: ``play_game(setup, bots, check=True)`` for tests and
the later ``simulate --game municipium``.  Never imports Textual."""

from __future__ import annotations

import time
from collections.abc import Sequence

import msgspec

from colosseum.core.errors import RuleError

from . import invariants
from .actions import MuniAction
from .bots import MuniBot, make_bot
from .engine import apply, new_game, to_act
from .model import MuniSetup, State


class MuniSimulationError(Exception):
    """A game could not be played through: an invariant failed or a bot acted illegally."""


class MuniGameRecord(msgspec.Struct, kw_only=True):
    seed: int
    options: tuple[str, ...]
    seats: tuple[str, ...]  # bot name by seat
    winner: int
    winner_bot: str
    decurions: tuple[int, ...]
    held: tuple[int, ...]  # favours + citizens at the end (M-11.2)
    ranks: tuple[int, ...]  # 1 = winner, by seat
    decided_by: str  # what separated the winner from the runner-up
    turns: int
    actions: int
    seconds: float


def make_setup(players: int, seed: int, options: Sequence[str] = ()) -> MuniSetup:
    return MuniSetup(players=tuple(f"P{i + 1}" for i in range(players)), seed=seed, options=tuple(options))


def make_bots(names: Sequence[str], seed: int) -> list[MuniBot]:
    """One bot per seat, each with its own seed derived from the game seed."""
    return [make_bot(n, seed * 31 + i) for i, n in enumerate(names)]


def play_game(
    setup: MuniSetup, bots: Sequence[MuniBot], check: bool = True, max_actions: int = 20_000
) -> MuniGameRecord:
    """Play one whole game; with ``check`` verify the invariants after every action."""
    t0 = time.perf_counter()
    state = new_game(setup)
    if check:
        _verify(state, None, None, setup)
    count = 0
    while True:
        seat = to_act(state)
        if seat < 0:
            break
        action = bots[seat].act(state)
        try:
            nxt, _ = apply(state, action)
        except RuleError as e:
            raise MuniSimulationError(
                f"seed {setup.seed}: {bots[seat].name} at seat {seat} played an illegal action {action!r}: {e}"
            ) from e
        if check:
            _verify(nxt, state, action, setup)
        state = nxt
        count += 1
        if count >= max_actions:
            raise MuniSimulationError(f"seed {setup.seed}: no end within {max_actions} actions")
    return _record(state, bots, count, time.perf_counter() - t0)


def _verify(state: State, previous: State | None, action: MuniAction | None, setup: MuniSetup) -> None:
    problems = invariants.check(state, previous)
    if problems:
        after = f" after {action!r}" if action is not None else " at the start"
        raise MuniSimulationError(f"seed {setup.seed}: invariant violated{after}:\n  " + "\n  ".join(problems))


def _record(state: State, bots: Sequence[MuniBot], count: int, seconds: float) -> MuniGameRecord:
    res = state.result
    assert res is not None
    ranks = [0] * state.n
    for s in res.standings:
        ranks[s.seat] = s.rank
    return MuniGameRecord(
        seed=state.setup.seed,
        options=state.setup.options,
        seats=tuple(b.name for b in bots),
        winner=res.winner,
        winner_bot=bots[res.winner].name,
        decurions=tuple(p.decurions for p in state.players),
        held=tuple(sum(p.citizens) + p.favours for p in state.players),
        ranks=tuple(ranks),
        decided_by=res.standings[0].decided_by,
        turns=state.turn,
        actions=count,
        seconds=seconds,
    )
