"""Cut text on a screen: a line that ends where a widget's edge cuts it, with no sign of it.

Checked on the screen on top (a dialog, the game screen, any screen):
- a line-API panel (``LinePanel``) whose line is wider than the panel;
- a text widget that does not wrap (``text-wrap: nowrap``) whose line is wider than it, unless
  it ends in an ellipsis the widget draws (``text-overflow: ellipsis``);
- a text widget that wraps whose lines are more than it shows, with nothing to scroll;
- Textual's key bar (``Footer``) whose last key runs past the screen's edge.
A text that is cut on purpose ends with "…" or "~" (names) and is not reported.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Footer, Static  # noqa: TID251 - isinstance only: every text widget, never made here

from colosseum.tui.widgets.lines import LinePanel, ScrollingLinePanel

CUT_SIGNS = ("…", "~", "...")


def _plain(widget: Widget) -> str | None:
    try:
        visual = widget.render()
    except Exception:  # noqa: BLE001 - a widget that cannot render alone is not text
        return None
    if isinstance(visual, str):
        return visual
    plain = getattr(visual, "plain", None)
    return plain if isinstance(plain, str) else None


def _scrolls(widget: Widget) -> bool:
    """``widget`` or an ancestor scrolls (what it cannot show can be scrolled to)."""
    node: object = widget
    while isinstance(node, Widget):
        if node.allow_vertical_scroll or node.is_scrollable and node.max_scroll_y > 0:
            return True
        node = node.parent
    return False


def _visible(widget: Widget) -> bool:
    return widget.display and widget.visible and widget.region.width > 0 and widget.region.height > 0


def cut_texts(app) -> list[str]:
    """What is cut on the screens seen: the one on top and, under a dialog, those below it down to
    the first full screen; one entry per place."""
    from textual.screen import ModalScreen

    seen = []
    for screen in reversed(app.screen_stack):
        seen.append(screen)
        if not isinstance(screen, ModalScreen):
            break
    found: list[str] = []
    for screen in seen:
        found += [f"{type(screen).__name__}: {c}" for c in _cut_on(app, screen)]
    return found


def _cut_on(app, screen) -> list[str]:
    console = app.console
    found: list[str] = []
    for widget in screen.walk_children(with_self=False):
        if not isinstance(widget, Widget) or not _visible(widget):
            continue
        name = f"{type(widget).__name__}#{widget.id}" if widget.id else type(widget).__name__
        width = widget.content_region.width
        if isinstance(widget, Footer):
            right = widget.region.right
            for key in widget.children:
                if _visible(key) and key.region.right > right:
                    found.append(f"{name}: the key {_plain(key)!r} runs past the edge")
            continue
        if isinstance(widget, LinePanel | ScrollingLinePanel):
            if isinstance(widget, ScrollingLinePanel):
                width = widget.scrollable_content_region.width
            for line in widget._current_lines():
                shown = line.plain.rstrip()
                if cell_len(shown) > width and not shown[:width].endswith(CUT_SIGNS):
                    found.append(f"{name}: {shown!r} is cut at {width} cells")
            continue
        if width <= 0:
            continue
        if not isinstance(widget, Static):
            # a one-line widget drawing its own text (the header, the key bar)
            if widget.content_region.height == 1 and not widget.children:
                row = (_plain(widget) or "").rstrip()
                if "\n" not in row and cell_len(row) > width and not row[:width].endswith(CUT_SIGNS):
                    found.append(f"{name}: {row!r} is cut at {width} cells")
            continue
        plain = _plain(widget)
        if not plain:
            continue
        if widget.styles.text_wrap == "nowrap":
            for row in plain.splitlines():
                row = row.rstrip()
                if cell_len(row) > width and widget.styles.text_overflow != "ellipsis":
                    found.append(f"{name}: {row!r} is cut at {width} cells")
            continue
        lines = Text(plain).wrap(console, width)
        height = widget.content_region.height
        if len(lines) > height and not _scrolls(widget):
            last = lines[height - 1].plain if height > 0 else ""
            found.append(f"{name}: {len(lines)} lines shown in {height}, cut after {last!r}")
    return found
