"""How strong is a bot level?  One bot of a level against the rest of the table of another.

    python scripts/strength.py                                   # 8 games, hard vs normal, 0.1 s
    python scripts/strength.py --games 16 --think 0.3 --levels hard,normal --jobs 2
    python scripts/strength.py --games 20 --levels easy,random
    python scripts/strength.py --games 100 --think 0.3 --cpu-clock      # on a busy machine
    python scripts/strength.py --games 40 --playouts 24                  # a node budget

It ends with the README's table row.  ``--cpu-clock`` counts hard's budget in CPU seconds of
its own process, so that a machine shared with other work still gives the figures of a free
core (the wall-clock think times printed are then longer than the budget); ``--playouts`` gives
hard a fixed number of playouts a decision instead (independent of the machine altogether).

Game ``i`` uses seed ``--seed + i`` and puts the single bot of the first level at seat
``i mod players`` (seat rotation); the other seats get the second level.  Prints the first
level's win share with the games count and a 95% Wilson interval (a fair share is
1/players), mean Acclaim and the median and worst think time per decision of each level.
Levels: hard (search, ``--think`` seconds a decision), normal (greedy; also ``greedy``), easy,
random.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from colosseum.core.games.colosseum import Action, State
from colosseum.core.games.colosseum.bots import Bot, make_bot
from colosseum.core.simulate import make_setup, play_game

LEVELS = ("hard", "normal", "easy", "random")


def build(level: str, seed: int, think: float, playouts: int | None = None, clock: str = "wall") -> Bot:
    """A bot of ``level``; hard thinks ``think`` seconds a decision, or plays ``playouts``
    playouts a decision when given (a budget independent of the machine's speed and load)."""
    if level == "hard" and playouts:
        from colosseum.core.games.colosseum.bots.search import SearchBot

        return SearchBot(seed, think=None, playouts=playouts)
    if level == "hard" and clock != "wall":
        from colosseum.core.games.colosseum.bots.search import SearchBot

        return SearchBot(seed, think=think, clock=clock)
    if level not in (*LEVELS, "greedy"):
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    return make_bot(level, seed, think if level == "hard" else None)


class Timed:
    """A bot that records how long each of its decisions takes."""

    def __init__(self, bot: Bot, name: str) -> None:
        self.bot = bot
        self.name = name
        self.times: list[float] = []

    def act(self, state: State) -> Action:
        t0 = time.perf_counter()
        a = self.bot.act(state)
        self.times.append(time.perf_counter() - t0)
        return a


@dataclass
class GameResult:
    seed: int
    seat: int  # the single bot's seat
    won: bool
    acclaim: int  # the single bot's
    others: float  # mean Acclaim of the other seats
    times: dict[str, list[float]] = field(default_factory=dict)


def play_one(
    seed: int, players: int, one: str, rest: str, think: float, playouts: int | None = None, clock: str = "wall"
) -> GameResult:
    seat = seed % players
    levels = [rest] * players
    levels[seat] = one
    bots = [Timed(build(lv, seed * 31 + i, think, playouts, clock), lv) for i, lv in enumerate(levels)]
    rec = play_game(make_setup(players, seed, levels), bots)
    times: dict[str, list[float]] = {}
    for b in bots:
        times.setdefault(b.name, []).extend(b.times)
    others = [a for i, a in enumerate(rec.scores) if i != seat]
    return GameResult(seed, seat, rec.winner == seat, rec.scores[seat], sum(others) / len(others), times)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a share."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def report(
    results: list[GameResult],
    one: str,
    rest: str,
    players: int,
    think: float,
    playouts: int | None = None,
    clock: str = "wall",
    out=sys.stdout,
) -> None:
    n = len(results)
    if not n:
        out.write("no game finished\n")
        return
    wins = sum(r.won for r in results)
    lo, hi = wilson(wins, n)
    if "hard" not in (one, rest):
        budget = "-"
    elif playouts:
        budget = f"{playouts} playouts a decision"
    else:
        budget = f"think {think:g} s" + (" CPU" if clock == "cpu" else "")
    out.write(f"{one} (1 seat) vs {rest} ({players - 1} seats), {n} games, {budget} for hard\n")
    out.write(f"{'level':<8} {'games':>5} {'wins':>5} {'win share':>9} {'95% interval':>15} {'Acclaim':>8}\n")
    share = wins / n if n else 0.0
    acc = statistics.mean(r.acclaim for r in results) if n else 0.0
    out.write(f"{one:<8} {n:>5} {wins:>5} {share:>9.1%} {f'{lo:.0%} - {hi:.0%}':>15} {acc:>8.1f}\n")
    fair = 1 / players
    out.write(f"(a fair share for one seat of {players} is {fair:.0%}; {rest} seats' mean Acclaim ")
    out.write(f"{statistics.mean(r.others for r in results) if n else 0.0:.1f})\n")
    out.write(f"{'level':<8} {'decisions':>9} {'median s':>9} {'worst s':>8}\n")
    for lv in dict.fromkeys((one, rest)):
        ts = sorted(t for r in results for t in r.times.get(lv, []))
        if ts:
            out.write(f"{lv:<8} {len(ts):>9} {statistics.median(ts):>9.4f} {ts[-1]:>8.3f}\n")
    ts = sorted(t for r in results for t in r.times.get(one, []))
    if ts:  # the README's table row
        out.write(
            f"| {one} vs {players - 1} {rest} | {budget} | {n} | {share:.0%} | {lo:.0%} - {hi:.0%} "
            f"| {statistics.median(ts):.3f} s | {ts[-1]:.3f} s |\n"
        )


def _progress(r: GameResult, one: str) -> None:
    ts = r.times.get(one, [])
    worst = max(ts) if ts else 0.0
    median = statistics.median(ts) if ts else 0.0
    print(
        f"game seed {r.seed} seat {r.seat} won {int(r.won)} worst {worst:.3f} median {median:.4f}",
        file=sys.stderr,
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--think", type=float, default=0.1, help="seconds per decision for hard")
    ap.add_argument("--playouts", type=int, default=0, help="playouts per decision for hard (instead of --think)")
    ap.add_argument(
        "--cpu-clock",
        action="store_true",
        help="count --think in CPU seconds of the bot's process (figures independent of the machine's load)",
    )
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--levels", default="hard,normal", help="ONE,REST: one seat of ONE, the others REST")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    args = ap.parse_args(argv)
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    if len(levels) != 2 or any(lv not in (*LEVELS, "greedy") for lv in levels):
        ap.error(f"--levels takes two of {', '.join(LEVELS)}")
    one, rest = levels
    clock = "cpu" if args.cpu_clock else "wall"
    seeds = range(args.seed, args.seed + args.games)
    t0 = time.perf_counter()
    results: list[GameResult] = []
    try:
        if args.jobs > 1:
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                futures = [
                    pool.submit(play_one, s, args.players, one, rest, args.think, args.playouts, clock) for s in seeds
                ]
                for f in as_completed(futures):  # a line per game: an interrupted run still counts
                    results.append(f.result())
                    _progress(results[-1], one)
        else:
            for s in seeds:
                results.append(play_one(s, args.players, one, rest, args.think, args.playouts, clock))
                _progress(results[-1], one)
    except KeyboardInterrupt:  # Ctrl-C (or SIGINT): the table of the games finished so far
        print(f"interrupted after {len(results)} games", file=sys.stderr)
    results.sort(key=lambda r: r.seed)
    report(results, one, rest, args.players, args.think, args.playouts or None, clock)
    print(f"{time.perf_counter() - t0:.1f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
