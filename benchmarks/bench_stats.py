"""How fast is ``colosseum stats`` over many saved games?  Prints figures; run by hand.

    python benchmarks/bench_stats.py --games 1000        # the issue's size (generating takes minutes)
    python benchmarks/bench_stats.py --games 100 --rounds 3

Writes ``--games`` distinct finished games (Colosseum of every edition and Municipium, normal
bots, one seat a person) into a temporary games folder, then times summing them up: cold (no
cache: every log read and replayed), warm (the cache: every file only looked at), and warm after
one log changed (one read anew).  Medians of ``--rounds`` rounds.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from colosseum.core.gamelog import make_header
from colosseum.core.logwriter import LogWriter
from colosseum.core.registry import rules
from colosseum.tui.stats import CACHE, load_summaries, tally

KINDS = [
    ("colosseum", {"variant": "grand"}, 4),
    ("colosseum", {"variant": "classic"}, 3),
    ("colosseum", {"variant": "original"}, 5),
    ("municipium", {}, 3),
]


def write_games(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        game, options, n = KINDS[i % len(KINDS)]
        r = rules(game)
        setup = r.spec.make_setup(r.spec.default_names[:n], seed=i, **options)
        state, actions = r.new_game(setup), []
        bots = [r.make_bot("normal", i * 7 + s) for s in range(n)]
        while not r.is_over(state):
            action = bots[r.to_act(state)].act(state)
            state, _ = r.apply(state, action)
            actions.append(action)
        kinds = ("human",) + ("normal",) * (n - 1)
        w = LogWriter.create_at(folder / f"g{i:05}.jsonl", make_header(setup, kinds), actions, end=True, fsync=False)
        w.close()
        paths.append(w.path)
    return paths


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="colosseum-stats-"))
    try:
        t0 = time.perf_counter()
        paths = write_games(root / "games", a.games)
        print(f"{a.games} games written in {time.perf_counter() - t0:.1f} s", flush=True)
        cold, warm, one = [], [], []
        for _ in range(a.rounds):
            (root / CACHE).unlink(missing_ok=True)
            t = time.perf_counter()
            summaries, read = load_summaries(paths, root)
            tally(summaries)
            cold.append(time.perf_counter() - t)
            assert read == a.games
            t = time.perf_counter()
            summaries, read = load_summaries(paths, root)
            tally(summaries)
            warm.append(time.perf_counter() - t)
            assert read == 0
            with open(paths[0], "ab") as f:
                f.write(b"\n")
            t = time.perf_counter()
            summaries, read = load_summaries(paths, root)
            tally(summaries)
            one.append(time.perf_counter() - t)
            assert read == 1
        print(
            f"cold (every log replayed): median {statistics.median(cold):.2f} s ({1000 * statistics.median(cold) / a.games:.1f} ms a game)"
        )
        print(f"warm (the cache): median {statistics.median(warm) * 1000:.0f} ms")
        print(f"warm, one log changed: median {statistics.median(one) * 1000:.0f} ms")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
