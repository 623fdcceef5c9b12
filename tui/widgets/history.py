"""The viewer's history: every action as one entry (its events' sentences), the current one
highlighted, with notes of what was taken back and of the hints asked for.  For every game."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable, Sequence

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from colosseum.core.gamelog import HintLine, Withdrawal, describe_action
from colosseum.tui.text import pad, wrap

from .style import seat_style

#: the number an entry of the game's positions begins with, right-aligned ("  9. ")
_NUMBER = re.compile(r" *\d+\. ")
WITHDRAWN = -2  # the "seat" of a history entry that tells what was taken back
HINTED = -3  # the "seat" of a history entry that tells a hint the hard bot gave

# Hints asked for in running games, by session: the viewer of a running game shows them as the
# viewer of its log would (the log has them as hint lines).
_SESSION_HINTS: weakref.WeakKeyDictionary[object, list[HintLine]] = weakref.WeakKeyDictionary()


def remember_hint(session: object, line: HintLine) -> None:
    """Keep a hint given in the running game ``session`` for its viewer."""
    try:
        _SESSION_HINTS.setdefault(session, []).append(line)
    except TypeError:  # a session that cannot be weakly referenced: its viewer goes without
        pass


def session_hints(session: object) -> list[HintLine]:
    try:
        return list(_SESSION_HINTS.get(session, ()))
    except TypeError:
        return []


def hint_entries(
    hints: Sequence[HintLine], names: Sequence[str], score: str = "Acclaim"
) -> dict[int, list[tuple[int, str]]]:
    """Entries for the hints, by the position they were asked at (they follow that entry)."""
    out: dict[int, list[tuple[int, str]]] = {}
    for h in hints:
        who = names[h.seat] if 0 <= h.seat < len(names) else "a player"
        if not h.hint:
            text = f"   [hint for {who}: {h.chat}]"
        else:
            parts = []
            for k, o in enumerate(h.hint):
                what = o.text or describe_action(o.action)
                figures = f" (wins {o.win:.0%}, {score} {o.acclaim:.1f})" if o.playouts else ""
                parts.append(("the bot's choice: " if k == 0 else "") + what + figures)
            text = f"   [hint for {who}: {parts[0]}" + ("; next: " + "; ".join(parts[1:]) if parts[1:] else "") + "]"
        out.setdefault(h.after, []).append((HINTED, text))
    return out


def withdrawn_entries(withdrawals: Iterable[Withdrawal]) -> dict[int, list[tuple[int, str]]]:
    """Entries for the actions taken back, by the position the game went back to."""
    out: dict[int, list[tuple[int, str]]] = {}
    for w in withdrawals:
        n = len(w.actions)
        head = w.line.text or f"{w.line.name or 'A player'} took back {n} action{'s' if n != 1 else ''}"
        lines = [(WITHDRAWN, f"   [{head}; withdrawn:]")]
        for k, action in enumerate(w.actions):
            text = w.texts[k] if k < len(w.texts) and w.texts[k] else describe_action(action)
            lines.append((WITHDRAWN, f"   ({w.at + 1 + k}. {text})"))
        out.setdefault(w.at, []).extend(lines)
    return out


class HistoryPanel(ScrollView, can_focus=False):
    """Every action as one entry (its events' sentences), the current one highlighted."""

    DEFAULT_CSS = """
    HistoryPanel { border: round $primary 60%; border-title-color: $primary; height: 1fr; scrollbar-size-vertical: 1; }
    HistoryPanel:focus { border: round $accent; }
    HistoryPanel > .history--current { background: $accent; color: $background; text-style: bold; }
    HistoryPanel > .history--plain { color: $foreground; }
    HistoryPanel > .history--withdrawn { color: $text-muted; text-style: italic; }
    HistoryPanel > .history--hint { color: $accent; text-style: italic; }
    """
    COMPONENT_CLASSES = {"history--current", "history--plain", "history--withdrawn", "history--hint"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        #: a seat's style (the game's colours): (theme, seat) -> Style
        self.styler: Callable[[str, int], Style] = lambda theme, seat: seat_style(theme, seat, bold=False)
        self.entries: list[tuple[int, str]] = []
        self.current = 0  # the position shown
        self._entry_at: list[int] = []  # the entry of each position (notes of withdrawn actions lie between)
        self._lines: list[tuple[int, str]] = []  # (entry, one wrapped line)
        self._first: list[int] = []  # first line of each entry
        self._width = 0
        self._cache_key: tuple[str, int] | None = None
        self._cache: dict[tuple[int, bool], tuple[Style, Style]] = {}
        self.border_title = "History"

    def set_entries(
        self, entries: list[tuple[int, str]], notes: dict[int, list[tuple[int, str]]] | None = None
    ) -> None:
        """One entry per position; ``notes[i]`` (entries of withdrawn actions) follow position i."""
        self.entries = []
        self._entry_at = []
        for i, entry in enumerate(entries):
            self._entry_at.append(len(self.entries))
            self.entries.append(entry)
            self.entries.extend((notes or {}).get(i, ()))
        for i in sorted(k for k in (notes or {}) if k >= len(entries)):  # past the end: kept at the end
            self.entries.extend((notes or {})[i])
        self._width = 0
        self._wrap()

    def _current_entry(self) -> int:
        return self._entry_at[self.current] if 0 <= self.current < len(self._entry_at) else self.current

    def _wrap(self) -> None:
        width = max(10, self.scrollable_content_region.width or 40)
        if width == self._width and self._lines:
            return
        self._width = width
        lines: list[tuple[int, str]] = []
        first: list[int] = []
        for k, (_, text) in enumerate(self.entries):
            first.append(len(lines))
            # a numbered entry's text in one column, its further lines under it ("  9. ", "120. ")
            numbered = _NUMBER.match(text)
            if numbered and len(numbered.group()) < width // 2:
                head = numbered.group()
                parts = wrap(text[len(head) :], width - len(head)) or [""]
                parts = [head + parts[0]] + [" " * len(head) + part for part in parts[1:]]
            else:
                parts = wrap(text, width, indent="   ")
            lines.extend((k, part) for part in parts)
        self._lines, self._first = lines, first
        self.virtual_size = Size(width, len(lines))
        self.refresh()

    def set_current(self, index: int) -> None:
        self.current = index
        self._reveal()
        self.refresh()

    def _reveal(self) -> None:
        entry = self._current_entry()
        if not self._first or not 0 <= entry < len(self._first):
            return
        top = self._first[entry]
        end = self._first[entry + 1] if entry + 1 < len(self._first) else len(self._lines)
        height = max(1, self.scrollable_content_region.height)
        y = self.scroll_offset.y
        if top < y or end > y + height:
            self.scroll_to(y=max(0, top - height // 3), animate=False, immediate=True)

    def on_resize(self) -> None:
        self._wrap()
        self._reveal()

    @property
    def current_line(self) -> int:
        entry = self._current_entry()
        return self._first[entry] if self._first and entry < len(self._first) else 0

    def _style_cache(self) -> dict[tuple[int, bool], tuple[Style, Style]]:
        """Styles for this frame's theme (looking them up per line is a large part of a redraw)."""
        key = (self.app.theme, id(self.styles))
        if self._cache_key != key:
            self._cache_key = key
            self._cache = {}
        return self._cache

    def _style(self, seat: int, current: bool) -> tuple[Style, Style]:
        cache = self._style_cache()
        k = (seat, current)
        if k not in cache:
            base = self.rich_style
            if current:
                style = base + self.get_component_rich_style("history--current", partial=True)
            elif seat == WITHDRAWN:
                style = base + self.get_component_rich_style("history--withdrawn", partial=True)
            elif seat == HINTED:
                style = base + self.get_component_rich_style("history--hint", partial=True)
            elif seat >= 0:
                style = base + self.styler(self.app.theme, seat)
            else:
                style = base + self.get_component_rich_style("history--plain", partial=True)
            cache[k] = (base, style)
        return cache[k]

    def notify_style_update(self) -> None:
        self._cache_key = None
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if index >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        entry, text = self._lines[index]
        current = entry == self._current_entry()
        base, style = self._style(self.entries[entry][0], current)
        if current:
            return Strip([Segment(pad(text, width), style)], width)
        strip = Strip([Segment(text, style)])  # its width in cells (CJK takes two)
        return strip.crop_extend(0, width, base)
