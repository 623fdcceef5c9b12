"""A replay to share: ``colosseum export FILE --format html`` writes one self-contained page that
steps through the game move by move, and ``--format svg`` one position, for every game.

The frames are the viewer's own screen (:class:`ReplayScreen`, the viewer without its key bar,
its status line naming only what the page does), drawn headless by Textual at a fixed size and
read cell by cell from its compositor: the same panels, marks and history as ``colosseum view``.
The page holds every frame as data (a table of the distinct screen lines, each a run of styled
text, and per frame the list of its lines), gzipped and base64-encoded in the page, and draws
the frame asked for into a ``<pre>`` with the browser's own ``DecompressionStream``: no server,
no network, nothing fetched.  User text only ever reaches the page as text (``textContent``, or
``html.escape`` in the head), never as markup.

Keys in the page are the viewer's: Left/Right one action, Up/Down one turn, PgUp/PgDn one
phase, [ and ] one round, Home/End the start and the end; the address's fragment (``#m123``: the
position after 123 actions) opens a position and follows the steps (D-60).
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import html
import io
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console
from rich.style import Style

from colosseum.core.names import printable
from colosseum.core.timeline import GameLog

from .base import BaseApp
from .viewer import ViewerScreen
from .widgets.keybar import KeyBar

if TYPE_CHECKING:
    import argparse

    from textual.app import ComposeResult
    from textual.strip import Strip

__all__ = ["SIZE", "Frames", "ReplayApp", "ReplayScreen", "replay_html", "replay_svg"]

#: the terminal size the frames are drawn at (columns, rows), unless ``--size`` says otherwise
SIZE = (120, 40)
#: the step kinds the page's keys move by (``Rules.step_key``), as the viewer's
KINDS = ("turn", "phase", "round")


class ReplayScreen(ViewerScreen):
    """The viewer as a frame of the replay: no key bar (the page has its own keys), and a status
    line without the viewer's extras (play from here, boards, taken back, parent)."""

    STATUS_KEYS = False

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if not isinstance(widget, KeyBar):
                yield widget


class ReplayApp(BaseApp):
    """The app the frames are drawn in (headless, never on a terminal)."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, log: GameLog, *, theme: str | None = None) -> None:
        super().__init__(theme=theme)
        self.log_file = log

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen.from_log(self.log_file, 0))


async def _capture(
    log: GameLog,
    indexes: Sequence[int],
    size: tuple[int, int],
    theme: str | None,
    grab: Callable[[Any], Any],
    *,
    walk: bool = False,
) -> tuple[list[Any], str]:
    """``grab(app)`` after each of ``indexes`` actions is shown, and the screen's background.
    ``walk``: step from the start to the first of them (the history scrolls as it went)."""
    app = ReplayApp(log, theme=theme)
    out = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        for i in range(indexes[0] if walk and indexes else 0):
            screen.go(i)  # as stepping there: the history scrolled as the page's frame has it
        for i in indexes:
            screen.go(i)
            # what ``pilot.pause()`` waits for, without its wait for the process to go idle
            # (a test checks the frames against the viewer after full pauses)
            await pilot._wait_for_screen()
            screen._on_timer_update()
            out.append(grab(app))
        background = screen.styles.background.hex
    return out, background


# ------------------------------------------------------------------------------ the page


class Frames:
    """Screens as data: the CSS of each style, the distinct lines (runs of ``[style, text]``,
    ``[style, text, cells]`` for wide characters), each frame's line numbers."""

    def __init__(self) -> None:
        self.css: list[str] = []
        self._css_ids: dict[str, int] = {}
        self._style_ids: dict[Style | None, int] = {}
        self.lines: list[list[list[Any]]] = []
        self._line_ids: dict[tuple[tuple[Any, ...], ...], int] = {}
        self.frames: list[list[int]] = []
        self._seen: dict[tuple[tuple[str, Style | None], ...], int] = {}

    def _style(self, style: Style | None) -> int:
        sid = self._style_ids.get(style)
        if sid is None:
            css = style.get_html_style() if style is not None else ""
            sid = self._css_ids.setdefault(css, len(self._css_ids))
            if sid == len(self.css):
                self.css.append(css)
            self._style_ids[style] = sid
        return sid

    def add(self, strips: Sequence[Strip]) -> None:
        ids = []
        for strip in strips:
            segments = tuple((seg.text, seg.style) for seg in strip)
            lid = self._seen.get(segments)
            if lid is None:
                lid = self._seen[segments] = self._line(strip)
            ids.append(lid)
        self.frames.append(ids)

    def _line(self, strip: Strip) -> int:
        """The line's number in the table (a new line is added)."""
        runs: list[tuple[Any, ...]] = []
        for seg in strip:
            if not seg.text:
                continue
            sid = self._style(seg.style)
            for text, wide in _by_width(seg.text):
                run = (sid, text, cell_len(text)) if wide else (sid, text)
                if runs and len(runs[-1]) == 2 == len(run) and runs[-1][0] == sid:
                    runs[-1] = (sid, runs[-1][1] + text)
                else:
                    runs.append(run)
        key = tuple(runs)
        lid = self._line_ids.get(key)
        if lid is None:
            lid = self._line_ids[key] = len(self.lines)
            self.lines.append([list(r) for r in runs])
        return lid


