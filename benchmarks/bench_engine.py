"""Speed figures for the rules engine and the bots.  Prints figures; never asserts a time.

    python benchmarks/bench_engine.py [--games 200] [--players 4] [--seed 1] [--winrates]

* actions per second of random playouts (4 random bots; target >= 30,000 actions/s),
* actions per second of greedy playouts (4 greedy bots),
* the time of one whole 4-player greedy game (median over the games played),
* greedy's CPU time per decision, and the CPU time of one playout of the hard bot (a candidate
  then greedy play to the end, from positions of seeded greedy games): the search lives on these,
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


def greedy_decisions(players: int, games: int, seed: int) -> None:
    from colosseum.core import apply, new_game, to_act
    from colosseum.core.simulate import make_bots, make_setup

    cpu, decisions = 0.0, 0
    for g in range(games):
        state = new_game(make_setup(players, seed + g))
        bots = make_bots(["greedy"] * players, seed + g)
        while (seat := to_act(state)) >= 0:
            c = time.process_time()
            action = bots[seat].act(state)
            cpu += time.process_time() - c
            decisions += 1
            state, _ = apply(state, action)
    print(f"greedy decisions: {decisions} in {games} games, {1e3 * cpu / decisions:.3f} ms CPU each")


def search_playouts(players: int, seed: int, games: int = 6, every: int = 25) -> None:
    from colosseum.core import apply, new_game, to_act
    from colosseum.core.bots.greedy import GreedyBot
    from colosseum.core.bots.playout import playout
    from colosseum.core.simulate import make_bots, make_setup

    positions = []
    for g in range(games):
        state = new_game(make_setup(players, seed + g))
        bots = make_bots(["greedy"] * players, seed + g)
        k = 0
        while (seat := to_act(state)) >= 0:
            if k % every == 0:
                positions.append((state, GreedyBot(0).act(state), seat))
            state, _ = apply(state, bots[seat].act(state))
            k += 1
    c = time.process_time()
    for i, (state, action, me) in enumerate(positions):
        playout(state, action, me, 12345 + i, None)
    cpu = time.process_time() - c
    print(
        f"hard-bot playouts: {len(positions)} from positions all through {games} games, "
        f"{1e3 * cpu / len(positions):.2f} ms CPU each"
    )


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

    greedy_decisions(n, min(games, 40), a.seed)
    search_playouts(n, a.seed)

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
