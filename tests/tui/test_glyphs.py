"""Every screen we keep a snapshot of is drawn in ASCII and box drawing only: no emoji, no
block elements, triangles or other glyphs that terminals in some locales draw two cells wide
(the layout would break over SSH in such a terminal)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

SNAPSHOTS = sorted((Path(__file__).parent / "__snapshots__").glob("*/*.svg"))


def allowed(ch: str) -> bool:
    return ch.isascii() or 0x2500 <= ord(ch) <= 0x257F or ch == "\xa0"


def test_there_are_snapshots_to_check():
    assert len(SNAPSHOTS) >= 60


@pytest.mark.parametrize("path", SNAPSHOTS, ids=[p.stem for p in SNAPSHOTS])
def test_snapshot_uses_ascii_and_box_drawing_only(path):
    text = html.unescape("".join(re.findall(r"<text [^>]*>([^<]*)</text>", path.read_text())))
    bad = sorted({ch for ch in text if not allowed(ch)})
    assert not bad, [f"U+{ord(ch):04X}" for ch in bad]