def _by_width(text: str) -> list[tuple[str, bool]]:
    """``text`` cut where characters change between one cell and two (the page gives a run of
    wide characters its cells' width, so a name in CJK keeps the columns after it in place)."""
    if cell_len(text) == len(text):
        return [(text, False)]
    out: list[tuple[str, bool]] = []
    for ch in text:
        wide = cell_len(ch) > 1
        if out and out[-1][1] == wide:
            out[-1] = (out[-1][0] + ch, wide)
        else:
            out.append((ch, wide))
    return out


def _navigation(log: GameLog) -> dict[str, list[list[int]]]:
    """For each step kind, the position a key forward and a key back goes to from each position."""
    tl = log.timeline
    positions = range(tl.end + 1)
    return {kind: [[tl.next(kind, i) for i in positions], [tl.prev(kind, i) for i in positions]] for kind in KINDS}


def replay_html(
    log: GameLog, *, size: tuple[int, int] = SIZE, theme: str | None = None, start: int = 0, title: str = ""
) -> str:
    """The whole page: every position of ``log``, opening at ``start`` (a fragment wins)."""
    tl = log.timeline
    frames = Frames()

    def grab(app: Any) -> None:
        frames.add(app.screen._compositor.render_strips())

    _, background = asyncio.run(_capture(log, range(tl.end + 1), size, theme, grab))
    data = {
        "size": list(size),
        "lines": frames.lines,
        "frames": frames.frames,
        "nav": _navigation(log),
        "start": max(0, min(start, tl.end)),
    }
    packed = base64.b64encode(gzip.compress(json.dumps(data, separators=(",", ":")).encode(), 9, mtime=0))
    css = "\n".join(f".s{i}{{{c}}}" for i, c in enumerate(frames.css))
    return PAGE.format(
        title=html.escape(title or _title(log)),
        players=html.escape(_players(log)),
        background=background,
        styles=css,
        data=packed.decode("ascii"),
        end=tl.end,
        script=SCRIPT,
    )


def _title(log: GameLog) -> str:
    from .setups import edition_title

    name = f" ({printable(log.path.name)})" if log.path is not None else ""
    return f"{edition_title(log.setup)}: replay{name}"


def _players(log: GameLog) -> str:
    from .export import players_text

    return players_text(log.setup, log.seats)


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ background: {background}; color: #ddd; margin: 1em; font-family: sans-serif; }}
h1 {{ font-size: 1.1em; margin: 0 0 .2em 0; }}
p {{ margin: .2em 0; }}
#screen {{ font-family: "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 14px;
  line-height: normal; margin: .6em 0; white-space: pre; display: inline-block; }}
