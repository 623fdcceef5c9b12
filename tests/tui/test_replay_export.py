"""``colosseum export --format html``: one self-contained page stepping through a whole game as
the viewer shows it; ``--format svg``: one position.  Structural tests of the files (the page in
a real browser: tests/web/test_replay_browser.py)."""

from __future__ import annotations

import asyncio
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from replaygame import NAMES, page_data, page_frames, same_position, save_game, viewer_screen

from colosseum.core.logread import read_log
from colosseum.tui.cli import main as cli
from colosseum.tui.replay import replay_html

#: a resource the browser would fetch: src/href/url()/@import of anything but the page itself
FETCHES = re.compile(
    r"""(?:\bsrc|\bhref|\bxlink:href)\s*=\s*["']?(?!#|data:)[^\s"'>]|url\(\s*["']?(?!#|data:)|@import"""
)


def no_fetches(text: str, *, svg: bool = False) -> None:
    allowed = {"http://www.w3.org/2000/svg"} if svg else set()
    assert set(re.findall(r"https?://[^\s\"'<>)]*", text)) <= allowed
    assert not FETCHES.search(text), FETCHES.search(text)


@pytest.fixture(scope="module")
def grand(tmp_path_factory) -> Path:
    return save_game(tmp_path_factory.mktemp("replay"), "colosseum", 5, 3, name="grand")


def test_the_html_replay_of_a_whole_game(grand: Path, tmp_path: Path):
    out = tmp_path / "replay.html"
    assert cli(["export", str(grand), "--format", "html", "--size", "80x24", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    log = read_log(grand)
    end = log.timeline.end
    no_fetches(page)
    # user text is text: escaped in the head, never a tag; the frames are data read as text
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert len(re.findall(r"<script\b", page)) == 2
    frames = page_frames(page)
    assert len(frames) == end + 1  # every position, from the start to the end
    for i, frame in enumerate(frames):
        rows = frame.split("\n")
        assert len(rows) == 24 and f"({i}/{end})" in rows[-1]
        if i:
            assert re.search(rf"(^|[│|\s]){i}\. ", frame, re.M), f"action {i} is not in its frame's history"
    assert all(name in frames[0] for name in NAMES[:3])
    data = page_data(page)
    assert data["start"] == 0 and all(len(data["nav"][k][0]) == end + 1 for k in ("turn", "phase", "round"))
    # the page's frames are the viewer's screen, at the start and a few actions on
    for i in (0, 7):
        same_position(frames[i], asyncio.run(viewer_screen(log, i, (80, 24))), i, end)
    print(f"whole game: {end} actions, {len(page):,} bytes")


@pytest.mark.parametrize(
    ("game", "players", "options"), [("municipium", 2, {}), ("colosseum", 3, {"variant": "original"})]
)
def test_every_game_makes_a_replay(tmp_path: Path, game, players, options):
    log = read_log(save_game(tmp_path, game, 3, players, cut=30, **options))
    page = replay_html(log, size=(80, 24), start=4)
    no_fetches(page)
    frames = page_frames(page)
    assert len(frames) == log.timeline.end + 1 and page_data(page)["start"] == 4
    assert all(len(f.split("\n")) == 24 for f in frames)
    assert "小明" in frames[0] and "<script>alert" not in page


def test_svg_of_one_position(grand: Path, tmp_path: Path, capsys):
    out = tmp_path / "p.svg"
    assert cli(["export", str(grand), "--format", "svg", "--at", "m12", "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    no_fetches(svg, svg=True)
    root = ET.fromstring(svg)  # well-formed: the names are escaped
    text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")).replace("\xa0", " ")
    assert "action 12 (12/" in text
    assert "<script>alert(1)</script>" not in svg and "&lt;script&gt;" in svg
    assert cli(["export", str(grand), "--format", "svg", "--at", "r2"]) == 0  # to the standard output
    assert capsys.readouterr().out.startswith("<svg")
    for bad in ("m99999", "x", "-1"):
        assert cli(["export", str(grand), "--format", "svg", "--at", bad]) == 2
    assert cli(["export", str(grand), "--format", "svg", "--size", "40x10"]) == 2


def test_a_terminal_is_asked_for_a_file(grand: Path, monkeypatch, capsys):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert cli(["export", str(grand), "--format", "html"]) == 2
    assert "add -o FILE" in capsys.readouterr().err


def test_text_and_json_go_to_the_file_asked_for(grand: Path, tmp_path: Path, capsys):
    """``-o`` writes every format (text and json went to the standard output, no file written);
    ``--at`` with a format that records the whole game is refused, not ignored."""
    import json

    assert cli(["export", str(grand), "--format", "json", "-o", str(tmp_path / "g.json")]) == 0
    assert cli(["export", str(grand), "-o", str(tmp_path / "g.txt")]) == 0
    assert capsys.readouterr().out == ""
    assert json.loads((tmp_path / "g.json").read_text())["positions"]
    cli(["export", str(grand)])
    assert (tmp_path / "g.txt").read_text(encoding="utf-8") == capsys.readouterr().out
    assert cli(["export", str(grand), "--at", "5"]) == 2
    assert "--at is for --format html or svg" in capsys.readouterr().err
    assert cli(["export", str(grand), "-o", str(tmp_path / "no" / "such" / "g.txt")]) == 1
    assert "cannot write" in capsys.readouterr().err
