"""How long does ``colosseum export --format html`` take, and how large is the page?  Prints
figures; run by hand.

    python benchmarks/bench_replay.py                    # a 4-player grand game, 120x40
    python benchmarks/bench_replay.py --size 80x24 --game municipium --players 3

Plays one seeded whole game with normal bots, then times writing its replay page (every
position drawn by the viewer headless) and one SVG position: wall and process time, the page's
size, its frames and distinct lines.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from colosseum.core.gamelog import make_header
from colosseum.core.logread import read_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.registry import rules
from colosseum.tui.replay import parse_size, replay_html, replay_svg


def write_game(folder: Path, game: str, players: int, seed: int) -> Path:
    r = rules(game)
    setup = r.spec.make_setup(r.spec.default_names[:players], seed=seed)
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("normal", seed * 7 + s) for s in range(players)]
    while not r.is_over(state):
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)
    kinds = ("human",) + ("normal",) * (players - 1)
    w = LogWriter.create_at(folder / "game.jsonl", make_header(setup, kinds), actions, end=True, fsync=False)
    w.close()
    return w.path


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="colosseum")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--size", default="120x40")
    a = ap.parse_args()
    size = parse_size(a.size)
    if size is None:
        ap.error("--size: columns x rows, at least 80x24")
    with tempfile.TemporaryDirectory(prefix="colosseum-replay-") as tmp:
        log = read_log(write_game(Path(tmp), a.game, a.players, a.seed))
        n = log.timeline.end
        page, wall, cpu = timed(lambda: replay_html(log, size=size))
        kb = len(page.encode()) / 1024
        print(f"{a.game}, {a.players} players, {n} actions, {size[0]}x{size[1]}")
        print(f"html: {kb:,.1f} KiB, {wall:.2f} s wall, {cpu:.2f} s process ({1000 * wall / (n + 1):.1f} ms a frame)")
        _svg, wall, cpu = timed(lambda: replay_svg(log, n // 2, size=size))
        print(f"svg of one position: {len(_svg.encode()) / 1024:,.1f} KiB, {wall:.2f} s wall, {cpu:.2f} s process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
