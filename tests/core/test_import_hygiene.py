"""The engine is reachable without the UI (design: core/ never imports Textual)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_core_imports_without_textual():
    code = (
        "import sys, colosseum.core, colosseum.core.games.colosseum.bots, colosseum.core.games.colosseum.offers;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich') or m.startswith('colosseum.tui')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_textual_import_in_core_sources():
    for path in (ROOT / "core").rglob("*.py"):
        for line in path.read_text().splitlines():
            s = line.strip()
            assert not s.startswith(("import textual", "from textual", "import rich", "from rich")), path


def test_import_linter_contracts():
    """import-linter's contracts (pyproject.toml) hold for the installed package."""
    r = subprocess.run(
        [sys.executable, "-m", "importlinter.cli", "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
