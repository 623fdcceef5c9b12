"""The server's benchmarks run, at a tiny size, so they cannot rot unseen (issue 24: both waited
for a lobby title that had changed).  They print figures; nothing here judges them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _run(script: str, *args: str, timeout: float = 240) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
def test_the_load_benchmark_runs_at_a_tiny_size():
    size = ("--sessions", "3", "--tables", "1", "--players", "2", "--seats", "3")
    out = _run("bench_ssh_load.py", *size, "--seconds", "4", "--settle", "1", "--bot-delay", "0.5")
    assert "SSH sessions with a PTY in the lobby" in out and "its log line on every screen" in out, out


@pytest.mark.slow
def test_the_abuse_benchmark_runs_at_a_tiny_size():
    out = _run("bench_abuse.py", "--seconds", "1", "--budget-sessions", "2")
    assert "quiet:" in out and "sessions from many addresses until full" in out and "moves" in out, out


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("chromium") is None and not os.environ.get("COLOSSEUM_REQUIRE_BROWSER"),
    reason="Chromium is not installed",
)
def test_the_web_benchmark_runs_at_a_tiny_size():
    out = _run("bench_web.py", "--sessions", "1", "--keys", "1", "--settle", "0", timeout=120)
    assert "key to screen change" in out and "client process memory" in out and "SSH:" in out, out


@pytest.mark.parametrize("where", [(), ("--pty",)], ids=["counting", "pty"])
def test_the_screen_benchmark_runs_at_a_tiny_size(where):
    out = _run("bench_screen.py", "--moves", "5", "--players", "3", "--size", "80x24", *where, timeout=120)
    assert "5 moves watched; processor time per move median" in out and "characters written a move" in out, out
