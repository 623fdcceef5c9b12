"""Speed figures for the rules engine and the bots.  Prints figures; never asserts a time.

    python benchmarks/bench_engine.py [--games 200] [--players 4] [--seed 1] [--winrates]

* actions per second of random playouts (4 random bots; target >= 30,000 actions/s),
* actions per second of greedy playouts (4 greedy bots),
* the time of one whole 4-player greedy game (median over the games played),
* with ``--winrates``: greedy's win rate against random bots (seats rotated every game) and
  the spread of wins among four greedy bots.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from colosseum.core.simulate import play_series


def playouts(bots: list[str], players: int, games: int, seed: int, rotate: bool = False):
    t0, c0 = time.perf_counter(), time.process_time()
    recs = list(play_series(players, games, seed, bots, rotate=rotate))
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    actions = sum(r.actions for r in recs)
    return recs, actions, dt, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per measurement (default 200)")
    ap.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--winrates", action="store_true", help="also measure win rates")
    a = ap.parse_args(argv)
    n, games = a.players, max(1, a.games)

    # warm-up (catalog load, imports)
    list(play_series(n, 2, a.seed, ["random"]))

    recs, actions, dt, cpu = playouts(["random"], n, games, a.seed)
    print(
        f"random playouts ({n} players): {games} games, {actions} actions in {dt:.2f} s "
        f"= {actions / dt:,.0f} actions/s ({actions / games:.0f} actions/game; "
        f"{actions / cpu:,.0f} actions per CPU second)"
    )

    recs, actions, dt, cpu = playouts(["greedy"], n, games, a.seed)
    times = sorted(r.seconds for r in recs)
    print(
        f"greedy playouts ({n} players): {games} games, {actions} actions in {dt:.2f} s "
        f"= {actions / dt:,.0f} actions/s ({actions / games:.0f} actions/game; "
        f"{actions / cpu:,.0f} actions per CPU second)"
    )
    print(
        f"one whole {n}-player greedy game: median {1000 * statistics.median(times):.1f} ms, "
        f"min {1000 * times[0]:.1f} ms, max {1000 * times[-1]:.1f} ms (wall clock; "
        f"{1000 * cpu / games:.1f} ms CPU on average)"
    )

    if a.winrates:
        for p in (3, 4, 5):
            bots = ["greedy"] + ["random"] * (p - 1)
            recs, _, _, _ = playouts(bots, p, games, a.seed, rotate=True)
            w = sum(1 for r in recs if r.winner_bot == "greedy")
            print(f"greedy vs {p - 1} random ({p} players, seats rotated): {w}/{games} = {100 * w / games:.1f}% wins")
        recs, _, _, _ = playouts(["greedy"], n, games, a.seed)
        seats = Counter(r.winner for r in recs)
        spread = " ".join(f"seat {s}: {seats.get(s, 0)}" for s in range(n))
        acc = statistics.mean(max(r.acclaim) for r in recs)
        print(f"{n} greedy bots: all {games} games finished; wins {spread}; mean winning Acclaim {acc:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
