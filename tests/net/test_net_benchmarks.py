"""The server's benchmarks run, at a tiny size, so they cannot rot unseen (issue 24: both waited
for a lobby title that had changed).  They print figures; nothing here judges them."""

from __future__ import annotations

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
