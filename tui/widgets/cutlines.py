"""``CutLines``: a ``Static`` (markup off) whose lines are each cut to the widget's width in
ASCII ("..."), never wrapped.

Textual's ``text-overflow: ellipsis`` ends a cut line with "…", which some East Asian terminals
draw two cells wide: the rest of that row (a dialog's right border) moves one cell over.  Every
cut the client makes itself ends in ASCII (``tui.text.fit``, ``widgets.header.cut_line``); this
widget does the same for text laid out by width, redrawn at every resize.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.geometry import Size

from colosseum.tui.plain import Static
from colosseum.tui.widgets.header import cut_line

__all__ = ["CutLines"]


class CutLines(Static):
    """Lines cut to the width (``cut`` True), or wrapped as a plain ``Static`` (``cut`` False)."""

    def __init__(self, content: Text | str = "", *, cut: bool = True, **kwargs: Any) -> None:
        self.cut = cut
        self.source = Text()
        super().__init__("", **kwargs)
        self.update(content)
        if cut:
            self.styles.text_wrap = "nowrap"

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        self.source = content if isinstance(content, Text) else Text(str(content))
        super().update(self.source, layout=layout)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Cut, the height is the number of lines at any width (Textual measures what ``render``
        gives, which is the text wrapped until the widget has been laid out at its width)."""
        if not self.cut:
            return super().get_content_height(container, viewport, width)
        return len(self.source.split("\n", allow_blank=True)) if self.source.plain else 0

    def render(self) -> Any:
        width = self.content_size.width
        if not self.cut or width <= 0:
            return super().render()
        lines = self.source.split("\n", allow_blank=True)  # (copies: the source stays whole)
        for line in lines:
            cut_line(line, width)
        return Text("\n").join(lines)
