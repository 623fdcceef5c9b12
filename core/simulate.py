"""``colosseum simulate``: whole games played by bots, with results and speed.

Reusable from tests and benchmarks::

    from colosseum.core.simulate import play_game, make_setup
    rec = play_game(make_setup(4, seed=1), [make_bot("greedy", 1), ...], check=True)
    rec.winner, rec.acclaim, rec.actions

Game ``i`` of a run uses seed ``S + i``.  Bots are given by seat (``--bots``); with fewer names
than players the last name is repeated.  Never imports Textual.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.games.colosseum import invariants
from colosseum.core.games.colosseum.actions import Action
from colosseum.core.games.colosseum.bots import BOTS, Bot, make_bot
from colosseum.core.games.colosseum.engine import apply, to_act
from colosseum.core.games.colosseum.model import GameSetup, State


class SimulationError(Exception):
    """A game could not be played through: an invariant failed or a bot acted illegally."""


class GameRecord(msgspec.Struct, kw_only=True):
    seed: int
    variant: str
    options: tuple[str, ...]
    seats: tuple[str, ...]  # bot name by seat
    names: tuple[str, ...]  # player names by seat
    winner: int  # 0-based seat
    winner_bot: str
    # everyone sharing the win when no tie-break separates them (winner first); empty when
    # one player wins alone
    shared: tuple[int, ...] = ()
    acclaim: tuple[int, ...]
    coins: tuple[int, ...]
    stars: tuple[int, ...]  # Star Performers held at the end (tie-break 2)
    stack: tuple[int, ...]  # marker stack order (tie-break 3: lower = further down)
    ranks: tuple[int, ...]  # 1 = winner
    decided_by: str  # what separated the winner from the runner-up
    rounds: int
    actions: int
    seconds: float
    # think time per decision by seat (seconds): median and maximum over the seat's decisions
    think_median: tuple[float, ...] = ()
    think_max: tuple[float, ...] = ()


def seat_bots(names: Sequence[str], players: int) -> list[str]:
    """Bot names by seat: the list as given, the last name repeated to fill the table (so a
    short list such as the default ``greedy,random`` fits every player count)."""
    names = [n.strip() for n in names if n.strip()]
    if not names:
        raise ValueError("give at least one bot name")
    if len(names) > players:
        raise ValueError(f"{len(names)} bots named for {players} players")
    return names + [names[-1]] * (players - len(names))


def make_setup(
    players: int, seed: int, bots: Sequence[str] | None = None, variant: str = "grand", options: Sequence[str] = ()
) -> GameSetup:
    bots = list(bots) if bots else ["bot"] * players
    names = tuple(f"{b}{i}" for i, b in enumerate(bots))
    return GameSetup(players=names, seed=seed, variant=variant, options=tuple(options))


def make_bots(names: Sequence[str], seed: int, think: float | None = None) -> list[Bot]:
    """One bot per seat, each with its own seed derived from the game seed; ``think``: the hard
    bot's seconds per decision (None: its default)."""
    return [make_bot(n, seed * 31 + i, think) for i, n in enumerate(names)]


def play_game(
    setup: GameSetup,
    bots: Sequence[Bot],
    check: bool = False,
    max_actions: int = 50_000,
    on_action: Callable[[State, Action, State], object] | None = None,
    think_times: list[list[float]] | None = None,
) -> GameRecord:
    """Play one whole game.  With ``check`` verify ``invariants.check`` after every action.
    ``think_times`` (if given) receives each seat's decision times in seconds.

    Raises :class:`SimulationError` if an invariant fails, a bot's action is rejected or the
    game does not end within ``max_actions``."""
    from colosseum.core.games.colosseum.engine import new_game

    t0 = time.perf_counter()
    state = new_game(setup)
    if check:
        _verify(state, None, None, setup)
    n_actions = 0
    times: list[list[float]] = [[] for _ in bots]
    clock = time.perf_counter
    while True:
        seat = to_act(state)
        if seat < 0:
            break
        t = clock()
        action = bots[seat].act(state)
        times[seat].append(clock() - t)
        try:
            nxt, _ = apply(state, action)
        except RuleError as e:
            raise SimulationError(
                f"seed {setup.seed}: {getattr(bots[seat], 'name', 'bot')} at seat {seat} played an illegal "
                f"action #{n_actions + 1} {action!r}: {e}"
            ) from e
        if check:
            _verify(nxt, state, action, setup)
        if on_action is not None:
            on_action(state, action, nxt)
        state = nxt
        n_actions += 1
        if n_actions >= max_actions:
            raise SimulationError(f"seed {setup.seed}: the game did not end within {max_actions} actions")
    if think_times is not None:
        think_times[:] = times
    rec = record_of(state, bots, time.perf_counter() - t0, n_actions)
    rec.think_median = tuple(round(statistics.median(ts), 6) if ts else 0.0 for ts in times)
    rec.think_max = tuple(round(max(ts), 6) if ts else 0.0 for ts in times)
    return rec


