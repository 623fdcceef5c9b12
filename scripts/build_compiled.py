"""Build the optional mypyc-compiled engine and bots (setup.py's COMPILED), only on request.

    python scripts/build_compiled.py --venv /tmp/colosseum-compiled   # a separate environment
    python scripts/build_compiled.py --here                            # this environment, editable

README's set-up commands build pure Python and stay so; nothing here runs unless asked.  The
compiled modules are the same code (the same choices: the pinned digests of tests/core pass on
both), imported in place of the ``.py`` files where present; without them Python imports the
``.py`` files.  ``--venv PATH`` makes a fresh virtual environment at PATH (this interpreter's
Python), installs the project there from this checkout with the compiled modules, and prints the
interpreter to give ``benchmarks/bench_engine.py --compiled``: the working environment stays pure
Python.  ``--here`` compiles into the environment running this script (an editable install, as
README's; ``pip install -e .`` again goes back to pure Python): a compiled module then no longer
follows edits to its ``.py`` until it is built again.  Needs a C compiler and mypy (the version
pyproject pins for the tests).  A build takes one to three minutes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy_pin() -> str:
    """The mypy of the test extras (pyproject.toml): mypyc comes with it."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for req in meta["project"]["optional-dependencies"]["test"]:
        if req.replace(" ", "").startswith("mypy=="):
            return str(req)
    return "mypy"


def _run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)


def build(python: str, editable: bool) -> None:
    pip = [python, "-m", "pip", "install", "-q"]
    _run([*pip, _mypy_pin(), "setuptools>=77", "wheel"])
    # the dependencies (and a pure build) first: the compiled build is made without isolation
    _run([*pip, "-e", ".", "--config-settings", "editable_mode=strict"] if editable else [*pip, "."])
    env = dict(os.environ, COLOSSEUM_COMPILE="1")
    target = ["-e", ".", "--config-settings", "editable_mode=strict"] if editable else ["."]
    _run([*pip, "--no-build-isolation", "--no-deps", "--force-reinstall", *target], env)
    check = "import colosseum.core.games.colosseum.engine as e; print(e.__file__)"
    where = subprocess.run([python, "-c", check], capture_output=True, text=True, check=True, cwd="/").stdout.strip()
    if where.endswith(".py"):
        sys.exit(f"the build left the pure module in place: {where}")
    print(f"compiled: {where}")
    print(f"interpreter: {python}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--venv", metavar="PATH", help="make a virtual environment at PATH with the compiled build")
    where.add_argument("--here", action="store_true", help="compile into this environment (editable)")
    a = ap.parse_args(argv)
    if a.here:
        build(sys.executable, editable=True)
        return 0
    venv = Path(a.venv).resolve()
    if not (venv / "bin" / "python").exists():
        _run([sys.executable, "-m", "venv", str(venv)])
    build(str(venv / "bin" / "python"), editable=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
