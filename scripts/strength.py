"""How strong is a bot level?  One bot of a level against the rest of the table of another, and
each level's rating (openskill's Bradley-Terry Full model, as the lobby rates people).

    python scripts/strength.py                                   # 8 games, hard vs normal, 0.1 s
    python scripts/strength.py --games 16 --think 0.3 --levels hard,normal --jobs 2
    python scripts/strength.py --games 20 --levels easy,random
    python scripts/strength.py --games 100 --think 0.3 --cpu-clock      # on a busy machine
    python scripts/strength.py --games 40 --playouts 24                  # a node budget
    python scripts/strength.py --levels hard,hard --playouts 24 --one-playouts 72   # more search
    python scripts/strength.py --game municipium --levels hard,normal --playouts 40
    python scripts/strength.py ... --record runs/colosseum.jsonl         # keep every game
    python scripts/strength.py --fit runs/*.jsonl                        # ratings from them

It ends with the README's table row.  ``--cpu-clock`` counts a search's budget in CPU seconds of
its own process, so that a machine shared with other work still gives the figures of a free
core (the wall-clock think times printed are then longer than the budget; each decision's CPU
time is printed beside them, and the README row gives it: what a free core takes); ``--playouts`` gives
the search a fixed number of playouts a decision instead (independent of the machine
altogether; ``benchmarks/bench_engine.py`` says how many a free core plays in a second).

Game ``i`` uses seed ``--seed + i`` and puts the single bot of the first level at seat
``i mod players`` (seat rotation); the other seats get the second level.  Prints the first
level's win share (a win shared by k counts 1/k) with the games count and a 95% Wilson interval
(a fair share is 1/players), its mean score, the median and worst think time per decision of
each level, and the ratings fitted from these games.  Levels: the game's (``--game``): hard
and expert (the search, ``--think`` seconds a decision), normal (``greedy``), easy, random.

``--record FILE`` appends a JSON line per game (the levels by seat, the places, the scores, the
budget, and a digest of the engine's and bots' code); with ``--resume`` the games of the same
run already in FILE (same game, levels, players and budget, same code digest) are not played
again and count in the table (their think times were not kept), so that a run too long for one
sitting (e.g. ``expert`` against three ``hard`` at 1 s: about 8 CPU hours) is played in parts;
``--one-playouts N`` (or ``--one-think S``) gives the single seat a budget of its own: what
more search buys against the same level (``hard`` with 72 playouts against three with 24).
``--fit FILE...`` reads such files, in the order given, fits every level's rating
(``colosseum.core.ratings.fit``; a search level is rated separately for each budget it played
at, named ``hard (200 playouts)``) and writes the table the lobby reads
(``core/data/bot_ratings.json``; ``--out`` another path).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from colosseum.core.ratings import DATA, LevelRating, MatchResult, fit, table_json
from colosseum.core.registry import spec
from colosseum.core.simulate import make_setup, play_game

SEARCH = ("hard", "expert")
ROOT = Path(__file__).resolve().parent.parent


def levels_of(game: str) -> tuple[str, ...]:
    return (*spec(game).bot_levels, "random", "greedy")


def build(game: str, level: str, seed: int, think: float, playouts: int | None = None, clock: str = "wall") -> Any:
    """A bot of ``level``; a search thinks ``think`` seconds a decision, or plays ``playouts``
    playouts a decision when given (a budget independent of the machine's speed and load)."""
    rules = spec(game).rules()
    if level in SEARCH:
        if playouts:
            return rules.search_bot(level, seed, None, playouts=playouts)
        return rules.search_bot(level, seed, think, clock=clock)
    if level not in levels_of(game):
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(levels_of(game))}")
    return rules.make_bot(level, seed)


class Timed:
    """A bot that records how long each of its decisions takes, on the wall clock and in CPU
    time of this process (a game is played in one process, its search in that process too:
    the CPU time is what the decision takes on a free core, whatever the machine's load)."""

    def __init__(self, bot: Any, name: str) -> None:
        self.bot = bot
        self.name = name
        self.times: list[float] = []
        self.cpu: list[float] = []

    def act(self, state: Any) -> Any:
        t0, c0 = time.perf_counter(), time.process_time()
        a = self.bot.act(state)
        self.cpu.append(time.process_time() - c0)
        self.times.append(time.perf_counter() - t0)
        return a


@dataclass
class GameResult:
    seed: int
    seat: int  # the single bot's seat
    won: float  # 1 for a win, 1/k for a win shared by k, else 0
    score: int  # the single bot's final score
    others: float  # mean score of the other seats
    levels: tuple[str, ...] = ()
    ranks: tuple[int, ...] = ()
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)


