"""The game log: every event as a plain sentence, newest at the bottom, scrollable.

A line-API widget (ScrollView + render_line): events are word-wrapped once per width and
kept as an index of (event, line) pairs, so a long game stays fast to append to and scroll.

No scroll bar: while the log follows the game it would be redrawn on every move for nothing
(an SSH table redraws every move on every screen); scrolled back, the bottom border says
which lines are shown and that End returns to the newest.  Not even one drawn 0 cells wide
(``overflow-y: hidden``): Textual mounts such a bar the first time the lines fill the panel and
lays the whole screen out again for it, on every screen of a table at the same move.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.binding import Binding
from textual.scroll_view import ScrollView
from textual.strip import Strip

from colosseum.core.events import Event
from colosseum.tui.text import wrap

from .lines import CachedStyles, KeptRows, drawn_rows, reuse_rows, set_virtual_height
from .style import seat_style


class LogPanel(CachedStyles, ScrollView, can_focus=True):
    DEFAULT_CSS = """
    LogPanel { border: round $primary 60%; border-title-color: $primary; height: 1fr; scrollbar-size-vertical: 0; overflow-y: hidden; border-subtitle-color: $accent; }
    LogPanel:focus { border: round $accent; }
    LogPanel > .log--phase { color: $primary; text-style: bold; }
    LogPanel > .log--plain { color: $foreground; }
    """
    COMPONENT_CLASSES = {"log--phase", "log--plain"}
    BINDINGS = [
        Binding("up", "scroll_up", "Scroll up", show=False, id="log.up"),
        Binding("down", "scroll_down", "Scroll down", show=False, id="log.down"),
        Binding("pageup", "page_up", "Page up", show=False, id="log.pageup"),
        Binding("pagedown", "page_down", "Page down", show=False, id="log.pagedown"),
        Binding("home", "scroll_home", "Oldest", show=False, id="log.home"),
        Binding("end", "scroll_end", "Newest", show=False, id="log.end"),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.events: list[Event] = []
        self._lines: list[tuple[int, str]] = []  # (event index, text of one wrapped line)
        self._wrapped_width = 0
        self._wrapped_count = 0
        self._following = True
        self.border_title = "Log"
        # the drawn rows by line and width: following the game, each new line moves every row
        # up one (a few screens' worth; cleared with the lines and with new styles)
        self._kept = KeptRows(256)

    def _forget_styles(self) -> None:
        super()._forget_styles()
        self._kept.clear()

    @property
    def allow_vertical_scroll(self) -> bool:
        """The log scrolls though it shows no bar (Textual lets a widget scroll where its bar shows)."""
        return self.is_scrollable and self.max_scroll_y > 0

    @property
    def following(self) -> bool:
        """The log shows the newest lines as they come (until the player scrolls back)."""
        return self._following

    @following.setter
    def following(self, value: bool) -> None:
        self._following = value
        self._show_position()

    def _show_position(self) -> None:
        """Scrolled back: which lines are shown, on the bottom border."""
        total = len(self._lines)
        height = self.scrollable_content_region.height
        if self._following or total <= height or not height:
            text = ""
        else:
            top = min(int(self.scroll_y), max(0, total - height)) + 1
            text = f"lines {top}-{min(total, top + height - 1)} of {total}, End: newest"
        if text != (self.border_subtitle or ""):
            self.border_subtitle = Text(text)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        if self.styles.scrollbar_size_vertical:
            super().watch_scroll_y(old_value, new_value)
        elif round(old_value) != round(new_value):
            # No bar is drawn: moving it would refresh a widget that is not on the screen,
            # and Textual then maps the whole screen again (on every move, over SSH).
            self.refresh(self.size.region)
        self._show_position()

    # ------------------------------------------------------------------ data
    def show_events(self, events: list[Event]) -> None:
        """Show exactly ``events`` (appends when it extends what is shown)."""
        n = self._wrapped_count
        appended = bool(n) and len(events) >= n and events[n - 1] == self.events[n - 1]
        if not appended and n:
            self._wrapped_count = 0
            self._lines = []
            self._kept.clear()
        self.events = list(events)
        region = self.scrollable_content_region
        if not region.width:
            return  # not laid out yet: on_resize wraps at the real width
        drawn = self._drawn_rows() if appended and self.following else None
        self._wrap()
        if self.following:
            self._follow()
            if drawn is not None and region == self.scrollable_content_region:
                self._keep_moved_rows(drawn)

    def _top(self) -> int:
        """The first line shown while following."""
        return max(0, len(self._lines) - self.scrollable_content_region.height)

    def _drawn_rows(self) -> tuple[int, int, dict[int, Strip], tuple[object, object]]:
        """The first line shown, the number of lines, the rows Textual has drawn and holds,
        and the border's labels (before new lines come)."""
        return self._top(), len(self._lines), drawn_rows(self), (self._border_title, self._border_subtitle)

    def _keep_moved_rows(self, drawn: tuple[int, int, dict[int, Strip], tuple[object, object]]) -> None:
        """New lines came at the bottom: Textual gets back the rows it drew before at their
        new places (``lines.reuse_rows``), so that it draws only the new lines."""
        old_top, old_count, rows, labels = drawn
        height = self.scrollable_content_region.height
        top = self._top()
        first = self.styles.gutter.top  # the first row of lines (below the border)
        moves = []
        for y in range(height):
            line = top + y
            was = line - old_top  # the row that showed it
            if line < old_count and 0 <= was < height:
                moves.append((first + y, first + was))
        if labels == (self._border_title, self._border_subtitle):  # the borders as they were
            moves += [(y, y) for y in range(first)]
            moves += [(y, y) for y in range(first + height, self.outer_size.height)]
        reuse_rows(self, rows, moves)

    def _follow(self) -> None:
        height = self.scrollable_content_region.height
        self.scroll_to(y=max(0, len(self._lines) - height), animate=False, immediate=True)
        self.refresh()
        self.call_after_refresh(self._follow_late)

    def _follow_late(self) -> None:
        if self.following and not self.is_vertical_scroll_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
            self.refresh()

    # user scrolling decides whether the log follows new events
    def _user_scrolled(self) -> None:
        self.following = self.scroll_y >= self.max_scroll_y

    def action_scroll_up(self) -> None:
        super().action_scroll_up()
        self.following = False

    def action_page_up(self) -> None:
        super().action_page_up()
        self.following = False

    def action_scroll_home(self) -> None:
        super().action_scroll_home()
        self.following = False

    def action_scroll_down(self) -> None:
        super().action_scroll_down()
        self.call_after_refresh(self._user_scrolled)

    def action_page_down(self) -> None:
        super().action_page_down()
        self.call_after_refresh(self._user_scrolled)

    def action_scroll_end(self) -> None:
        super().action_scroll_end()
        self.following = True

    def on_mouse_scroll_up(self, event) -> None:
        self.following = False

    def on_mouse_scroll_down(self, event) -> None:
        self.call_after_refresh(self._user_scrolled)

    def _text_width(self) -> int:
        return max(10, self.scrollable_content_region.width or 40)

    def _wrap(self) -> None:
        width = self._text_width()
        if width != self._wrapped_width:
            self._wrapped_width = width
            self._wrapped_count = 0
            self._lines = []
            self._kept.clear()
        for i in range(self._wrapped_count, len(self.events)):
            text = self.events[i].text
            parts = wrap(text, width, indent="  ")
            self._lines.extend((i, part) for part in parts)
        self._wrapped_count = len(self.events)
        set_virtual_height(self, len(self._lines))
        self.refresh()
        self._show_position()

    def on_resize(self) -> None:
        self._forget_styles()
        self._wrap()
        if self.following:
            self._follow()

    @property
    def line_count(self) -> int:
        return len(self._lines)

    # ------------------------------------------------------------------ drawing
    def render_line(self, y: int) -> Strip:
        region = self.scrollable_content_region
        width = region.width
        if self.following:
            # Draw the newest lines whatever the scroll state: a screen under a dialog is
            # repainted, but its scrolling is not applied until it is on top again.
            top = max(0, len(self._lines) - region.height)
        else:
            top = self.scroll_offset.y
        index = top + y
        base = self.base_style
        if index >= len(self._lines):
            return Strip.blank(width, base)
        strip = self._kept.get((index, width))
        if strip is not None:
            return strip
        ev_index, text = self._lines[index]
        ev = self.events[ev_index]
        if ev.kind in ("phase", "over"):
            style = base + self.component_style("log--phase")
        elif ev.seat >= 0:
            style = base + seat_style(self.app.theme, ev.seat, bold=False)
        else:
            style = base + self.component_style("log--plain")
        strip = Strip([Segment(text, style)])  # its width in cells (CJK takes two)
        return self._kept.keep((index, width), strip.crop_extend(0, width, base))
