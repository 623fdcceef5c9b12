"""Start-up time of the client beside a bare one-widget Textual app, measured in one run.

    python benchmarks/bench_startup.py [--runs 15]

Each sample starts a fresh Python process in a pseudo-terminal (80x24) and measures the wall
time from just before the process is spawned to the moment the terminal receives the first
frame of the screen measured, recognised by a word only that screen draws (read from the
pseudo-terminal as a person would see it, escape sequences stripped; the child is then ended).
This is the first paint, whatever the program does next (bots moving, dialogs opening).

* bare: a one-widget Textual app ("hello");
* ``colosseum`` with no arguments: the new-game screen;
* ``colosseum play --players 4 --humans 1 --seed 1 --bot-delay 0``: the game screen (its
  "Arena" panel), and the first decision's dialog ("Starting gates").  A person's first
  decision is drawn in the game screen's first frame when the bots before it play at once (D-85):
  the dialog then covers the "Impresarios" panel.

The samples are taken in rounds, one of each program per round in a shuffled order, so all
see the same machine load; each program's figure is the median over the rounds of its time
divided by the bare app's time in the same round (target <= 1.3x), with the spread of those
ratios (quartiles).  The child's CPU time up to the first paint is given the same way: it barely
moves when other processes load the machine, so it is the steadier figure there.  Bytecode is cached (in a temporary PYTHONPYCACHEPREFIX, warmed by one
untimed run of each) as it is for an installed package.  Prints figures; never asserts a time.

``--reference`` adds two bare Textual apps that draw screens like the client's (not targets;
their ratios are to the same one-widget app): a form of about 45 widgets with six one-line
inputs (as the new-game screen), and four bordered panels with a modal dialog pushed on them
before the first frame, an option list and a footer in it (as the first decision).  What Textual
itself takes to draw such screens bounds what the client can reach.
"""

from __future__ import annotations

import argparse
import os
import pty
import random
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time

BARE = r"""
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("hello")

Bare().run()
"""

CLIENT = r"""
import sys
from colosseum.tui.cli import main
sys.exit(main(%r))
"""

PLAY = ["play", "--players", "4", "--humans", "1", "--seed", "1", "--bot-delay", "0"]

#: (label, child code, the word its first frame shows)
PROGRAMS = (
    ("bare one-widget Textual app", BARE, "hello"),
    ("colosseum (no arguments): new-game screen", CLIENT % ([],), "New game"),
    ("colosseum play: game screen drawn", CLIENT % (PLAY,), "Arena"),
    ("colosseum play: first decision dialog drawn", CLIENT % (PLAY,), "Starting gates"),
)

REFERENCE_FORM = r"""
from textual.app import App
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Static

class Form(App):
    CSS = '''
    #title { dock: top; height: 1; background: $panel; }
    #body { border: round $primary; padding: 0 1; }
    .row { height: 1; margin: 0 0 1 0; }
    .label { width: 10; }
    Input { width: 24; }
    '''

    def compose(self):
        yield Static(" FORM  New form", id="title")
        with VerticalScroll(id="body"):
            with Horizontal(classes="row"):
                yield Static("Game", classes="label")
                yield Static("< Colosseum >")
                yield Static("Players", classes="label")
                yield Static("< 4 >")
            with Vertical():
                for i in range(4):
                    with Horizontal(classes="row"):
                        yield Static(str(i + 1))
                        yield Input(f"Name {i}", compact=True)
                        yield Static("< human >")
            with Horizontal(classes="row"):
                yield Static("Seed", classes="label")
                yield Input("", placeholder="random", compact=True)
            for j in range(3):
                with Horizontal(classes="row"):
                    yield Static(f"Option {j}", classes="label")
                    yield Static("< value >")
            yield Static("Start")
            yield Static("hint text " * 12)
        yield Footer()

Form().run()
"""

REFERENCE_MODAL = r"""
from textual.app import App
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

class Dialog(ModalScreen):
    CSS = '''
    Dialog { align: right top; background: $background 0%; }
    Dialog > Vertical {
        width: 39; height: auto; margin-top: 1; border: round $primary; background: $surface; padding: 0 1;
    }
    '''

    def compose(self):
        with Vertical() as box:
            box.border_title = "Dialog title"
            yield Static("Since your last turn" + "\n- a line" * 3)
            yield Static("Prompt: choose a pair")
            yield Static("Info text " * 8)
            yield OptionList(*[Option(f"Spaces {i} and {i + 1}") for i in range(4)])
            yield Static("Detail text " * 6)
        yield Footer()

class Panels(Screen):
    CSS = '''
    #left { width: 41; }
    .panel { border: round $primary; height: 1fr; }
    '''

    def compose(self):
        yield Static(" PANELS  R1/4 Setup | prompt line")
        with Horizontal():
            with Vertical(id="left"):
                yield Static(("board " * 6 + "\n") * 9, classes="panel")
                yield Static("log line\n" * 6, classes="panel")
            with Vertical():
                yield Static(("players " * 4 + "\n") * 6, classes="panel")
                yield Static(("hand " * 6 + "\n") * 6, classes="panel")
        yield Static(" keys keys keys")

    def on_mount(self):
        self.app.push_screen(Dialog())

class Bare(App):
    def get_default_screen(self):
        return Panels()

Bare().run()
"""

