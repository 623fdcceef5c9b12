"""What one move costs a watching screen: the processor time from a new state to its rows
written out, in one process.  Prints figures; asserts nothing.

A game is played first by bots (seeded); then the game screen is opened on it as a spectator
sees it and the game's actions are given to it one by one, as a table server pushes them.
Each step is timed from the state handed over until the screen has drawn it and written it to
a terminal driver (one that counts the bytes it is given instead of sending them): the work
each client process of an SSH table does for every move at the table.

    python benchmarks/bench_screen.py [--game colosseum] [--players 5] [--size 110x32]
    python benchmarks/bench_screen.py --profile 30      # the 30 costliest functions too
    python benchmarks/bench_screen.py --pty             # Textual's own driver on a real terminal

With ``--pty`` the screen runs in a child process on a pseudo-terminal, with the terminal
driver every client process uses (its writer thread included), as an SSH session's client
process does; this process reads the terminal's output as an SSH server would.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import fcntl
import io
import json
import os
import pstats
import pty
import statistics
import struct
import sys
import termios
import time
from pathlib import Path
from typing import Any

from textual.drivers.headless_driver import HeadlessDriver

from colosseum.core.registry import rules
from colosseum.core.simulate import make_bots, play_game
from colosseum.tui.session import LocalSession, Seat


class CountingDriver(HeadlessDriver):
    """A terminal that takes what the app writes and counts it (Textual skips writing to a
    headless driver, and the writing is part of the cost)."""

    written = 0

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        CountingDriver.written += len(data)


class Watched(LocalSession):
    """A game of bots whose moves the benchmark makes, one at a time."""

    def local_seats(self) -> tuple[int, ...]:
        return ()

    def bot_to_act(self) -> bool:
        return False

    async def run_bots(self, delay: float = 0.0) -> None:
        return None


def play(game: str, players: int, seed: int) -> tuple[Any, list[Any]]:
    """A whole game of normal bots: its setup and its actions."""
    r = rules(game)
    setup = r.spec.make_setup(r.spec.default_names[:players], seed=seed)
    actions: list[Any] = []
    play_game(setup, make_bots(["normal"] * players, seed, game=game), on_action=lambda _s, a, _n: actions.append(a))
    return setup, actions


def written(app: Any) -> int:
    """What the app has handed its driver so far (characters)."""
    driver = app._driver
    if isinstance(driver, CountingDriver):
        return CountingDriver.written
    return getattr(driver, "bench_written", 0)


def count_writes(driver_class: type) -> type:
    """``driver_class`` that also counts what it is given."""

    class Counted(driver_class):  # type: ignore[valid-type,misc]
        bench_written = 0

        def write(self, data: str) -> None:
            self.bench_written += len(data)
            super().write(data)

    return Counted


async def measure(
    setup: Any,
    actions: list[Any],
    size: tuple[int, int],
    skip: int,
    profile: cProfile.Profile | None,
    real: bool = False,
) -> list[float]:
    from colosseum.tui.app import ColosseumApp

    session = Watched(setup, tuple(Seat("normal") for _ in setup.players), actions=actions[:skip])
    app = ColosseumApp(session, bot_delay=0.0, auto_dialogs=False)
    # (run_async with headless=False takes the app's driver class)
    app.driver_class = count_writes(app.get_driver_class()) if real else CountingDriver
    times: list[float] = []

    async def pilot_run(pilot: Any) -> None:
        await pilot.pause(0.3)
        for action in actions[skip:]:
            before = written(app)
            t0 = time.process_time()
            if profile is not None:
                profile.enable()
            session.submit(action)
            # until the screen's refresh has been written (Textual draws on its next frame)
            for _ in range(50):
                await asyncio.sleep(1 / 120)
                if written(app) != before and not app.screen._dirty_widgets:
                    break
            if profile is not None:
                profile.disable()
            times.append(time.process_time() - t0)
        app.exit(written(app))

    await app.run_async(headless=False, size=None if real else size, auto_pilot=pilot_run)
    if real:
        CountingDriver.written = app.return_value or 0
    return times


def on_pty(argv: list[str], size: tuple[int, int]) -> dict[str, Any]:
    """Run this benchmark's measuring part in a child process on a pseudo-terminal of ``size``;
    its figures."""
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        pid, master = pty.fork()
        if pid == 0:  # the child: the screen on the terminal
            os.environ["TERM"] = "xterm-256color"
            try:
                os.execv(sys.executable, [sys.executable, __file__, *argv, "--inner", out.name])
            finally:
                os._exit(1)
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        os.kill(pid, 28)  # SIGWINCH: the size set after the child started
        while True:  # drain what the screen writes, as an SSH server reads a session's terminal
            try:
                if not os.read(master, 65536):
                    break
            except OSError:
                break
        _, status = os.waitpid(pid, 0)
        if status:
            raise SystemExit(f"the screen on the terminal failed (status {status})")
        return json.loads(Path(out.name).read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="colosseum")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--size", default="110x32")
    ap.add_argument("--moves", type=int, default=150, help="moves shown (after the first 20)")
    ap.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    ap.add_argument("--sort", default="tottime", help="the order of --profile (tottime, cumulative)")
    ap.add_argument("--pty", action="store_true", help="on a pseudo-terminal with the real driver")
    ap.add_argument("--inner", default="", help=argparse.SUPPRESS)  # (--pty's child: where its figures go)
    a = ap.parse_args()
    cols, rows = (int(v) for v in a.size.split("x"))
    if a.pty:
        argv = [v for v in sys.argv[1:] if v != "--pty"]
        figures = on_pty(argv, (cols, rows))
    else:
        setup, actions = play(a.game, a.players, a.seed)
        skip = min(20, len(actions) - 1)
        actions = actions[: skip + a.moves]
        profile = cProfile.Profile() if a.profile else None
        times = asyncio.run(measure(setup, actions, (cols, rows), skip, profile, real=bool(a.inner)))
        figures = {"ms": sorted(1000 * t for t in times), "written": CountingDriver.written}
        if profile is not None:
            stats = io.StringIO()
            pstats.Stats(profile, stream=stats).sort_stats(a.sort).print_stats(a.profile)
            figures["profile"] = stats.getvalue()
        if a.inner:
            Path(a.inner).write_text(json.dumps(figures))
            return 0
    ms = figures["ms"]
    where = "on a pseudo-terminal" if a.pty else "driver counting"
    print(
        f"{a.game}, {a.players} players, {cols}x{rows} ({where}): {len(ms)} moves watched; processor time per move "
        f"median {statistics.median(ms):.2f} ms, p90 {ms[int(0.9 * len(ms))]:.2f}, worst {ms[-1]:.2f}; "
        f"{figures['written'] / max(1, len(ms)):.0f} characters written a move"
    )
    if "profile" in figures:
        print(figures["profile"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
