"""``colosseum simulate``: whole games played by bots, with results and speed, for any game.

Reusable from tests and benchmarks::

    from colosseum.core.simulate import play_game, make_setup, make_bots
    setup = make_setup(4, seed=1, variant="classic")          # Colosseum, the default game
    rec = play_game(setup, make_bots(["normal"] * 4, 1), check=True)
    rec.winner, rec.scores, rec.actions

Game ``i`` of a run uses seed ``S + i``.  Bots are given by seat (``--bots``); with fewer names
than players the last name is repeated.  The game's rules (``core.game.Rules``) play it:
``--check`` verifies the game's invariants after every action.  Never imports Textual.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.options import OptionError, option_values
from colosseum.core.registry import game_of, spec

__all__ = [
    "GameRecord",
    "SimulationError",
    "main",
    "make_bots",
    "make_setup",
    "play_game",
    "play_series",
    "seat_bots",
]


class SimulationError(Exception):
    """A game could not be played through: an invariant failed or a bot acted illegally."""


class GameRecord(msgspec.Struct, kw_only=True):
    """One game played by bots.  ``details`` are the game's own figures at the end
    (``Rules.record_details``: Colosseum's Acclaim, coins, Star Performers, ...); the JSON line
    of ``colosseum simulate --json`` has them beside the others."""

    game: str
    seed: int
    options: dict[str, Any]  # the setup's options that differ from their defaults
    seats: tuple[str, ...]  # bot name by seat
    names: tuple[str, ...]  # player names by seat
    winner: int  # 0-based seat (the first of them when several share the win)
    winner_bot: str
    shared: tuple[int, ...] = ()  # every seat sharing the win, when more than one does
    scores: tuple[int, ...]  # the game's score by seat (Acclaim, decurions)
    ranks: tuple[int, ...]  # 1 = first; a shared place has one number
    actions: int
    seconds: float
    # think time per decision by seat (seconds): median and maximum over the seat's decisions
    think_median: tuple[float, ...] = ()
    think_max: tuple[float, ...] = ()
    details: dict[str, Any] = {}

    def as_json(self) -> dict[str, Any]:
        out = msgspec.to_builtins(self)
        out.update(out.pop("details"))
        return out  # type: ignore[no-any-return]


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
    players: int, seed: int, bots: Sequence[str] | None = None, *, game: str | None = None, **options: Any
) -> Any:
    """A setup of ``game`` (the default game if None) for ``players`` bots named after their
    level by seat (``normal0``, ``random1``...); ``options`` by their field names."""
    found = spec(game)
    names = list(bots) if bots else ["bot"] * players
    options = {k: (tuple(v) if isinstance(v, list) else v) for k, v in options.items() if v is not None}
    return found.make_setup(tuple(f"{b}{i}" for i, b in enumerate(names)), seed=seed, **options)


def make_bots(names: Sequence[str], seed: int, think: float | None = None, *, game: str | None = None) -> list[Any]:
    """One bot per seat (``names``: levels), each seeded from the game's seed."""
    rules = spec(game).rules()
    return [rules.make_bot(name, seed * 31 + i, think) for i, name in enumerate(names)]


def play_game(
    setup: Any,
    bots: Sequence[Any],
    check: bool = False,
    max_actions: int = 50_000,
    on_action: Callable[[Any, Any, Any], object] | None = None,
    think_times: list[list[float]] | None = None,
) -> GameRecord:
    """Play one whole game.  With ``check`` verify the game's invariants after every action.
    ``think_times`` (if given) receives each seat's decision times in seconds.

    Raises :class:`SimulationError` if an invariant fails, a bot's action is rejected or the
    game does not end within ``max_actions``."""
    rules = game_of(setup).rules()
    t0 = time.perf_counter()
    state = rules.new_game(setup)
    if check:
        _verify(rules, state, None, None, setup)
    n_actions = 0
    times: list[list[float]] = [[] for _ in bots]
    clock = time.perf_counter
    to_act, apply = rules.to_act, rules.apply
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
            _verify(rules, nxt, state, action, setup)
        if on_action is not None:
            on_action(state, action, nxt)
        state = nxt
        n_actions += 1
        if n_actions >= max_actions:
            raise SimulationError(f"seed {setup.seed}: the game did not end within {max_actions} actions")
    if think_times is not None:
        think_times[:] = times
    rec = record_of(rules, state, bots, time.perf_counter() - t0, n_actions)
    rec.think_median = tuple(round(statistics.median(ts), 6) if ts else 0.0 for ts in times)
    rec.think_max = tuple(round(max(ts), 6) if ts else 0.0 for ts in times)
    return rec


def _verify(rules: Any, state: Any, previous: Any, action: Any, setup: Any) -> None:
    problems = rules.invariants(state, previous)
    if problems:
        after = f" after action {action!r}" if action is not None else " at the start"
        lines = "\n  ".join(problems)
        raise SimulationError(f"seed {setup.seed}: invariant violated{after} ({rules.progress(state)}):\n  {lines}")


def record_of(rules: Any, state: Any, bots: Sequence[Any], seconds: float, n_actions: int) -> GameRecord:
    ranks = rules.ranks(state)
    assert ranks is not None, "the game is not over"
    winners = rules.winners(state)
    seats = tuple(getattr(b, "name", "bot") for b in bots)
    return GameRecord(
        game=rules.spec.name,
        seed=state.setup.seed,
        options=option_values(state.setup),
        seats=seats,
        names=tuple(rules.names(state)),
        winner=winners[0],
        winner_bot=seats[winners[0]],
        shared=winners if len(winners) > 1 else (),
        scores=tuple(rules.scores(state)),
        ranks=tuple(ranks),
        actions=n_actions,
        seconds=seconds,
        details=rules.record_details(state),
    )


def play_series(
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    check: bool = False,
    rotate: bool = False,
    *,
    game: str | None = None,
    **options: Any,
) -> Iterator[GameRecord]:
    """Yield a GameRecord per game; game ``i`` uses seed ``seed + i``.  With ``rotate`` the bot
    list is rotated one seat per game (so every bot sits in every seat)."""
    names = seat_bots(bots, players)
    for i in range(games):
        order = names[i % players :] + names[: i % players] if rotate else names
        setup = make_setup(players, seed + i, order, game=game, **options)
        yield play_game(setup, make_bots(order, seed + i, game=game), check=check)


# ---------------------------------------------------------------------- the command

_json = msgspec.json.Encoder()


def _text_line(rec: GameRecord, score: str, score_name: str = "") -> str:
    """One game's line; ``score`` the edition's word for the score ("spectators"), ``score_name``
    the game's (what ``decided_by`` says when the score itself decided: no tie-break)."""
    parts = []
    for s in range(len(rec.seats)):
        mark = "*" if s == rec.winner or s in rec.shared else " "
        n = rec.scores[s]
        word = score[:-1] if n == 1 and score.endswith("s") else score  # "1 decurion"
        parts.append(f"{mark}{s}:{rec.seats[s]} {n:>3} {word}")
    decided = rec.details.get("decided_by", "")
    tie = f" (tie-break: {decided})" if decided and decided.casefold() != (score_name or score).casefold() else ""
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


def _options_of(args: argparse.Namespace, game: str | None) -> dict[str, Any]:
    """The game's options as the command line gave them (by field name; None: not given)."""
    out: dict[str, Any] = {}
    for option in spec(game).options:
        value = getattr(args, option.name, None)
        if value is not None and value != [] and value != option.default:
            out[option.name] = tuple(value) if isinstance(value, list) else value
    return out


def main(args: argparse.Namespace) -> int:
    game = getattr(args, "game", None)
    found = spec(game)
    rules = found.rules()
    players = int(getattr(args, "players", None) or found.default_players)
    games = int(getattr(args, "games", 10))
    seed = int(getattr(args, "seed", 1))
    check = bool(getattr(args, "check", False))
    as_json = bool(getattr(args, "json", False))
    think = getattr(args, "think", None)
    think = None if think is None else float(think)
    err = sys.stderr
    if think is not None and think <= 0:
        print("colosseum simulate: --think must be more than 0 seconds", file=err)
        return 2
    out = sys.stdout
    try:
        names = seat_bots(str(getattr(args, "bots", None) or "normal,random").split(","), players)
    except ValueError as e:
        print(f"colosseum simulate: {e}", file=err)
        return 2
    known = rules.bot_names()
    unknown = sorted({n for n in names if n not in known})
    if unknown:
        print(f"colosseum simulate: unknown bot {', '.join(unknown)}; choose from {', '.join(known)}", file=err)
        return 2
    if games < 0:
        print("colosseum simulate: --games must be 0 or more", file=err)
        return 2
    options = _options_of(args, game)
    try:
        first = make_setup(players, seed, names, game=found.name, **options)
    except OptionError as e:
        print(f"colosseum simulate: {e}", file=err)
        return 2
    score_word = rules.score_word(rules.new_game(first))  # the edition's word ("spectators")
    wins: Counter[str] = Counter()
    wins_seat = [0] * players
    total_actions = 0
    total_time = 0.0
    played = 0
    think_by_bot: dict[str, list[float]] = {b: [] for b in dict.fromkeys(names)}
    for i in range(games):
        setup = make_setup(players, seed + i, names, game=found.name, **options)
        seat_times: list[list[float]] = []
        try:
            rec = play_game(
                setup, make_bots(names, seed + i, think, game=found.name), check=check, think_times=seat_times
            )
        except SimulationError as e:
            out.flush()
            print(f"colosseum simulate: FAILED in game {i + 1}: {e}", file=err)
            return 1
        except Exception as e:  # noqa: BLE001 - an engine crash is a failure too: report it with the seed to replay it
            out.flush()
            print(f"colosseum simulate: FAILED in game {i + 1} (seed {seed + i}): {type(e).__name__}: {e}", file=err)
            return 1
        played += 1
        for s, ts in enumerate(seat_times):
            think_by_bot[names[s]].extend(ts)
        wins[rec.winner_bot] += 1
        wins_seat[rec.winner] += 1
        total_actions += rec.actions
        total_time += rec.seconds
        if as_json:
            out.write(_json.encode(rec.as_json()).decode() + "\n")
        else:
            out.write(_text_line(rec, score_word, rules.score_name) + "\n")
    rate = total_actions / total_time if total_time > 0 else 0.0
    by_bot = {b: wins.get(b, 0) for b in dict.fromkeys(names)}
    seats_of = Counter(names)
    if as_json:
        totals = {
            "totals": True,
            "game": found.name,
            "games": played,
            "players": players,
            "options": options,
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
        chosen = ", ".join(f"{k}={v}" for k, v in options.items())
        out.write(
            f"totals: {played} game{'' if played == 1 else 's'} of {found.title}, {players} players"
            + (f", {chosen}" if chosen else "")
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
    return 0
