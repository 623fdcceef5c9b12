"""Rooms of a size one can hold in mind: no module of the program (``core/``, ``tui/``) is over
600 lines (issue 25).  A module that grows past it is split by concern, never let through."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 600


def test_no_module_is_over_600_lines() -> None:
    over = []
    for folder in ("core", "tui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > LIMIT:
                over.append(f"{path.relative_to(ROOT)}: {n} lines")
    assert not over, "modules over 600 lines (split them by concern):\n" + "\n".join(over)