def _verify(state: State, previous: State | None, action: Action | None, setup: GameSetup) -> None:
    problems = invariants.check(state, previous)
    if problems:
        after = f" after action #{state.actions} {action!r}" if action is not None else " at the start"
        lines = "\n  ".join(problems)
        raise SimulationError(
            f"seed {setup.seed}: invariant violated{after} (round {state.round}, {state.phase}):\n  {lines}"
        )


def record_of(state: State, bots: Sequence[Bot], seconds: float, n_actions: int) -> GameRecord:
    res = state.result
    assert res is not None, "the game is not over"
    n = state.n
    stars = [0] * n
    ranks = [0] * n
    for st in res.standings:
        stars[st.seat] = st.stars
        ranks[st.seat] = st.rank
    seats = tuple(getattr(b, "name", "bot") for b in bots)
    return GameRecord(
        seed=state.setup.seed,
        variant=state.setup.variant,
        options=tuple(state.setup.options),
        seats=seats,
        names=tuple(p.name for p in state.players),
        winner=res.winner,
        winner_bot=seats[res.winner],
        shared=tuple(res.shared),
        acclaim=tuple(p.acclaim for p in state.players),
        coins=tuple(p.coins for p in state.players),
        stars=tuple(stars),
        stack=tuple(p.seq for p in state.players),
        ranks=tuple(ranks),
        decided_by=res.standings[0].decided_by,
        rounds=state.round,
        actions=n_actions,
        seconds=seconds,
    )


def play_series(
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    variant: str = "grand",
    options: Sequence[str] = (),
    check: bool = False,
    rotate: bool = False,
) -> Iterator[GameRecord]:
    """Yield a GameRecord per game; game ``i`` uses seed ``seed + i``.  With ``rotate`` the bot
    list is rotated one seat per game (so every bot sits in every seat)."""
    names = seat_bots(bots, players)
    for i in range(games):
        order = names[i % players :] + names[: i % players] if rotate else names
        setup = make_setup(players, seed + i, order, variant, options)
        yield play_game(setup, make_bots(order, seed + i), check=check)


# ---------------------------------------------------------------------- the command

_json = msgspec.json.Encoder()


def _text_line(rec: GameRecord) -> str:
    parts = []
    for s in range(len(rec.seats)):
        mark = "*" if s == rec.winner or s in rec.shared else " "
        parts.append(
            f"{mark}{s}:{rec.seats[s]} {rec.acclaim[s]:>3} Acclaim {rec.coins[s]:>3} coins {rec.stars[s]} stars"
        )
    tie = f" (tie-break: {rec.decided_by})" if rec.decided_by and rec.decided_by != "acclaim" else ""
    if len(rec.shared) > 1:
        won = "shared win " + ", ".join(f"{rec.seats[s]} (seat {s})" for s in rec.shared)
    else:
        won = f"winner {rec.winner_bot} (seat {rec.winner}){tie}"
    return f"seed {rec.seed}: {won} | " + " | ".join(parts) + f" | {rec.actions} actions"


def _think_figures(times: Sequence[float]) -> dict[str, float]:
    """Decisions, median and maximum think time (seconds) of a bot over a run."""
    if not times:
        return {"decisions": 0, "median": 0.0, "max": 0.0}
    return {"decisions": len(times), "median": round(statistics.median(times), 6), "max": round(max(times), 6)}