#screen .w {{ display: inline-block; text-align: center; }}
#controls button {{ font-family: monospace; min-width: 3em; }}
#controls input {{ width: 40em; max-width: 60vw; vertical-align: middle; }}
#where {{ font-family: monospace; }}
{styles}
</style>
</head>
<body>
<h1>{title}</h1>
<p>{players}</p>
<div id="controls">
<button id="first" title="Home">|&lt;</button><button id="back" title="Left">&lt;</button><button id="forward" title="Right">&gt;</button><button id="last" title="End">&gt;|</button>
<input id="slider" type="range" min="0" max="{end}" value="0" aria-label="position">
<span id="where"></span>
</div>
<pre id="screen" aria-live="polite">Loading the replay... (it needs a browser with DecompressionStream)</pre>
<p>Keys: Left/Right one action, Up/Down one turn, PgUp/PgDn one phase, [ and ] one round, Home/End the start and the end.
The address ends in #m and the number of actions shown: share it to open there.</p>
<script type="application/octet-stream" id="replay-data">{data}</script>
<script>
{script}
</script>
</body>
</html>
"""

SCRIPT = """"use strict";
(async function () {
  const screen = document.getElementById("screen");
  const raw = atob(document.getElementById("replay-data").textContent.trim());
  const bytes = Uint8Array.from(raw, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const data = JSON.parse(await new Response(stream).text());
  const end = data.frames.length - 1;
  const slider = document.getElementById("slider");
  const where = document.getElementById("where");
  let index = -1;
  function draw(i) {
    const out = document.createDocumentFragment();
    data.frames[i].forEach((id, row) => {
      if (row) out.appendChild(document.createTextNode("\\n"));
      for (const run of data.lines[id]) {
        const span = document.createElement("span");
        span.className = "s" + run[0] + (run.length > 2 ? " w" : "");
        if (run.length > 2) span.style.width = run[2] + "ch";
        span.textContent = run[1];
        out.appendChild(span);
      }
    });
    screen.replaceChildren(out);
  }
  function go(i, keepHash) {
    i = Math.max(0, Math.min(end, i | 0));
    if (i !== index) {
      index = i;
      draw(i);
      slider.value = String(i);
      where.textContent = (i === 0 ? "start" : i === end ? "end" : "action " + i) + " (" + i + "/" + end + ")";
      screen.dataset.index = String(i);
    }
    if (!keepHash && location.hash !== "#m" + i) history.replaceState(null, "", "#m" + i);
  }
  function fromHash() {
    const m = /^#m(\\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  const steps = { ArrowUp: ["turn", -1], ArrowDown: ["turn", 1], PageUp: ["phase", -1], PageDown: ["phase", 1],
                  "[": ["round", -1], "]": ["round", 1] };
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    let to = null;
    if (e.key === "ArrowLeft") to = index - 1;
    else if (e.key === "ArrowRight") to = index + 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = end;
    else if (e.key in steps) { const [kind, d] = steps[e.key]; to = data.nav[kind][d > 0 ? 0 : 1][index]; }
    if (to === null) return;
    e.preventDefault();
    go(to);
  });
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("back").onclick = () => go(index - 1);
  document.getElementById("forward").onclick = () => go(index + 1);
  document.getElementById("last").onclick = () => go(end);
  slider.addEventListener("input", () => go(parseInt(slider.value, 10)));
  window.addEventListener("hashchange", () => { const h = fromHash(); if (h !== null) go(h); });
  const h = fromHash();
  go(h !== null ? h : data.start);
  document.body.dataset.ready = "1";
})().catch((e) => {
  document.getElementById("screen").textContent = "This browser cannot show the replay: " + e;
});
"""


# ------------------------------------------------------------------------------ one position


def replay_svg(log: GameLog, at: int, *, size: tuple[int, int] = SIZE, theme: str | None = None) -> str:
    """The replay's screen after ``at`` actions as one SVG picture (Rich's, without its fonts
    fetched from the network: the viewer's monospace font is the reader's own)."""
    from rich.terminal_theme import DEFAULT_TERMINAL_THEME

    width, height = size

    def grab(app: Any) -> str:
        console = Console(
            width=width,
            height=height,
            file=io.StringIO(),
            force_terminal=True,
            color_system="truecolor",
            record=True,
            legacy_windows=False,
            safe_box=False,
        )
        console.print(app.screen._compositor.render_update(full=True))
        name = printable(log.path.name) if log.path is not None else "game"
        where = "start" if at == 0 else ("end" if at == log.timeline.end else f"action {at}")
        return console.export_svg(title=f"{name} - {where}", theme=DEFAULT_TERMINAL_THEME, code_format=SVG_FORMAT)

    pictures, _bg = asyncio.run(_capture(log, [at], size, theme, grab, walk=True))
    return str(pictures[0])


def _svg_format() -> str:
    from rich._export_format import CONSOLE_SVG_FORMAT

    text = re.sub(r"\s*@font-face \{\{.*?\}\}", "", CONSOLE_SVG_FORMAT, flags=re.S)
    return re.sub(r"\s*<!--.*?-->", "", text, flags=re.S)


SVG_FORMAT = _svg_format()


# ------------------------------------------------------------------------------ the command


def parse_size(text: str) -> tuple[int, int] | None:
    """``120x40`` as (columns, rows); None if it is not a size of at least 80x24."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text or "")
    if m is None:
        return None
    w, h = int(m.group(1)), int(m.group(2))
    return (w, h) if 80 <= w <= 400 and 24 <= h <= 200 else None


def cmd_export_picture(args: argparse.Namespace, log: GameLog, at: int | None) -> int:
    """``export --format html|svg``: write the page or the picture (to ``--output``, else the
    standard output).  ``at``: the position (svg: default the end; html: where it opens)."""
    size = parse_size(getattr(args, "size", None) or f"{SIZE[0]}x{SIZE[1]}")
    if size is None:
        print(f"colosseum: --size {args.size}: give columns x rows, at least 80x24 (e.g. 120x40)", file=sys.stderr)
        return 2
    theme = getattr(args, "theme", None)
    from .viewer import _theme_ok

    if not _theme_ok(theme):
        return 2
    output = getattr(args, "output", None)
    if not output and sys.stdout.isatty():  # a page of data is no reading for a terminal
        print(f"colosseum: --format {args.format} writes a file: add -o FILE (or > FILE)", file=sys.stderr)
        return 2
    end = log.timeline.end
    if at is not None and not 0 <= at <= end:
        print(f"colosseum: --at {args.at}: the game has positions 0 to {end}", file=sys.stderr)
        return 2
    if args.format == "svg":
        text = replay_svg(log, end if at is None else at, size=size, theme=theme)
    else:
        text = replay_html(log, size=size, theme=theme, start=at or 0)
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as e:
            print(f"colosseum: cannot write {output}: {e.strerror or e}", file=sys.stderr)
            return 1
        return 0
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return 0
