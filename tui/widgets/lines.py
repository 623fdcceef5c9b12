"""Line-API drawing shared by the panels.

A panel composes what it shows as a list of rich ``Text`` lines and Textual asks for them one
screen row at a time (``render_line``).  When the state changes the panel composes the lines
again, compares them with the ones on screen and marks only the rows that differ as dirty.

Why: Textual re-renders every row of a widget whose ``refresh()`` is called, at a cost of a
fraction of a millisecond per row, and a client over SSH redraws on every move of every
player.  A bid changes one row of the arena and two of the players panel; repainting those
rows instead of four whole panels is most of what keeps a table of ten screens cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget


def text_strip(text: Text, width: int, base: Style, console) -> Strip:
    """One line of rich text as a Strip exactly ``width`` cells wide on the ``base`` style."""
    own = text.style
    if own:
        # Text.render leaves the text's own style out when it has no spans
        base = base + (own if isinstance(own, Style) else console.get_style(own, default=Style.null()))
    segments = list(Segment.apply_style(text.render(console, end=""), base))
    return Strip(segments, text.cell_len).crop_extend(0, width, base)


def changed_rows(old: Sequence[Text], new: Sequence[Text]) -> list[int]:
    """The rows that differ between two renderings (rows beyond the shorter one included)."""
    n = max(len(old), len(new))
    return [y for y in range(n) if y >= len(old) or y >= len(new) or old[y] != new[y]]


def row_regions(rows: Sequence[int], width: int) -> list[Region]:
    """Regions one row high for ``rows``, consecutive rows merged."""
    regions: list[Region] = []
    start = prev = -2  # -2: no run yet (rows are never negative)
    for y in rows:
        if start >= 0 and y == prev + 1:
            prev = y
            continue
        if start >= 0:
            regions.append(Region(0, start, width, prev - start + 1))
        start = prev = y
    if start >= 0:
        regions.append(Region(0, start, width, prev - start + 1))
    return regions


def shifted_by(old: Sequence[Text], new: Sequence[Text], most: int = 4) -> int:
    """How many lines ``new`` is ``old`` moved up by (a log with new lines at the bottom), or 0."""
    n = len(old)
    if n != len(new) or n < 2:
        return 0
    for k in range(1, min(most, n - 1) + 1):
        if new[0] == old[k] and all(new[i] == old[i + k] for i in range(1, n - k)):
            return k
    return 0


def drawn_rows(widget: Widget) -> dict[int, Strip]:
    """The rows Textual has drawn of ``widget`` and holds, none of them waiting to be drawn
    again (by row of the widget, borders included; Textual's ``StylesCache``, pinned)."""
    cache = widget._styles_cache
    dirty = cache._dirty_lines
    return {y: strip for y, strip in cache._cache.items() if y not in dirty}


def reuse_rows(widget: Widget, drawn: dict[int, Strip], moves: Iterable[tuple[int, int]]) -> None:
    """Give Textual rows of ``widget`` it drew before (``drawn_rows``) at their new places,
    ``(new row, old row)`` pairs, after the refresh that marked them to draw again.

    A log with a new line at the bottom shows every row it showed before one row higher:
    each of them is still sent to the terminal, but Textual need not draw any of them again
    with the panel's borders, only the new line (a log panel on every screen of an SSH table,
    at every move)."""
    cache = widget._styles_cache
    for y, was in moves:
        strip = drawn.get(was)
        if strip is not None:
            cache._cache[y] = strip
            cache._dirty_lines.discard(y)


def set_border_label(widget: Widget, text: Text | Content | None, *, bottom: bool = False) -> None:
    """Set ``widget``'s border title (or with ``bottom`` its subtitle) to ``text`` (never
    markup; a ``Content``: a label taken from a widget before) and repaint only that border's
    row: Textual's own setter repaints the whole widget.  A clock in a panel's border changes
    every second on every screen of a table."""
    label = Content.from_rich_text(text).expand_tabs(4).split()[0] if isinstance(text, Text) else text
    if bottom:
        widget._border_subtitle = label
    else:
        widget._border_title = label
    outer = widget.outer_size
    if not widget.is_mounted or not outer.area:
        widget.refresh()
        return
    offset = widget.content_offset  # (refresh takes regions of the content)
    row = outer.height - 1 if bottom else 0
    widget.refresh(Region(-offset.x, row - offset.y, outer.width, 1))


class KeptRows:
    """Rows drawn before, by a key (a row's content, or the log's line and width), so that a
    row moved or shown again is not drawn again; at most ``limit``, then all dropped at once.
    Kept until the styles change (the rows hold colours)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.rows: dict[object, Strip] = {}

    def get(self, key: object) -> Strip | None:
        return self.rows.get(key)

    def keep(self, key: object, strip: Strip) -> Strip:
        if len(self.rows) >= self.limit:
            self.rows.clear()
        self.rows[key] = strip
        return strip

    def clear(self) -> None:
        self.rows.clear()


if TYPE_CHECKING:  # what the mixin is mixed into (at run time a plain class: a Widget base
    # here would put Widget's default CSS after a ScrollView's, and the log would not scroll)
    _Mixin = Widget
else:
    _Mixin = object


class CachedStyles(_Mixin):
    """Styles a widget looks up while drawing, kept until Textual says the styles changed
    (a theme switch, a class or pseudo-class change): Textual's ``rich_style`` walks every
    ancestor on each call, and a line-API widget would ask once per row.  A mixin of a widget."""

    _base: Style | None = None
    _components: dict[str, Style] | None = None

    @property
    def base_style(self) -> Style:
        """The widget's own style (colours, background)."""
        if self._base is None:
            self._base = self.rich_style
        return self._base

    def component_style(self, name: str) -> Style:
        """``get_component_rich_style(name, partial=True)``."""
        if self._components is None:
            self._components = {}
        style = self._components.get(name)
        if style is None:
            style = self._components[name] = self.get_component_rich_style(name, partial=True)
        return style

    def _forget_styles(self) -> None:
        self._base = None
        self._components = None

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._forget_styles()


class _Lines(CachedStyles):
    """The part shared by fixed and scrolling line panels."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[Text] = []
        self._stale = True
        # by content: a panel that follows the player to act shows each seat's lines again at
        # its next turn (its lines for every seat a few times over)
        self._kept = KeptRows(512)

    def _forget_styles(self) -> None:
        super()._forget_styles()
        self._stale = True  # the lines hold colours from the styles
        self._kept.clear()

    def _strip(self, text: Text, width: int) -> Strip:
        """``text`` drawn ``width`` cells wide on the panel's style (kept for its next time)."""
        key = (text.plain, tuple(text.spans), text.style, width)
        strip = self._kept.get(key)
        if strip is None:
            strip = self._kept.keep(key, text_strip(text, width, self.base_style, self.app.console))
        return strip

    def build_lines(self) -> list[Text]:  # pragma: no cover - every panel overrides it
        raise NotImplementedError

    def _can_build(self) -> bool:
        return self.is_mounted and bool(self.content_region.width)

    def redraw(self) -> None:
        """Compose the lines again and repaint the rows that changed."""
        if not self._can_build():
            self._stale = True
            return
        if self._stale:
            self._lines = self.build_lines()
            self._stale = False
            self.refresh()
            return
        new = self.build_lines()
        rows = changed_rows(self._lines, new)
        moved = shifted_by(self._lines, new) if len(rows) > 2 and self._rows_move() else 0
        drawn = drawn_rows(self) if moved else {}
        self._lines = new
        self._repaint_rows(rows)
        if moved:  # a log's new line: the rows above it were drawn before, one row lower
            top = self.styles.gutter.top
            reuse_rows(self, drawn, [(top + y, top + y + moved) for y in range(len(new) - moved)])

    def _rows_move(self) -> bool:
        """Line ``i`` is drawn on the panel's row ``i`` (not scrolled)."""
        return True

    def _repaint_rows(self, rows: list[int]) -> None:
        if rows:
            self.refresh(*row_regions(rows, self.size.width))

    def _current_lines(self) -> list[Text]:
        if self._stale and self._can_build():
            self._lines = self.build_lines()
            self._stale = False
        return self._lines

    def on_resize(self) -> None:
        self._forget_styles()
        self.redraw()


class LinePanel(_Lines, Widget):
    """A panel that does not scroll, drawn from ``build_lines()``."""

    def render_line(self, y: int) -> Strip:
        lines = self._current_lines()
        width = self.size.width
        base = self.base_style
        if y >= len(lines):
            return Strip.blank(width, base)
        return self._strip(lines[y], width)


class ScrollingLinePanel(_Lines, ScrollView):
    """A scrolling panel drawn from ``build_lines()``; the scroll bar is updated without a
    layout of the screen unless it has to appear or go."""

    def redraw(self) -> None:
        super().redraw()
        set_virtual_height(self, len(self._lines))

    def _rows_move(self) -> bool:
        return False  # (drawn at the scroll offset)

    def _repaint_rows(self, rows: list[int]) -> None:
        top = self.scroll_offset.y
        height = self.scrollable_content_region.height
        visible = [y - top for y in rows if top <= y < top + height]
        if visible:
            self.refresh(*row_regions(visible, self.scrollable_content_region.width))

    def render_line(self, y: int) -> Strip:
        lines = self._current_lines()
        width = self.scrollable_content_region.width
        base = self.base_style
        index = self.scroll_offset.y + y
        if index >= len(lines):
            return Strip.blank(width, base)
        return self._strip(lines[index], width)


def set_virtual_height(view: ScrollView, lines: int) -> None:
    """Give a line-API ``ScrollView`` ``lines`` rows of content at its current width.

    Textual lays out the whole screen whenever a widget's virtual size changes, which repaints
    every panel.  Only the scroll bar depends on the height here, and whether that bar shows
    changes only when the content crosses the visible height; otherwise the new size is set
    quietly and just the scroll bar is updated.  Width changes take the ordinary path."""
    from textual.geometry import Size

    size = Size(view.scrollable_content_region.width, lines)
    old = view.virtual_size
    if size == old:
        return
    height = view.scrollable_content_region.height
    # (a view with no vertical bar at all, overflow hidden, never needs the layout)
    same_bar = view.styles.overflow_y == "hidden" or (old.height > height) == (lines > height)
    if view.is_mounted and old.width == size.width and same_bar and old != Size(0, 0):
        view.set_reactive(Widget.virtual_size, size)
        view._scroll_update(size)
    else:
        view.virtual_size = size
