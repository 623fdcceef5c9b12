"""Helpers for the replay tests (``colosseum export --format html|svg``): seeded whole games
played by bots with hostile names, and the frames read back from a page as text."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

from colosseum.core.gamelog import make_header
from colosseum.core.logwriter import LogWriter
from colosseum.core.registry import rules

#: names a page must show as text: markup for Rich, for HTML, a wide script
NAMES = ("[/a] Becky", "小明", "<script>alert(1)</script>", "Aurelia Maximiliana Cornelia")


def save_game(
    folder: Path, game: str, seed: int, players: int, name: str = "g", cut: int | None = None, **options: object
) -> Path:
    """A whole game between normal bots (``cut``: only its first actions), saved in ``folder``."""
    r = rules(game)
    setup = r.spec.make_setup(NAMES[:players], seed=seed, **options)
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("normal", seed + i) for i in range(players)]
    while not r.is_over(state):
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)
    kinds = ("human",) + ("normal",) * (players - 1)
    actions = actions[:cut] if cut is not None else actions
    path = folder / f"{name}.jsonl"
    w = LogWriter.create_at(path, make_header(setup, kinds), actions, end=cut is None, fsync=False)
    w.close()
    return w.path


def page_data(page: str) -> dict:
    """The page's embedded frames (base64 of gzipped JSON)."""
    m = re.search(r'<script type="application/octet-stream" id="replay-data">([^<]*)</script>', page)
    assert m is not None, "no replay data in the page"
    return json.loads(gzip.decompress(base64.b64decode(m.group(1))))


def page_frames(page: str) -> list[str]:
    """Each frame's text, a line a row, as the page draws it."""
    data = page_data(page)
    lines = ["".join(run[1] for run in line) for line in data["lines"]]
    return ["\n".join(lines[i] for i in frame) for frame in data["frames"]]


async def viewer_screen(log, index: int, size: tuple[int, int]) -> str:
    """The viewer (``colosseum view``) at ``size`` stepped from the start to ``index`` with the
    Right key, as text: the rows above its key bar (the replay's frames have none)."""
    from colosseum.tui.review_app import ViewerApp

    app = ViewerApp(log, start_index=0)
    async with app.run_test(size=(size[0], size[1] + 1)) as pilot:
        await pilot.pause()
        # not shown again: the seat board's title is fitted to its laid-out width by itself
        for _ in range(index):
            app.screen.action_step("action", 1)
        await pilot.pause()
        assert app.screen.index == index
        strips = app.screen._compositor.render_strips()
    rows = ["".join(seg.text for seg in strip) for strip in strips]
    return "\n".join(rows[: size[1]])


def same_position(frame: str, viewer: str, index: int, end: int) -> None:
    """A replay frame shows what the viewer shows: the same header and panels, cell for cell,
    and a status line at the same position."""
    f_rows, v_rows = frame.split("\n"), viewer.split("\n")
    assert len(f_rows) == len(v_rows)
    assert f_rows[:-1] == v_rows[:-1]
    assert f"({index}/{end})" in f_rows[-1] and f"({index}/{end})" in v_rows[-1]