def play_one(
    game: str,
    seed: int,
    players: int,
    one: str,
    rest: str,
    think: float,
    playouts: int | None = None,
    clock: str = "wall",
    one_budget: tuple[float, int | None] | None = None,
) -> GameResult:
    """One game; ``one_budget``: the single seat's (think, playouts) when not the others'."""
    seat = seed % players
    levels = [rest] * players
    levels[seat] = one
    own = one_budget or (think, playouts)
    bots = [
        Timed(build(game, lv, seed * 31 + i, *(own if i == seat else (think, playouts)), clock), lv)
        for i, lv in enumerate(levels)
    ]
    rec = play_game(make_setup(players, seed, levels, game=game), bots)
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for b in bots:
        times.setdefault(b.name, []).extend(b.times)
        cpu.setdefault(b.name, []).extend(b.cpu)
    firsts = rec.ranks.count(1)
    won = 1.0 / firsts if rec.ranks[seat] == 1 else 0.0
    others = [a for i, a in enumerate(rec.scores) if i != seat]
    return GameResult(
        seed, seat, won, rec.scores[seat], sum(others) / len(others), tuple(levels), tuple(rec.ranks), times, cpu
    )


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a share."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def budget_text(one: str, rest: str, think: float, playouts: int | None, clock: str) -> str:
    if one not in SEARCH and rest not in SEARCH:
        return "-"
    if playouts:
        return f"{playouts} playouts a decision"
    return f"{think:g} s" + (" CPU clock" if clock == "cpu" else " wall clock")


def seat_budgets(budget: str) -> tuple[str, str]:
    """The single seat's budget and the others' in a run's budget text (``one_budget_text``)."""
    one, sep, rest = budget.partition(" against ")
    return (one, rest) if sep else (budget, budget)


def one_budget_text(rest: str, own: str, others: str) -> str:
    """A run's budget text when the single seat (a search level) has a budget of its own."""
    if own == others:
        return others
    return f"{own} against {others if rest in SEARCH else '-'}"


def rated_name(level: str, budget: str) -> str:
    """The name a level is rated under: a search level with its budget."""
    if level in SEARCH and budget != "-":
        return f"{level} ({budget.replace(' a decision', '')})"
    return "normal" if level == "greedy" else level


def report(
    results: list[GameResult], game: str, one: str, rest: str, players: int, budget: str, out: Any = None
) -> None:
    out = sys.stdout if out is None else out  # (read now: a caller may have replaced sys.stdout)
    n = len(results)
    if not n:
        out.write("no game finished\n")
        return
    wins = sum(r.won for r in results)
    lo, hi = wilson(wins, n)
    score = spec(game).rules().score_name
    out.write(f"{game}: {one} (1 seat) vs {rest} ({players - 1} seats), {n} games, {budget}\n")
    out.write(f"{'level':<8} {'games':>5} {'wins':>6} {'win share':>9} {'95% interval':>15} {score:>10}\n")
    share = wins / n
    mean = statistics.mean(r.score for r in results)
    out.write(f"{one:<8} {n:>5} {wins:>6g} {share:>9.1%} {f'{lo:.0%} - {hi:.0%}':>15} {mean:>10.1f}\n")
    fair = 1 / players
    out.write(f"(a fair share for one seat of {players} is {fair:.0%}; {rest} seats' mean {score} ")
    out.write(f"{statistics.mean(r.others for r in results):.1f})\n")
    out.write(
        f"{'level':<8} {'decisions':>9} {'median s':>9} {'worst s':>8} {'median CPU s':>12} {'worst CPU s':>11}\n"
    )
    for lv in dict.fromkeys((one, rest)):
        ts = sorted(t for r in results for t in r.times.get(lv, []))
        cs = sorted(t for r in results for t in r.cpu.get(lv, []))
        if ts:
            out.write(f"{lv:<8} {len(ts):>9} {statistics.median(ts):>9.4f} {ts[-1]:>8.3f}")
            out.write(f" {statistics.median(cs):>12.4f} {cs[-1]:>11.3f}\n" if cs else "\n")
    own, others = seat_budgets(budget)
    rated = fit(
        MatchResult(tuple(rated_name(x, own if i == r.seat else others) for i, x in enumerate(r.levels)), r.ranks)
        for r in results
    )
    out.write("ratings from these games (openskill Bradley-Terry Full; a newcomer is 25.0):\n")
    for name, rt in sorted(rated.items(), key=lambda kv: -kv[1].mu):
        out.write(f"  {name:<28} mu {rt.mu:6.2f}  sigma {rt.sigma:5.2f}\n")
    ts = sorted(t for r in results for t in r.times.get(one, []))
    timed = sum(1 for r in results if r.times.get(one))
    if timed < n:
        out.write(f"(think times of the {timed} games played in this sitting; the others were resumed)\n")
    think = f"{statistics.median(ts):.3f} s | {ts[-1]:.3f} s" if ts else "- | -"
    cs = sorted(t for r in results for t in r.cpu.get(one, []))
    if cs and "CPU clock" in budget:  # the wall clock of a CPU-clock budget says the load, not the bot
        think = f"{statistics.median(cs):.3f} s CPU | {cs[-1]:.3f} s CPU"
    gap = rated[rated_name(one, own)].mu - rated[rated_name(rest, others)].mu  # the README's row
    out.write(
        f"| {one} vs {players - 1} {rest} | {budget} | {n} | {share:.0%} | {lo:.0%} - {hi:.0%} "
        f"| {gap:+.1f} | {think} |\n"
    )


