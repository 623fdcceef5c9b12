"""The legend (``k`` on the game screen and in its dialogs; the help screen shows it too): what
each code and symbol on the game's panels means, as the game's client part gives it
(``GameClient.legend``) for the edition in play.  Escape or ``k`` closes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.binding import Binding

from .rules import PageScreen

Sections = Sequence[tuple[str, Sequence[tuple[str, str]]]]


def legend_text(sections: Sections) -> Text:
    """Each section's heading, then its symbols in a column and what they mean."""
    out = Text()
    for heading, rows in sections:
        out.append(heading + "\n", Style(bold=True))
        width = min(14, max((cell_len(s) for s, _ in rows), default=0))
        for symbol, meaning in rows:
            out.append("  " + symbol + " " * max(1, width - cell_len(symbol) + 2), Style(bold=True))
            out.append(meaning + "\n")
        out.append("\n")
    out.rstrip()
    return out


def legend_table(sections: Sections) -> Group:
    """The same as :func:`legend_text` with each meaning wrapped beside its symbol."""
    parts: list[Any] = []
    for heading, rows in sections:
        parts.append(Text(heading, Style(bold=True)))
        grid = Table.grid(padding=(0, 2), pad_edge=True)
        grid.add_column(no_wrap=True, style=Style(bold=True))
        grid.add_column()
        for symbol, meaning in rows:
            grid.add_row(Text(symbol), Text(meaning))  # Text: never markup
        parts += [grid, Text("")]
    return Group(*parts)


class LegendScreen(PageScreen):
    BINDINGS = [
        Binding("escape", "close", "close", id="legend.close"),
        Binding("k", "close", "close", show=False, id="legend.close-k"),
    ]
    NAME = "legend"
    WHAT = "what the codes and symbols mean"

    def body(self) -> Any:
        return legend_table(self.client.legend(self.setup))
