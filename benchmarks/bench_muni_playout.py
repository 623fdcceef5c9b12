"""Speed of a Municipium playout of the hard bot (the candidate, then greedy at every seat to
the end: ``colosseum.core.search.playout``).  Prints figures; never asserts a time.

    python benchmarks/bench_muni_playout.py [--games 8] [--players 3] [--every 20] [--seed 1]
    python benchmarks/bench_muni_playout.py --profile            # cProfile's top functions
    valgrind --tool=callgrind --callgrind-out-file=cg.out \\
        python benchmarks/bench_muni_playout.py --small PASSES   # a fixed workload to count

Positions are taken every ``--every`` actions of seeded greedy games (the first position, before
the first placement, included); from each, greedy's choice is played out once (CPU time,
``time.process_time``).  The mean over every position is printed, and the mean from the first
placement alone (the longest playouts: the hint's first decisions; ``--firsts`` playouts on their
own luck from each game's first position).  CPU figures move by 15 %
between identical runs on a shared machine; valgrind's instruction counts (``--small``: a fixed
handful of playouts played PASSES times: the difference between two counts, PASSES 2 and 1,
divided by the number of playouts, is a playout's) are the figure to compare two versions of the
code by.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from typing import Any

from colosseum.core.registry import rules
from colosseum.core.search import playout

GAME = rules("municipium")


def positions(players: int, games: int, seed: int, every: int) -> list[tuple[Any, Any, int]]:
    """(state, greedy's action there, the seat to act) every ``every`` actions of seeded games."""
    out = []
    for g in range(games):
        state = GAME.new_game(GAME.spec.make_setup(tuple("ABCD"[:players]), seed=seed + g))
        bots = [GAME.make_bot("normal", (seed + g) * 31 + i) for i in range(players)]
        k = 0
        while (seat := GAME.to_act(state)) >= 0:
            if k % every == 0:
                out.append((state, GAME.make_bot("normal", k).act(state), seat))
            state, _ = GAME.apply(state, bots[seat].act(state))
            k += 1
    return out


def time_one(state: Any, action: Any, me: int, seed: int, repeat: int) -> float:
    """CPU seconds of one playout (the least of ``repeat`` runs)."""
    best = float("inf")
    for _ in range(repeat):
        c = time.process_time()
        playout(GAME, state, action, me, seed, None)
        best = min(best, time.process_time() - c)
    return best


def run(found: list[tuple[Any, Any, int]], repeat: int) -> list[float]:
    """CPU seconds of a playout from each position (the least of ``repeat`` runs)."""
    return [time_one(state, action, me, 12345 + i, repeat) for i, (state, action, me) in enumerate(found)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    ap.add_argument("--every", type=int, default=20, help="a position every this many actions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each playout (the least counts)")
    ap.add_argument("--firsts", type=int, default=4, help="playouts (each on its own luck) from each first position")
    ap.add_argument("--profile", action="store_true", help="cProfile the playouts instead")
    ap.add_argument(
        "--small", type=int, metavar="PASSES", help="a fixed small workload (for valgrind): PASSES over its playouts"
    )
    args = ap.parse_args(argv)
    if args.small is not None:
        found = positions(3, 1, 1, 40)
        for _ in range(args.small):
            for i, (state, action, me) in enumerate(found):
                playout(GAME, state, action, me, 12345 + i, None)
        print(f"{args.small} x {len(found)} playouts")
        return 0
    found = positions(args.players, args.games, args.seed, args.every)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(found, 1)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    times = run(found, args.repeat)
    firsts = [f for f in found if f[0].phase == "place" and f[0].placed == 0]
    first_times = [
        time_one(state, action, me, 777 + 1000 * j + i, args.repeat)
        for i, (state, action, me) in enumerate(firsts)
        for j in range(args.firsts)
    ]
    print(
        f"{len(found)} playouts from positions every {args.every} actions of {args.games} {args.players}-player games"
    )
    print(f"  mean {1e3 * statistics.fmean(times):.1f} ms CPU, median {1e3 * statistics.median(times):.1f} ms")
    print(f"  from the first placement: {1e3 * statistics.fmean(first_times):.1f} ms CPU ({len(first_times)} playouts)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