def main(args: argparse.Namespace) -> int:
    players = int(getattr(args, "players", 4))
    games = int(getattr(args, "games", 10))
    seed = int(getattr(args, "seed", 1))
    variant = getattr(args, "variant", "grand") or "grand"
    options = tuple(getattr(args, "options", None) or ())
    check = bool(getattr(args, "check", False))
    as_json = bool(getattr(args, "json", False))
    think = getattr(args, "think", None)
    think = None if think is None else float(think)
    if think is not None and think <= 0:
        print("colosseum simulate: --think must be more than 0 seconds", file=sys.stderr)
        return 2
    out = sys.stdout
    try:
        names = seat_bots(str(getattr(args, "bots", "greedy,random")).split(","), players)
    except ValueError as e:
        print(f"colosseum simulate: {e}", file=sys.stderr)
        return 2
    unknown = sorted({n for n in names if n not in BOTS})
    if unknown:
        print(
            f"colosseum simulate: unknown bot {', '.join(unknown)}; choose from {', '.join(sorted(BOTS))}",
            file=sys.stderr,
        )
        return 2
    if games < 0:
        print("colosseum simulate: --games must be 0 or more", file=sys.stderr)
        return 2
    wins: Counter[str] = Counter()
    wins_seat = [0] * players
    total_actions = 0
    total_time = 0.0
    played = 0
    think_by_bot: dict[str, list[float]] = {b: [] for b in dict.fromkeys(names)}
    for i in range(games):
        setup = make_setup(players, seed + i, names, variant, options)
        seat_times: list[list[float]] = []
        try:
            rec = play_game(setup, make_bots(names, seed + i, think), check=check, think_times=seat_times)
        except SimulationError as e:
            out.flush()
            print(f"colosseum simulate: FAILED in game {i + 1}: {e}", file=sys.stderr)
            return 1
        except Exception as e:  # noqa: BLE001 - an engine crash is a failure too: report it with the seed to replay it
            out.flush()
            print(
                f"colosseum simulate: FAILED in game {i + 1} (seed {seed + i}): {type(e).__name__}: {e}",
                file=sys.stderr,
            )
            return 1
        played += 1
        for s, ts in enumerate(seat_times):
            think_by_bot[names[s]].extend(ts)
        wins[rec.winner_bot] += 1
        wins_seat[rec.winner] += 1
        total_actions += rec.actions
        total_time += rec.seconds
        if as_json:
            out.write(_json.encode(rec).decode() + "\n")
        else:
            out.write(_text_line(rec) + "\n")
    rate = total_actions / total_time if total_time > 0 else 0.0
    by_bot = {b: wins.get(b, 0) for b in dict.fromkeys(names)}
    seats_of = Counter(names)
    if as_json:
        totals = {
            "totals": True,
            "games": played,
            "players": players,
            "variant": variant,
            "options": list(options),
            "seats": names,
            "wins_by_bot": by_bot,
            "wins_by_seat": wins_seat,
            "actions": total_actions,
            "seconds": round(total_time, 6),
            "actions_per_sec": round(rate, 1),
            "checked": check,
            "think": think,
            "think_by_bot": {b: _think_figures(ts) for b, ts in think_by_bot.items()},
        }
        out.write(_json.encode(totals).decode() + "\n")
    else:
        share = ", ".join(
            f"{b} {w} ({100.0 * w / played:.1f}% of games, {seats_of[b]} seat{'s' if seats_of[b] > 1 else ''})"
            if played
            else f"{b} 0"
            for b, w in by_bot.items()
        )
        out.write(
            f"totals: {played} games, {players} players, {variant}"
            + (f" +{','.join(options)}" if options else "")
            + (", invariants checked" if check else "")
            + "\n"
        )
        out.write(f"wins by bot: {share}\n")
        out.write(f"wins by seat: {' '.join(f'{s}:{w}' for s, w in enumerate(wins_seat))}\n")
        figures = [(b, _think_figures(ts)) for b, ts in think_by_bot.items() if ts]
        if figures:
            out.write(
                "think time per decision: "
                + "; ".join(f"{b} median {f['median']:.4f} s, max {f['max']:.3f} s" for b, f in figures)
                + "\n"
            )
        out.write(f"{total_actions} actions in {total_time:.2f} s = {rate:,.0f} actions/s\n")
    out.flush()
    return 0
