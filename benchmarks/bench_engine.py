"""Speed figures for the rules engine and the bots.  Prints figures; never asserts a time.

    python benchmarks/bench_engine.py [--games 200] [--players 4] [--seed 1] [--winrates]
    python benchmarks/bench_engine.py --baseline /work/main [--rounds 3]   # side by side
    python benchmarks/bench_engine.py --catanatron /work/catan-venv/bin/python [--rounds 5]
    python benchmarks/bench_engine.py --catanatron CATAN_PYTHON --compiled COMPILED_PYTHON --rounds 9


* actions per second of random playouts (4 random bots; target >= 30,000 actions/s),
* actions per second of greedy playouts (4 greedy bots),
* the time of one whole 4-player greedy game (median over the games played),
* greedy's CPU time per decision, and the CPU time of one playout of the hard bot (a candidate
  then greedy play to the end, from positions of seeded greedy games): the search lives on these,
* with ``--winrates``: greedy's win rate against random bots (seats rotated every game) and
  the spread of wins among four greedy bots.

The random playouts run on the engine's quiet path (``apply_fast``: the states of
``apply_trusted``, no events) where the tree has one, and again with the events
(``apply_trusted``; the checked ``apply`` in a tree older than both).

``--catanatron PYTHON`` measures this tree and catanatron 3.2.1 side by side in one run:
``PYTHON`` is an interpreter that has catanatron installed (a separate virtual environment:
``python3 -m venv /work/catan-venv && /work/catan-venv/bin/pip install catanatron==3.2.1``;
nothing of it is part of this project).  Each of ``--rounds`` alternating rounds measures, in
fresh processes, this tree's random 4-player games through the checked ``apply`` (every rule
checked, the events composed: what a server runs) and catanatron's random 4-player games
(``Game.play`` with four ``RandomPlayer``), both in actions per CPU second, and this tree's
hard-bot playout; the medians of the rounds and their ratio are printed.  ``--compiled PYTHON``
(an interpreter with this tree's optional mypyc build: ``python scripts/build_compiled.py --venv
/tmp/colosseum-compiled`` makes one) adds that build to every round: the figures of the pure
and of the compiled build are printed side by side.

``--baseline PATH`` compares this tree with another checkout of the project (an older commit)
on the same machine at the same time: the core figures (random games, random playouts on the
bots' trusted path, greedy decisions, hard-bot playouts) are measured in fresh processes, one
tree after the other, ``--rounds`` times, and the best of each is compared (the best is the
least disturbed by other work on the machine).  Both trees run this file's measuring code, with
the same interpreter; only the ``colosseum`` package imported differs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from colosseum.core.simulate import play_series


def playouts(bots: list[str], players: int, games: int, seed: int, rotate: bool = False):
    t0, c0 = time.perf_counter(), time.process_time()
    recs = list(play_series(players, games, seed, bots, rotate=rotate))
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    actions = sum(r.actions for r in recs)
    return recs, actions, dt, cpu


def greedy_decisions(players: int, games: int, seed: int) -> None:
    from colosseum.core.games.colosseum import apply, new_game, to_act
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
    from colosseum.core.games.colosseum import apply, new_game, to_act
    from colosseum.core.games.colosseum.bots.greedy import GreedyBot
    from colosseum.core.games.colosseum.bots.playout import playout
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


def checked_random(players: int, games: int, seed: int) -> float:
    """Random games through the checked ``apply`` (the events composed), as catanatron's
    ``Game.play``: actions per CPU second of the loop (the bots' choices, the rules)."""
    from colosseum.core.games.colosseum import apply, new_game, to_act
    from colosseum.core.simulate import make_bots, make_setup

    n, c = 0, time.process_time()
    for g in range(games):
        state = new_game(make_setup(players, seed + g))
        bots = make_bots(["random"] * players, seed + g)
        while (seat := to_act(state)) >= 0:
            state, _ = apply(state, bots[seat].act(state))
            n += 1
    return n / (time.process_time() - c)


#: Run by the catanatron interpreter: its random 4-player games, actions per CPU second.
CATAN_CODE = """
import json, sys, time
from catanatron import Color, Game, RandomPlayer
games = int(sys.argv[1])
colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
Game([RandomPlayer(c) for c in colors], seed=10_000).play()  # warm-up
n, c = 0, time.process_time()
for g in range(games):
    game = Game([RandomPlayer(c) for c in colors], seed=g)
    game.play()
    n += len(game.state.actions)
print(json.dumps({"actions/CPU s": n / (time.process_time() - c), "games": games, "actions": n}))
"""


def build_kind() -> str:
    """Whether this tree runs as pure Python or with modules compiled by mypyc (setup.py)."""
    import importlib

    names = [
        "colosseum.core.games.colosseum.bots.greedy",
        "colosseum.core.games.colosseum.engine",
        "colosseum.core.games.municipium.bots.greedy",
    ]
    compiled = [n for n in names if not str(importlib.import_module(n).__file__).endswith(".py")]
    return (
        "pure Python"
        if not compiled
        else f"mypyc-compiled ({', '.join(n.rsplit('.', 2)[-2] + '.' + n.rsplit('.', 1)[-1] for n in compiled)}, ...)"
    )


def catanatron_side_by_side(
    python: str, players: int, games: int, seed: int, rounds: int, compiled: str | None = None
) -> None:
    """This tree and catanatron 3.2.1, random 4-player games, in alternating rounds (fresh
    processes), with this tree's hard-bot playout; medians of the rounds.  With ``compiled`` (an
    interpreter with this tree's mypyc build, ``scripts/build_compiled.py --venv``) each round
    also measures that build, and both builds' figures are printed."""
    builds: dict[str, str] = {sys.executable: build_kind()}
    if compiled:
        kind = subprocess.run(
            [compiled, __file__, "--build-kind"], capture_output=True, text=True, check=True
        ).stdout.strip()
        if compiled == sys.executable or kind == "pure Python":
            sys.exit(f"{compiled} runs no compiled build ({kind}): see scripts/build_compiled.py")
        builds[compiled] = kind
    version = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('catanatron'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours: dict[str, list[float]] = {py: [] for py in builds}
    playout_ms: dict[str, list[float]] = {py: [] for py in builds}
    theirs: list[float] = []
    catan_games = max(10, games // 6)  # a random catanatron game is about 7 times as long
    for r in range(rounds):
        done = subprocess.run([python, "-c", CATAN_CODE, str(catan_games)], capture_output=True, text=True, check=True)
        theirs.append(json.loads(done.stdout.strip().splitlines()[-1])["actions/CPU s"])
        for py in builds:
            figures = _measure_in(None, 4, games, seed, python=py)
            ours[py].append(figures["checked apply, actions/CPU s"])
            playout_ms[py].append(figures["hard-bot playout, ms CPU"])
        print(f"round {r + 1}/{rounds} measured", file=sys.stderr)
    med = statistics.median
    print(
        f"side by side with catanatron {version}: random 4-player games, CPU time, median of {rounds} "
        "alternating rounds (fresh processes)"
    )
    print(
        f"  catanatron {version}, Game.play:            {med(theirs):10,.0f} actions/CPU s  (rounds: "
        + ", ".join(f"{x:,.0f}" for x in theirs)
        + ")"
    )
    for py, kind in builds.items():
        ratios = [a / b for a, b in zip(ours[py], theirs, strict=True)]
        print(f"  this tree, {kind}:")
        print(
            f"    checked apply (events composed):   {med(ours[py]):10,.0f} actions/CPU s  (rounds: "
            + ", ".join(f"{x:,.0f}" for x in ours[py])
            + ")"
        )
        print(
            f"    ratio to catanatron: {med(ours[py]) / med(theirs):.2f}x (each round: "
            + ", ".join(f"{x:.2f}x" for x in ratios)
            + ")"
        )
        print(
            f"    hard-bot playout from positions through 4 greedy games: {med(playout_ms[py]):.2f} ms CPU (rounds: "
            + ", ".join(f"{x:.2f}" for x in playout_ms[py])
            + ")"
        )


def calibrate(game: str, seconds: float, positions: int, seed: int) -> None:
    """How many playouts the search plays in a decision of ``seconds`` CPU seconds: the node
    budget (``strength.py --playouts N``) that stands for that time on a free core."""
    from colosseum.core.registry import spec
    from colosseum.core.simulate import make_bots, make_setup

    rules = spec(game).rules()
    found = []
    g = 0
    while len(found) < positions and g < 20:
        state = rules.new_game(make_setup(rules.spec.default_players, seed + g, game=game))
        bots = make_bots(["normal"] * rules.spec.default_players, seed + g, game=game)
        k = 0
        while (seat := rules.to_act(state)) >= 0:
            if len(rules.legal_actions(state)) > 1:
                if k % 9 == 0:
                    found.append(state)
                k += 1
            state = rules.apply(state, bots[seat].act(state))[0]
        g += 1
    found = found[:positions]
    for level in ("hard", "expert"):
        counts, spent = [], []
        for i, state in enumerate(found):
            bot = rules.search_bot(level, i, seconds, clock="cpu")
            c = time.process_time()
            bot.act(state)
            spent.append(time.process_time() - c)
            if bot.last_playouts:
                counts.append(bot.last_playouts)
        print(
            f"{game} {level}: {statistics.median(counts) if counts else 0:.0f} playouts a decision in {seconds:g} s "
            f"of CPU (median over {len(counts)} searched decisions of {len(found)} positions through "
            f"{g} games; quartiles {_quartiles(counts)}); CPU a decision: median {statistics.median(spent):.3f} s, "
            f"worst {max(spent):.3f} s"
        )


def _quartiles(xs: list[int]) -> str:
    if len(xs) < 4:
        return "-"
    q = statistics.quantiles(xs, n=4)
    return f"{q[0]:.0f}-{q[2]:.0f}"


# ---------------------------------------------------------------------- side by side
#
# The measuring code below uses only names both the old and the new tree have (apply, to_act,
# new_game, play_series, make_bots, make_setup, GreedyBot, playout), so that one file measures
# either tree.


def core_figures(players: int, games: int, seed: int) -> dict[str, float]:
    """CPU figures of the tree imported: random games through the checked ``apply``; random
    playouts through the path the bots' playouts use; greedy's decision time; one hard-bot
    playout."""
    from colosseum.core.games.colosseum import apply, engine, new_game, to_act
    from colosseum.core.games.colosseum.bots.greedy import GreedyBot
    from colosseum.core.simulate import make_bots, make_setup

    try:
        from colosseum.core.games.colosseum.bots.playout import playout
    except ImportError:  # an older tree, from before the hard bot: that figure is left out
        playout = None
    trusted = getattr(engine, "apply_trusted", apply)
    # the quiet path (no events) where the tree has one: what playouts should call
    fast = getattr(engine, "apply_fast", None) or trusted
    list(play_series(players, 2, seed, ["random"]))  # warm-up
    out: dict[str, float] = {}
    _, actions, _, cpu = playouts(["random"], players, games, seed)
    out["random games, actions/CPU s"] = actions / cpu
    out["checked apply, actions/CPU s"] = checked_random(players, games, seed)
    # random playouts: the loop a search runs (act, trusted apply), no records, no timing
    for key, step in (("random playouts, actions/CPU s", fast), ("  with events, actions/CPU s", trusted)):
        n, c = 0, time.process_time()
        for g in range(games):
            state = new_game(make_setup(players, seed + g))
            bots = make_bots(["random"] * players, seed + g)
            while (seat := to_act(state)) >= 0:
                state, _ = step(state, bots[seat].act(state))
                n += 1
        out[key] = n / (time.process_time() - c)
    # greedy decisions, timed one by one on the positions of seeded greedy games
    spent, decisions = 0.0, 0
    for g in range(min(games, 30)):
        state = new_game(make_setup(players, seed + g))
        bots = make_bots(["greedy"] * players, seed + g)
        while (seat := to_act(state)) >= 0:
            c = time.process_time()
            action = bots[seat].act(state)
            spent += time.process_time() - c
            decisions += 1
            state, _ = apply(state, action)
    out["greedy decision, ms CPU"] = 1e3 * spent / decisions
    if playout is None:
        return out
    positions = []
    for g in range(4):
        state = new_game(make_setup(players, seed + g))
        bots = make_bots(["greedy"] * players, seed + g)
        k = 0
        while (seat := to_act(state)) >= 0:
            if k % 25 == 0:
                positions.append((state, GreedyBot(0).act(state), seat))
            state, _ = apply(state, bots[seat].act(state))
            k += 1
    c = time.process_time()
    for i, (state, action, me) in enumerate(positions):
        playout(state, action, me, 12345 + i, None)
    out["hard-bot playout, ms CPU"] = 1e3 * (time.process_time() - c) / len(positions)
    return out


def _link_tree(root: Path, into: Path) -> Path:
    """An importable ``colosseum`` package made of links into the checkout ``root`` (the layout
    pyproject maps: colosseum_pkg -> colosseum, core/tui/themes -> its subpackages)."""
    pkg = into / "colosseum"
    pkg.mkdir()
    for f in (root / "colosseum_pkg").iterdir():
        (pkg / f.name).symlink_to(f)
    for sub in ("core", "tui", "themes"):
        if (root / sub).is_dir() and not (pkg / sub).exists():
            (pkg / sub).symlink_to(root / sub)
    return into


def _measure_in(path: Path | None, players: int, games: int, seed: int, python: str | None = None) -> dict[str, float]:
    """``core_figures`` in a fresh process, importing the tree at ``path`` (None: the one
    ``python``, by default this interpreter, imports)."""
    env = dict(os.environ)
    cmd = [python or sys.executable, __file__, "--core-json", "--players", str(players), "--games", str(games)]
    cmd += ["--seed", str(seed)]
    if path is not None:
        env["PYTHONPATH"] = str(path) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def side_by_side(baseline: str, players: int, games: int, seed: int, rounds: int) -> None:
    root = Path(baseline).resolve()
    if not (root / "core" / "engine.py").is_file():
        sys.exit(f"{root} is not a checkout of the project (no core/engine.py)")
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        base_path = _link_tree(root, Path(tmp))
        old: list[dict[str, float]] = []
        new: list[dict[str, float]] = []
        for r in range(rounds):  # alternately, so that a burst of load hits both alike
            old.append(_measure_in(base_path, players, games, seed))
            new.append(_measure_in(None, players, games, seed))
            print(f"round {r + 1}/{rounds} measured", file=sys.stderr)
    print(f"side by side ({players} players, {games} games, best of {rounds} alternating rounds, CPU time):")
    print(f"  {'figure':34} {'baseline':>12} {'this tree':>12} {'speed-up':>9}")
    for key in new[0]:
        higher_is_better = "/CPU s" in key
        pick = max if higher_is_better else min
        t = pick(f[key] for f in new)
        if not any(key in f for f in old):
            print(f"  {key:34} {'-':>12} {t:12,.3f} {'-':>9}")
            continue
        b = pick(f[key] for f in old if key in f)
        ratio = t / b if higher_is_better else b / t
        print(f"  {key:34} {b:12,.3f} {t:12,.3f} {ratio:8.2f}x")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per measurement (default 200)")
    ap.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--winrates", action="store_true", help="also measure win rates")
    ap.add_argument("--baseline", metavar="PATH", help="compare with the checkout at PATH, side by side")
    ap.add_argument("--catanatron", metavar="PYTHON", help="compare with catanatron 3.2.1 run by PYTHON, side by side")
    ap.add_argument(
        "--calibrate",
        metavar="GAME",
        help="playouts the search plays in --seconds of CPU a decision (GAME: colosseum...)",
    )
    ap.add_argument("--seconds", type=float, default=1.0, help="the decision's CPU budget for --calibrate")
    ap.add_argument("--positions", type=int, default=24, help="positions for --calibrate")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds with --baseline (default 3)")
    ap.add_argument(
        "--compiled",
        metavar="PYTHON",
        help="with --catanatron: also measure the mypyc build PYTHON imports (scripts/build_compiled.py --venv)",
    )
    ap.add_argument("--core-json", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--build-kind", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    n, games = a.players, max(1, a.games)
    if a.build_kind:
        print(build_kind())
        return 0
    if a.core_json:
        print(json.dumps(core_figures(n, games, a.seed)))
        return 0
    if a.baseline:
        side_by_side(a.baseline, n, games, a.seed, max(1, a.rounds))
        return 0
    if a.catanatron:
        catanatron_side_by_side(a.catanatron, n, games, a.seed, max(1, a.rounds), a.compiled)
        return 0
    if a.calibrate:
        calibrate(a.calibrate, a.seconds, a.positions, a.seed)
        return 0

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
        acc = statistics.mean(max(r.scores) for r in recs)
        print(f"{n} greedy bots: all {games} games finished; wins {spread}; mean winning Acclaim {acc:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