def _ignore_sigint() -> None:
    """A worker of ``--jobs``: Ctrl-C is the run's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_seed(job: tuple[int, tuple[Any, ...]]) -> GameResult:
    """``play_one`` for a worker: (seed, the run's other arguments)."""
    seed, play = job
    return play_one(play[0], seed, *play[1:])


def _progress(r: GameResult, one: str) -> None:
    """One line a game: the single level's think times, wall and CPU (with ``--cpu-clock`` the
    CPU time is the budget's; the wall time also says how busy the machine was)."""

    def spread(ts: list[float]) -> str:
        return f"median {statistics.median(ts):.3f} worst {max(ts):.3f}" if ts else "-"

    print(
        f"game seed {r.seed} seat {r.seat} won {r.won:g}; think s: wall {spread(r.times.get(one, []))}, "
        f"CPU {spread(r.cpu.get(one, []))}",
        file=sys.stderr,
        flush=True,
    )


def code_digest() -> str:
    """A digest of the engine's and the bots' code (every module and game data file of
    ``colosseum.core``; not the fitted ratings table, which no bot reads): games recorded under
    another digest were played by other code and are not resumed."""
    import colosseum.core

    root = Path(colosseum.core.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.name == DATA or "__pycache__" in path.parts:
            continue
        if path.suffix in (".py", ".toml", ".json"):
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def record_line(game: str, r: GameResult, budget: str, label: str, code: str = "") -> str:
    return json.dumps(
        {
            "game": game,
            "run": label,
            "seed": r.seed,
            "levels": list(r.levels),
            "ranks": list(r.ranks),
            "budget": budget,
            "score": r.score,
            "seat": r.seat,
            "others": r.others,
            "code": code,
        }
    )


def recorded_results(
    path: str, game: str, one: str, rest: str, players: int, budget: str, code: str
) -> tuple[list[GameResult], int]:
    """The games of this run already in ``path`` (its levels, players, budget and code), and
    how many of the same run were left out because other code played them."""
    found: dict[int, GameResult] = {}
    other_code = 0
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], 0
    for line in text.splitlines():
        try:
            g = json.loads(line)
            levels = tuple(g["levels"])
            same = (
                g["game"] == game
                and g["budget"] == budget
                and len(levels) == players
                and sorted(levels) == sorted([one] + [rest] * (players - 1))
            )
            if not same or "seat" not in g:
                continue
            if g.get("code") != code:
                other_code += 1
                continue
            ranks = tuple(int(x) for x in g["ranks"])
            seat = int(g["seat"])
            won = 1.0 / ranks.count(1) if ranks[seat] == 1 else 0.0
            found[int(g["seed"])] = GameResult(
                int(g["seed"]), seat, won, int(g["score"]), float(g["others"]), levels, ranks, {}
            )
        except (ValueError, KeyError, TypeError, IndexError, ZeroDivisionError):
            continue  # a damaged line (an interrupted write) counts as not played
    return list(found.values()), other_code


def fit_files(paths: list[str], out_path: Path) -> int:
    """Ratings of every level of every game from the recorded games, written to ``out_path``."""
    by_game: dict[str, list[MatchResult]] = {}
    budgets: dict[tuple[str, str], str] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            g = json.loads(line)
            own, others = seat_budgets(g["budget"])
            single = g.get("seat", -1)
            per_seat = [own if i == single else others for i in range(len(g["levels"]))]
            names = tuple(rated_name(lv, b) for lv, b in zip(g["levels"], per_seat, strict=True))
            by_game.setdefault(g["game"], []).append(MatchResult(names, tuple(g["ranks"])))
            for lv, name, b in zip(g["levels"], names, per_seat, strict=True):
                budgets[(g["game"], name)] = b if lv in SEARCH else ""
    table: dict[str, dict[str, LevelRating]] = {}
    for game, results in by_game.items():
        rated = fit(results)
        table[game] = {
            name: LevelRating(rt.mu, rt.sigma, rt.games, budgets[(game, name)]) for name, rt in rated.items()
        }
        print(f"{game}: {len(results)} games")
        for name, rt in sorted(rated.items(), key=lambda kv: -kv[1].mu):
            print(f"  {name:<28} mu {rt.mu:6.2f}  sigma {rt.sigma:5.2f}  games {rt.games}")
    notes = [f"fitted by scripts/strength.py --fit from {', '.join(Path(p).name for p in paths)}"]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(table_json(table, notes), encoding="utf-8")
    print(f"written {out_path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="colosseum")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--think", type=float, default=0.1, help="seconds per decision for a search level")
    ap.add_argument("--playouts", type=int, default=0, help="playouts per decision for a search (instead of --think)")
    ap.add_argument("--one-think", type=float, default=None, help="the single seat's seconds a decision")
    ap.add_argument("--one-playouts", type=int, default=0, help="the single seat's playouts a decision")
    ap.add_argument(
        "--cpu-clock",
        action="store_true",
        help="count --think in CPU seconds of the bot's process (figures independent of the machine's load)",
    )
    ap.add_argument("--players", type=int, default=0, help="players (default: the game's default)")
    ap.add_argument("--levels", default="hard,normal", help="ONE,REST: one seat of ONE, the others REST")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    ap.add_argument("--record", metavar="FILE", help="append a JSON line per game to FILE")
    ap.add_argument(
        "--resume", action="store_true", help="with --record: skip (and count) the games of this run already in FILE"
    )
    ap.add_argument("--fit", nargs="+", metavar="FILE", help="fit the ratings from recorded games and write them")
    ap.add_argument("--out", metavar="FILE", help=f"where --fit writes (default core/data/{DATA})")
    args = ap.parse_args(argv)
    if args.fit:
        return fit_files(args.fit, Path(args.out) if args.out else ROOT / "core" / "data" / DATA)
    game = spec(args.game).name
    players = args.players or spec(game).default_players
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    if len(levels) != 2 or any(lv not in levels_of(game) for lv in levels):
        ap.error(f"--levels takes two of {', '.join(levels_of(game))}")
    one, rest = levels
    clock = "cpu" if args.cpu_clock else "wall"
    budget = budget_text(one, rest, args.think, args.playouts or None, clock)
    one_budget: tuple[float, int | None] | None = None
    if args.one_think is not None or args.one_playouts:
        if one not in SEARCH:
            ap.error("--one-think and --one-playouts are for a search level (hard, expert) as ONE")
        one_budget = (args.think if args.one_think is None else args.one_think, args.one_playouts or None)
        own = budget_text(one, one, one_budget[0], one_budget[1], clock)
        budget = one_budget_text(rest, own, budget)
    label = f"{one} vs {rest}, {budget}, seeds {args.seed}-{args.seed + args.games - 1}"
    seeds = list(range(args.seed, args.seed + args.games))
    t0 = time.perf_counter()
    results: list[GameResult] = []
    code = code_digest()
    if args.resume:
        if not args.record:
            ap.error("--resume needs --record FILE")
        before, other_code = recorded_results(args.record, game, one, rest, players, budget, code)
        before = [r for r in before if r.seed in seeds]
        results.extend(before)
        played = {r.seed for r in before}
        seeds = [s for s in seeds if s not in played]
        print(f"resuming: {len(before)} games of this run recorded before", file=sys.stderr)
        if other_code:
            print(f"  ({other_code} recorded by other code left out)", file=sys.stderr)
    record = open(args.record, "a", encoding="utf-8") if args.record else None  # noqa: SIM115

    def done(r: GameResult) -> None:
        results.append(r)
        _progress(r, one)
        if record is not None:
            record.write(record_line(game, r, budget, label, code) + "\n")
            record.flush()

    play = (game, players, one, rest, args.think, args.playouts or None, clock, one_budget)
    try:
        if args.jobs > 1:
            # the workers ignore Ctrl-C: the run stops them (the games under way are not counted)
            with multiprocessing.Pool(args.jobs, initializer=_ignore_sigint) as pool:
                try:  # a line per game as it ends: an interrupted run still counts
                    for r in pool.imap_unordered(_play_seed, [(s, play) for s in seeds]):
                        done(r)
                except KeyboardInterrupt:
                    pool.terminate()
                    raise
        else:
            for s in seeds:
                done(play_one(game, s, *play[1:]))
    except KeyboardInterrupt:  # Ctrl-C (or SIGINT): the table of the games finished so far
        print(f"interrupted after {len(results)} games", file=sys.stderr)
    finally:
        if record is not None:
            record.close()
    results.sort(key=lambda r: r.seed)
    report(results, game, one, rest, players, budget)
    print(f"{time.perf_counter() - t0:.1f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
