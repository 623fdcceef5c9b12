"""Whole Municipium games played by bots: ``play_game(setup, bots, check=True)`` for tests and
the later ``simulate --game municipium``.  Never imports Textual."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import invariants
from colosseum.core.games.municipium.actions import MuniAction
from colosseum.core.games.municipium.bots import ALIASES, MuniBot, make_bot
from colosseum.core.games.municipium.engine import apply, new_game, to_act
from colosseum.core.games.municipium.model import MuniSetup, State


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


def main(args: Any) -> int:
    """``colosseum simulate --game municipium``: ``args.games`` games from seed ``args.seed``
    (game ``i`` uses seed ``S + i``), bots by seat (the last name fills the table), seats
    rotated each game; one JSON object per game (``game``, winner, decurions, …) with
    ``--json``, then the totals.  Exit status 1 if a game fails its checks."""
    import sys
    from collections import Counter

    players = int(args.players)
    if not 2 <= players <= 4:
        print("colosseum simulate: Municipium is played by 2 to 4 players", file=sys.stderr)
        return 2
    names = [n.strip() for n in str(args.bots).split(",") if n.strip()] or ["greedy"]
    names = [ALIASES.get(n, n) for n in names]
    if len(names) > players:
        print(f"colosseum simulate: {len(names)} bots named for {players} players", file=sys.stderr)
        return 2
    names += [names[-1]] * (players - len(names))
    wins: Counter[str] = Counter()
    t0 = time.perf_counter()
    total_actions = 0
    for i in range(int(args.games)):
        seed = int(args.seed) + i
        seats = names[i % players :] + names[: i % players]
        try:
            rec = play_game(make_setup(players, seed, args.options), make_bots(seats, seed), check=bool(args.check))
        except (MuniSimulationError, ValueError) as e:
            print(f"colosseum simulate: FAILED in game {i + 1}: {e}", file=sys.stderr)
            return 1
        wins[rec.winner_bot] += 1
        total_actions += rec.actions
        if args.json:
            out = msgspec.structs.asdict(rec)
            out["game"] = "municipium"
            sys.stdout.write(msgspec.json.encode(out).decode() + "\n")
        else:
            print(
                f"game {i + 1} seed {seed}: {rec.winner_bot} (seat {rec.winner}) wins with "
                f"{rec.decurions[rec.winner]} decurions in {rec.turns} turns"
            )
    seconds = time.perf_counter() - t0
    totals = {"game": "municipium", "games": int(args.games), "wins_by_bot": dict(wins), "actions": total_actions}
    if args.json:
        sys.stdout.write(msgspec.json.encode({"totals": totals, "seconds": round(seconds, 3)}).decode() + "\n")
    else:
        print(f"wins by bot: {dict(wins)}; {total_actions} actions in {seconds:.2f} s")
    return 0
