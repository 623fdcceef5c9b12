"""The header line: round, phase, who must act and what to do."""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from colosseum.core.games.colosseum import State
from colosseum.core.games.colosseum.model import PHASE_TITLES

from .common import prompt, rounds_total, seat_style
from .lines import LinePanel


def variant_tag(state: State, wide: bool = False) -> str:
    """How this game differs from The Grand Spectacle (shown on the main screen, so nobody plays the wrong rules)."""
    parts = []
    if state.setup.variant == "classic":
        parts.append("Classic 2007" if wide else "Classic")
    elif state.setup.variant == "original":
        parts.append("Original 2007" if wide else "Original")
    if "auction-2007" in state.setup.options:
        parts.append("2007 auctions" if wide else "A07")
    return " + ".join(parts) if wide else "+".join(parts)


class GameHeader(LinePanel):
    DEFAULT_CSS = """
    GameHeader { height: 1; background: $panel; color: $foreground; }
    GameHeader > .header--title { color: $primary; text-style: bold; }
    """
    COMPONENT_CLASSES = {"header--title"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state: State | None = None
        self.note = ""

    def show(self, state: State, seat: int = -1) -> None:
        self.state = state
        self.redraw()

    def build_lines(self) -> list[Text]:
        return [self._line()]

    def _line(self) -> Text:
        t = Text(no_wrap=True, overflow="crop")
        t.append(" COLOSSEUM ", self.component_style("header--title"))
        st = self.state
        if st is None:
            return t
        wide = (self.size.width or 80) >= 100
        tag = variant_tag(st, wide)
        if tag:
            t.append(f"[{tag}] ", Style(bold=True))
        rnd = f"{min(st.round, rounds_total(st))}/{rounds_total(st)}"
        t.append(f" Round {rnd}  " if wide else f" R{rnd} ")
        t.append(PHASE_TITLES.get(st.phase, st.phase), Style(bold=True))
        t.append("  |  " if wide else " | ")
        seat, text = prompt(st)
        t.append(text, seat_style(self.app.theme, seat) if seat >= 0 else Style(bold=True))
        width = self.size.width or 80
        if seat >= 0:
            p = st.players[seat]
            # the acting player's purse, labelled (a bare "$23" read as anyone's)
            money = f"${p.coins}" + (f" Aq{p.aquilas}" if p.aquilas else "")
            for label in (f"   cash {money}", f"  cash {money}", f" {money}"):
                if t.cell_len + cell_len(label) <= width:
                    t.append(label)
                    break
        if self.note:
            t.append("  " + self.note, Style(dim=True))
        t.truncate(width, overflow="crop")
        return t
