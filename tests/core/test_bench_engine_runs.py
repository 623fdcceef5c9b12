"""benchmarks/bench_engine.py runs (at a tiny size: it prints figures, nothing here times)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_engine.py"


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_it_names_the_build_it_measures() -> None:
    kind = _run("--build-kind").strip()
    assert kind == "pure Python" or kind.startswith("mypyc-compiled")


def test_the_core_figures_of_one_round() -> None:
    figures = json.loads(_run("--core-json", "--games", "1").strip().splitlines()[-1])
    for key in ("checked apply, actions/CPU s", "hard-bot playout, ms CPU", "random playouts, actions/CPU s"):
        assert figures[key] > 0


def test_compiled_refuses_an_interpreter_without_the_compiled_build() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--catanatron", sys.executable, "--compiled", sys.executable, "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0 and "runs no compiled build" in done.stderr