#: ``--reference``: bare Textual apps drawing screens like the client's (not targets)
REFERENCES = (
    ("reference: bare app, a form of ~45 widgets", REFERENCE_FORM, "New form"),
    ("reference: bare app, panels + modal dialog", REFERENCE_MODAL, "Dialog title"),
)

_ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")
TIMEOUT = 30.0


def sample(code: str, word: str, tmp: str) -> tuple[float, float]:
    """Seconds from spawning ``code`` to ``word`` on its terminal, and the CPU seconds the
    child had used by then (it is ended as soon as the word is seen)."""
    env = dict(
        os.environ,
        COLOSSEUM_DATA_DIR=tmp,
        COLOSSEUM_CONFIG_DIR=tmp,
        TERM="xterm-256color",
        COLUMNS="80",
        LINES="24",
        PYTHONPYCACHEPREFIX=os.path.join(tmp, "pycache"),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: compiled once, then loaded
    env.pop("NO_COLOR", None)
    master, slave = pty.openpty()
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    except (ImportError, OSError):
        pass
    target = word.encode()
    seen = b""
    found: float | None = None
    cpu = float("nan")
    t0 = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
        start_new_session=True,
    )
    os.close(slave)
    try:
        while found is None and time.time() - t0 < TIMEOUT:
            r, _, _ = select.select([master], [], [], 0.05)
            if not r:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break  # the child is gone
            now = time.time()
            seen = (seen + chunk)[-200_000:]
            if target in _ESCAPES.sub(b"", seen):
                found = now
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # its own session: this child and nothing else
        except ProcessLookupError:
            pass
        _pid, status, usage = os.wait4(proc.pid, 0)  # reaped here, for its CPU time
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
        os.close(master)
    if found is None:
        tail = _ESCAPES.sub(b"", seen)[-2000:].decode(errors="replace")
        raise RuntimeError(f"{word!r} never appeared (exit status {proc.returncode}); the terminal showed:\n{tail}")
    return found - t0, cpu


def quartiles(xs: list[float]) -> tuple[float, float]:
    if len(xs) < 4:
        return min(xs), max(xs)
    q = statistics.quantiles(xs, n=4)
    return q[0], q[2]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="rounds (one sample of each program per round)")
    ap.add_argument("--seed", type=int, default=1, help="the shuffle of each round's order")
    ap.add_argument("--reference", action="store_true", help="also bare Textual apps drawing screens like the client's")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    programs = PROGRAMS + (REFERENCES if args.reference else ())
    wall: dict[str, list[float]] = {label: [] for label, _c, _w in programs}
    cpu: dict[str, list[float]] = {label: [] for label, _c, _w in programs}
    with tempfile.TemporaryDirectory() as tmp:
        for _label, code, word in programs:  # warm the file cache and bytecode
            sample(code, word, tmp)
        for _ in range(args.runs):
            order = list(programs)
            rng.shuffle(order)
            for label, code, word in order:
                w, c = sample(code, word, tmp)
                wall[label].append(w)
                cpu[label].append(c)
    bare = PROGRAMS[0][0]
    print(f"{'first paint':<44} {'wall':>9} {'ratio (quartiles)':>22} {'CPU':>9} {'ratio (quartiles)':>22}")
    for label, _c, _w in programs:
        cells = []
        for xs, base in ((wall[label], wall[bare]), (cpu[label], cpu[bare])):
            ratios = [x / b for x, b in zip(xs, base, strict=True)]
            lo, hi = quartiles(ratios)
            cells.append(
                f"{statistics.median(xs) * 1000:6.1f} ms {statistics.median(ratios):7.2f}x ({lo:.2f}-{hi:.2f})"
            )
        print(f"{label:<44} {cells[0]:>32} {cells[1]:>32}")
    print(
        f"ratio: to the bare app's in the same round, median of {args.runs} rounds (shuffled order);"
        " CPU: the child's user+system time up to the first paint (steady under load); target <= 1.3x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
