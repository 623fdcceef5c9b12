"""The terminal driver's input thread sleeps while nothing is typed (tui/driver.py, issue 24):
a real ``colosseum play`` in a pseudo-terminal, idle, wakes no thread ten times a second as
Textual's own driver does; keys still arrive (a lone Escape included, told apart from an
escape sequence by its pause) and Ctrl+Q still ends the program at once."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

from ptyspawn import spawn_in_pty

COLS, ROWS = 100, 30


class Pty:
    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc, self.fd = spawn_in_pty(argv, env, COLS, ROWS)
        os.set_blocking(self.fd, False)
        self.out = b""

    def read(self) -> str:
        try:
            while True:
                data = os.read(self.fd, 65536)
                if not data:
                    break
                self.out += data
        except (BlockingIOError, OSError):
            pass
        return re.sub(r"\x1b\[[0-9;?<>]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]", "", self.out.decode("utf-8", "replace"))

    def wait_for(self, word: str, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while word not in self.read():
            assert self.proc.poll() is None, self.read()[-2000:]
            assert time.monotonic() < end, f"{word!r} never shown: {self.read()[-2000:]}"
            time.sleep(0.05)

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.fd)


def context_switches(pid: int) -> int:
    """Voluntary context switches of every thread of ``pid`` (each sleep and wake-up is one)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        status = (task / "status").read_text()
        total += int(re.search(r"voluntary_ctxt_switches:\s+(\d+)", status).group(1))
    return total


def idle_game(tmp_path: Path) -> Pty:
    """``colosseum play`` in a pseudo-terminal: a person's first decision, random bots that
    wait 60 s a move (the longest pause there is), hostile names."""
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "COLOSSEUM_DATA_DIR": str(tmp_path / "data"),
        "COLOSSEUM_CONFIG_DIR": str(tmp_path / "config"),
        "COLOSSEUM_FSYNC": "0",
        "HOME": str(tmp_path),
    }
    env.pop("TEXTUAL_DRIVER", None)
    argv = [sys.executable, "-c", "from colosseum.tui.cli import main; main()", "play", "--seed", "3"]
    argv += ["--players", "3", "--humans", "1", "--bots", "random", "--bot-delay", "60", "--names", "Kat,[/a],小明"]
    return Pty(argv, env)


def test_an_idle_game_sleeps_and_keys_and_quitting_still_work(tmp_path):
    term = idle_game(tmp_path)
    try:
        term.wait_for("starting gates")
        time.sleep(1.0)  # the first frame's after-work done
        before = context_switches(term.proc.pid)
        time.sleep(2.0)
        woken = context_switches(term.proc.pid) - before
        # Textual's driver alone wakes 20 times in 2 s; a clock ticking once a second and the
        # odd timer may wake the process a few times
        assert woken < 12, f"{woken} wake-ups in 2 s of nothing typed"

        term.out = b""
        term.send(b"\x1b")  # a lone Escape: closes the dialog once its pause tells it apart
        term.wait_for("a Act", timeout=10)  # the game screen's key bar offers the dialog again

        term.send(b"\x11")  # Ctrl+Q: asks first, the game still going
        term.wait_for("colosseum resume", timeout=10)
        started = time.monotonic()
        term.send(b"y")
        term.proc.wait(timeout=10)
        assert time.monotonic() - started < 5
    finally:
        term.close()


def test_a_terminal_closed_without_a_hangup_ends_the_program_and_keeps_the_game(tmp_path):
    """The pseudo-terminal is closed and no SIGHUP reaches the program (it is not its
    controlling terminal): standard input is at its end for good.  The program used to read it
    in a loop at a full core for ever; it now leaves as on a hangup, and the game is saved."""
    term = idle_game(tmp_path)
    try:
        term.wait_for("starting gates")
        time.sleep(1.0)  # the game is being saved by now (RECORD_AFTER)
        os.close(term.fd)
        term.fd = os.open(os.devnull, os.O_RDONLY)  # (closed again by ``close``)
        started = time.monotonic()
        status = term.proc.wait(timeout=15)
        assert status == 0
        assert time.monotonic() - started < 10
    finally:
        term.close()
    from colosseum.core.logread import read_log

    saved = list((tmp_path / "data" / "games").glob("*.jsonl"))
    assert len(saved) == 1
    assert read_log(saved[0]).header.setup.players == ("Kat", "[/a]", "小明")
