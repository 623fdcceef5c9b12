"""Speed figures for game logs and the viewer.  Prints figures; never asserts a time.

    python benchmarks/bench_log.py [--actions 1000] [--jumps 200] [--no-viewer]

* the cost of writing a log line (``core.logwriter.LogWriter``: lines/s with and without
  fsync) and of autosave per action through a session's recorder,
* the time to open (read + replay + check) a log of about 1,000 actions,
* the time to jump to any position of it: the first jump to the end of a fresh timeline
  (replays every action), then random jumps, and turn/phase/round steps from random positions
  (target: every jump under 50 ms),
* the viewer (headless Textual, 120x40): time to open, and key press to redrawn screen for
  random jumps, compared with a key that changes nothing.

A real game of bots has 100-250 actions; the 1,000-action log comes from "chatty" bots that
propose (and then withdraw) a deal as often as the rules allow and raise every bid by the least.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from colosseum.core.gamelog import FORMAT_VERSION, dump_log, make_header
from colosseum.core.games.colosseum import GameSetup, RuleError, apply, legal, new_game, to_act
from colosseum.core.games.colosseum.actions import AcceptDeal, CancelDeal, ProposeDeal
from colosseum.core.games.colosseum.bots.random_bot import RandomBot
from colosseum.core.games.colosseum.model import Transfer
from colosseum.core.games.colosseum.rules import RULES
from colosseum.core.logread import read_log
from colosseum.core.timeline import Timeline

NAMES = ("Becky", "Kat", "Laura", "Mia", "Nora")


def chatty_game(seed: int):
    """A long but legal 5-player game: every trade turn is filled with proposals."""
    state = new_game(GameSetup(players=NAMES, seed=seed))
    rb = RandomBot(seed)
    actions = []
    while to_act(state) >= 0:
        ch = legal(state)
        a = next((x for x in ch.actions if isinstance(x, (AcceptDeal, CancelDeal))), None)
        if a is None and ch.can_propose:
            me = ch.player
            others = [o for o in range(state.n) if o != me and state.players[o].coins > 0]
            if others and state.players[me].coins >= len(others):
                a = ProposeDeal(
                    player=me,
                    transfers=tuple(Transfer(me, o, "coins", 1) for o in others)
                    + tuple(Transfer(o, me, "coins", 1) for o in others),
                )
            else:
                a = rb.random_deal(state, me)
        if a is None and ch.bids and rb.rng.random() < 0.9:
            a = ch.bids[0].action(ch.player, ch.bids[0].low)
        if a is None:
            a = rb.act(state)
        try:
            state, _ = apply(state, a)
        except RuleError:
            a = ch.actions[-1]
            state, _ = apply(state, a)
        actions.append(a)
    return GameSetup(players=NAMES, seed=seed), actions


def long_game(target: int):
    best = None
    for seed in range(60):
        setup, actions = chatty_game(seed)
        if best is None or len(actions) > len(best[1]):
            best = (setup, actions)
        if len(actions) >= target:
            break
    return best


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


def timed(fn, repeat: int = 5):
    times = []
    result = None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return result, times


def bench_autosave(folder: Path, setup, actions) -> None:
    """The log writer alone (lines/s, and what the digest of each line costs), then autosave
    through a session's recorder (a move with the recorder minus the same move without)."""
    from colosseum.core.gamelog import Chain
    from colosseum.core.logwriter import LogWriter
    from colosseum.tui.session import LocalSession, Seat
    from colosseum.tui.storage import start_recording

    header = make_header(setup, ("human",) * len(setup.players))
    for version in (1, 2):
        chain, _ = Chain.for_header(msgspec.structs.replace(header, version=version))
        t = time.perf_counter()
        for a in actions:
            chain.action_line(a)
        dt = time.perf_counter() - t
        label = "line with its digest (v2)" if version == 2 else "plain line (v1)"
        print(f"  encoding a {label:<26} {dt / len(actions) * 1e6:8.1f} us per line")
    for fsync in (False, True):
        n = len(actions) if not fsync else min(len(actions), 500)
        with LogWriter.create(folder, f"writer-{int(fsync)}", header, fsync=fsync) as w:
            t = time.perf_counter()
            for a in actions[:n]:
                w.append_action(a)
            dt = time.perf_counter() - t
            size = w.path.stat().st_size
        label = "LogWriter, write + fsync" if fsync else "LogWriter, write (to the OS)"
        print(f"  {label:<34} {n / dt:10,.0f} lines/s  {dt / n * 1e6:8.1f} us per line  ({size} bytes)")
    n = min(len(actions), 300)

    def moves(record: bool, fsync: bool) -> tuple[float, Path | None]:
        s = LocalSession(setup, tuple(Seat("human") for _ in setup.players))
        path = start_recording(s, folder / f"save-{int(fsync)}.jsonl", fsync=fsync) if record else None
        t = time.perf_counter()
        for a in actions[:n]:
            s.submit(a)
        dt = time.perf_counter() - t
        if s.recorder is not None:
            s.recorder.close()
        return dt, path

    bare, _ = moves(False, False)
    print(f"  a move without saving (engine only)        {bare / n * 1e6:8.1f} us per action")
    for fsync in (False, True):
        dt, path = moves(True, fsync)
        assert path is not None
        label = "write + fsync" if fsync else "write (flushed to the OS)"
        print(
            f"  autosave, {label:<26} {(dt - bare) / n * 1e6:8.1f} us per action on top  ({path.stat().st_size} bytes)"
        )


