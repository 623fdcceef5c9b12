"""Start-up time of the client beside a bare one-widget Textual app, measured in one run.

    python benchmarks/bench_startup.py [--runs 7]

Each sample starts a fresh Python process in a pseudo-terminal (80x24) and measures the wall
time from just before the process is spawned to the moment the first interactive screen has
been drawn (Textual's auto-pilot runs after the first screen is up; the child notes the time
and exits).  The client is started through its real entry point as
``colosseum play --players 4 --humans 1 --seed 1`` and counts as ready when the game screen
(with the first human decision) is up.  Prints the medians and the ratio (target <= 1.3x).
Bytecode is cached (in a temporary PYTHONPYCACHEPREFIX, warmed by one untimed run of each) as
it is for an installed package; PYTHONDONTWRITEBYTECODE would otherwise make every start
recompile the project's sources.  Prints figures; never asserts a time.
"""

from __future__ import annotations

import argparse
import os
import pty
import statistics
import subprocess
import sys
import tempfile
import time

CHILD_COMMON = r"""
import sys, time, os, asyncio
from textual.app import App

async def _ready(pilot):
    # Textual starts the auto-pilot once the app is up.  Wait (without pilot.pause, which
    # would also wait for bots and dialogs) until READY, then note the time once the next
    # frame has been painted.
    app = pilot.app
    done = asyncio.Event()

    def mark():
        with open(os.environ["BENCH_OUT"], "w") as f:
            f.write(repr(time.time()))
        done.set()

    while not READY(app):
        await asyncio.sleep(0.002)
    app.screen.call_after_refresh(mark)
    app.screen.refresh()
    await done.wait()
    app.exit(return_code=0)

_orig_run = App.run
def _run(self, *a, **kw):
    kw["auto_pilot"] = _ready
    return _orig_run(self, *a, **kw)
App.run = _run
"""

BARE = (
    CHILD_COMMON
    + r"""
from textual.widgets import Static
READY = lambda app: True
class Bare(App):
    def compose(self):
        yield Static("hello")
Bare().run()
"""
)

CLIENT_SCREEN = (
    CHILD_COMMON
    + r"""
READY = lambda app: type(app.screen).__name__ == "GameScreen" or any(
    type(s).__name__ == "GameScreen" for s in app.screen_stack)
from colosseum.tui.cli import main
sys.exit(main(["play", "--players", "4", "--humans", "1", "--seed", "1", "--bot-delay", "0"]))
"""
)

NEW_GAME = (
    CHILD_COMMON
    + r"""
READY = lambda app: type(app.screen).__name__ == "NewGameScreen"
from colosseum.tui.cli import main
sys.exit(main([]))
"""
)

CLIENT = (
    CHILD_COMMON
    + r"""
from textual.screen import ModalScreen
READY = lambda app: isinstance(app.screen, ModalScreen) and any(
    type(s).__name__ == "GameScreen" for s in app.screen_stack)
from colosseum.tui.cli import main
sys.exit(main(["play", "--players", "4", "--humans", "1", "--seed", "1", "--bot-delay", "0"]))
"""
)


def sample(code: str, tmp: str) -> float:
    out = os.path.join(tmp, "ready")
    if os.path.exists(out):
        os.unlink(out)
    env = dict(
        os.environ,
        BENCH_OUT=out,
        COLOSSEUM_DATA_DIR=tmp,
        COLOSSEUM_CONFIG_DIR=tmp,
        TERM="xterm-256color",
        COLUMNS="80",
        LINES="24",
        PYTHONPYCACHEPREFIX=os.path.join(tmp, "pycache"),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: compiled once, then loaded
    master, slave = pty.openpty()
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    except Exception:  # noqa: BLE001
        pass
    t0 = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
    )
    os.close(slave)
    # drain the terminal output so the child never blocks on a full pty
    import select

    while proc.poll() is None:
        r, _, _ = select.select([master], [], [], 0.05)
        if r:
            try:
                os.read(master, 65536)
            except OSError:
                break
    proc.wait()
    os.close(master)
    with open(out) as f:
        return float(f.read()) - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    bare, newgame, screen, client = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for code in (BARE, NEW_GAME, CLIENT_SCREEN, CLIENT):  # warm the file cache and bytecode
            sample(code, tmp)
        for _ in range(args.runs):  # interleaved, so all see the same machine load
            bare.append(sample(BARE, tmp))
            newgame.append(sample(NEW_GAME, tmp))
            screen.append(sample(CLIENT_SCREEN, tmp))
            client.append(sample(CLIENT, tmp))
    b = statistics.median(bare)

    def line(label, xs):
        m = statistics.median(xs)
        print(
            f"{label:<44} median {m * 1000:7.1f} ms  (min {min(xs) * 1000:6.1f}, max {max(xs) * 1000:6.1f})  {m / b:.2f}x"
        )

    line("bare one-widget Textual app", bare)
    line("colosseum (no arguments): new-game screen", newgame)
    line("colosseum play: game screen drawn", screen)
    line("colosseum play: first decision dialog drawn", client)
    print(f"ratio = time / bare app; target <= 1.3x; {args.runs} runs each, interleaved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