def bench_timeline(setup, actions, jumps: int) -> None:
    rnd = random.Random(1)
    tl = Timeline(RULES, setup, actions)
    t = time.perf_counter()
    tl.state(tl.end)
    first = time.perf_counter() - t
    print(f"  first jump to the end of a fresh timeline (replays all): {ms(first)}")
    times = []
    for _ in range(jumps):
        i = rnd.randrange(len(tl))
        t = time.perf_counter()
        tl.state(i)
        times.append(time.perf_counter() - t)
    print(f"  random jumps after that: median {ms(statistics.median(times))}, max {ms(max(times))}")
    for kind in ("action", "turn", "phase", "round"):
        times = []
        for _ in range(jumps):
            i = rnd.randrange(len(tl))
            t = time.perf_counter()
            tl.next(kind, i) if rnd.random() < 0.5 else tl.prev(kind, i)
            times.append(time.perf_counter() - t)
        print(f"  step by {kind:<6}: median {ms(statistics.median(times))}, max {ms(max(times))}")


async def _viewer(log, jumps: int, size) -> None:
    from colosseum.tui.review_app import ViewerApp

    rnd = random.Random(2)
    t = time.perf_counter()
    app = ViewerApp(log)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        opened = time.perf_counter() - t
        screen = app.screen
        base = []
        for _ in range(20):
            t = time.perf_counter()
            await pilot.press("x")  # bound to nothing
            await pilot.pause()
            base.append(time.perf_counter() - t)
        go, drawn, keyed, cpu = [], [], [], []
        for _ in range(jumps):
            i = rnd.randrange(log.timeline.end + 1)
            c = time.process_time()
            t = time.perf_counter()
            screen.go(i)
            mid = time.perf_counter()
            # lay out and draw the whole screen now (what the next refresh does)
            screen._refresh_layout(screen.size)
            screen._compositor.render_update(full=True)
            done = time.perf_counter()
            cpu.append(time.process_time() - c)
            await pilot.pause()
            go.append(mid - t)
            drawn.append(done - t)
            keyed.append(time.perf_counter() - t)
        steps = []
        for key in ("right", "down", "pagedown", "right_square_bracket", "end", "home", "left", "pageup") * 5:
            t = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            steps.append(time.perf_counter() - t)
    b = statistics.median(base)
    print(f"  viewer {size[0]}x{size[1]}: open {ms(opened)} (log already read)")
    print(f"    go(i) (update every panel): median {ms(statistics.median(go))}, max {ms(max(go))}")
    print(
        f"    go(i) + layout + full render: median {ms(statistics.median(drawn))}, max {ms(max(drawn))}"
        f"  (CPU time: median {ms(statistics.median(cpu))}, max {ms(max(cpu))})"
    )
    print(
        f"    go(i) + pilot pause: median {ms(statistics.median(keyed))}, max {ms(max(keyed))}"
        f"  (a pilot pause alone: {ms(b)})"
    )
    print(f"    navigation key + pilot pause: median {ms(statistics.median(steps))}, max {ms(max(steps))}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=1000, help="least length of the long log")
    ap.add_argument("--jumps", type=int, default=200)
    ap.add_argument("--no-viewer", action="store_true")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    setup, actions = long_game(args.actions)
    print(f"log of {len(actions)} actions (seed {setup.seed}), made in {time.perf_counter() - t:.2f} s")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "long.jsonl"
        header = make_header(setup, ("greedy",) * len(setup.players), version=FORMAT_VERSION)
        data = dump_log(header, actions, end=True)  # as LogWriter writes it: digests, end line
        path.write_bytes(data)
        print(f"  file: {len(data)} bytes, {len(data) / (len(actions) + 1):.0f} bytes per line")
        bench_autosave(folder, setup, actions)
        log, times = timed(lambda: read_log(path))
        assert log.error is None and len(log.actions) == len(actions)
        print(
            f"  open (read + replay + check every action): median {ms(statistics.median(times))}, max {ms(max(times))}"
        )
        import tracemalloc

        tracemalloc.start()
        kept = read_log(path)
        size, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  memory for all {len(kept.actions) + 1} positions (states share structure): {size / 1e6:.1f} MB")
        del kept
        bench_timeline(setup, actions, args.jumps)
        if not args.no_viewer:
            for size in ((120, 40), (80, 24)):
                asyncio.run(_viewer(read_log(path), min(args.jumps, 100), size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
