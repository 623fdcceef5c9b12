"""The hand: the impresario board of the viewed seat.

Performers by type (a '*' marks a Star Performer held), coins, Aquilas, promoters, gifts,
gates, temple, and each spectacle with what it needs, what is matched, what is missing and the
Acclaim it would score now.  Matching and scores come from ``colosseum.core``
(``match``, ``breakdown``, ``why_not_performable``); nothing is computed here.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from colosseum.core.games.colosseum import State, breakdown, catalog, match, to_act, why_not_performable
from colosseum.core.games.colosseum.summary import Changes
from colosseum.tui.text import fit, pad
from colosseum.tui.widgets.lines import ScrollingLinePanel, set_border_label


class HandPanel(ScrollingLinePanel, can_focus=True):
    """Drawn with the line API (``lines.ScrollingLinePanel``): a new state repaints only the
    rows of the board that changed, never the whole screen."""

    DEFAULT_CSS = """
    HandPanel { border: round $primary 60%; border-title-color: $primary; height: 1fr; padding: 0 0; scrollbar-size-vertical: 1; }
    HandPanel:focus { border: round $accent; }
    HandPanel.acting { border: heavy $accent; border-title-style: bold; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state: State | None = None
        self.seat = -1
        self.border_title = "Board"
        self._title = "Board"
        self.marks = Changes()  # the last move: a spectacle it performed is marked
        #: every spectacle's needs, holdings, missing types and strip, at any width (they
        #: show by themselves only from 50 columns)
        self.detail = False

    def toggle_detail(self) -> None:
        self.detail = not self.detail
        self.redraw()

    def show(self, state: State, seat: int, marks: Changes | None = None) -> None:
        self.state = state
        self.seat = seat
        if marks is not None:
            self.marks = marks
        self._fit_title()
        self.redraw()

    def _fit_title(self) -> None:
        st, seat = self.state, self.seat
        if st is not None and 0 <= seat < st.n:
            acting = to_act(st) == seat
            self.set_class(acting, "acting")
            room = max(8, (self.size.width or 38) - 22)
            title = f"{fit(st.players[seat].name, room)}'s board" + (" - to act" if acting else "")
            if title != self._title:  # setting a title repaints the panel
                self._title = title
                set_border_label(self, Text(title))  # a name is never markup; the border's row only

    def on_resize(self) -> None:
        self._fit_title()  # fitted to the width: a first paint before the layout guessed it
        super().on_resize()

    def build_lines(self) -> list[Text]:
        st, seat = self.state, self.seat
        if st is None or not 0 <= seat < st.n:
            return []
        # one column is kept for the scroll bar, so its coming and going never re-wraps
        width = self.content_region.width - 1
        performed = frozenset(spec for who, spec in self.marks.performed if who == seat)
        text = hand_text(st, seat, width, self.app.theme, performed, detail=self.detail)
        # the board breaks its own lines; only one too long for the panel is wrapped (Rich's
        # wrap of the whole text was a third of the panel's work at every move)
        lines: list[Text] = []
        for line in text.split("\n", allow_blank=True):
            if line.cell_len > width:
                lines.extend(line.wrap(self.app.console, max(width, 1)))
            else:
                lines.append(line)
        return lines


def hand_text(
    st: State, seat: int, width: int, theme: str, performed: frozenset[int] = frozenset(), detail: bool = False
) -> Text:
    """The board of ``seat`` in ``width`` cells; spectacles in ``performed`` (by the last move) in
    reverse; ``detail``: each spectacle's needs, what is held of them, what is missing and the
    strip, also when narrow."""
    cat = catalog(st)
    p = st.players[seat]
    width = max(width, 30)
    wide = width >= 50
    muted = Style(dim=True)
    bold = Style(bold=True)
    out = Text()
    gates_max = cat.common.gates
    out.append(f"${p.coins}", bold)
    term = cat.term
    out.append(
        f"  {term('aquilas').capitalize()} {p.aquilas}  {term('promoters').capitalize()} {p.promoters}"
        f"  {term('gifts').capitalize()} {p.gifts}\n"
    )
    out.append(f"{term('gates').capitalize()} {len(p.gates)}/{gates_max}")
    if p.gates:
        out.append(" (" + " ".join(str(g) for g in sorted(p.gates)) + ")", muted)
    temple = term("temple").split(" of ")[0]  # "Temple of Fortuna": "Temple" keeps the line
    out.append(f"  {temple[:1].upper()}{temple[1:]} " + ("built" if p.temple else "-"))
    if not p.pillar:
        out.append("  pillar out", muted)
    out.append("\n")
    # performers by type
    parts = []
    for k in (*cat.performers, cat.balatro, cat.construction):
        n = p.tiles[k]
        if not n:
            continue
        star = "*" if st.stars[k] == seat else ""
        label = cat.tiles[k].name if wide else cat.tiles[k].short
        parts.append((f"{label} {n}{star}", star != ""))
    if parts:
        line_len = 0
        for text, is_star in parts:
            if line_len and line_len + cell_len(text) + 2 > width:
                out.append("\n")
                line_len = 0
            elif line_len:
                out.append("  ")
                line_len += 2
            out.append(text, bold if is_star else Style())
            line_len += cell_len(text)
        out.append("\n")
    else:
        out.append("no performers\n", muted)
    if any(h == seat for h in st.stars):
        out.append(f"* {cat.term_start('star')} (+4 in {term('spectacles')} needing it)\n", muted)
    # spectacles
    specs = []
    if p.arena >= 0:
        specs.append((p.arena, "arena"))
    specs += [(i, "down") for i in p.face_down] + [(i, "up") for i in p.face_up]
    if not specs:
        out.append(f"no {term('spectacles')}\n", muted)
        return out
    name_w = 24 if wide else 14
    out.append(f"{pad(term('spectacle').capitalize(), name_w)} have miss  now\n", muted)
    for sid, where in specs:
        spec = cat.spectacles[sid]
        m = match(cat, p.tiles, spec)
        out.append(pad(cat.label(spec), name_w), Style(bold=True, reverse=True) if sid in performed else Style())
        out.append(f" {m.matched:>2}/{spec.total:<2} ")
        if where == "arena":
            out.append(" performed\n", muted)
            continue
        why = why_not_performable(st, seat, spec)
        out.append(f"{-m.missing if m.missing else 'full':>4} ")
        if why is None:
            score = breakdown(st, seat, spec).total
            out.append(f"{score:>4}", bold)
        else:
            out.append("  --", muted)
        tag = " up" if where == "up" else ""
        if why is not None and len(p.gates) < spec.gates:
            tag += f" {spec.gates}g"
        out.append(tag + "\n", muted)
        if wide or detail:
            need = " ".join(f"{cat.tiles[k].short}{n}" for k, n in enumerate(spec.need) if n)
            missing = " ".join(
                f"{cat.tiles[k].short}{n - m.used[k]}" for k, n in enumerate(spec.need) if n and m.used[k] < n
            )
            strip = " ".join(str(v) for v in spec.strip[: spec.max_missing + 1])
            line = f"  needs {need}; strip {strip}"
            if detail:
                # one fact a line: narrow panels cannot hold them side by side
                has = " ".join(f"{cat.tiles[k].short}{m.used[k]}" for k, n in enumerate(spec.need) if n and m.used[k])
                line = f"  needs {need}\n  has   {has or '-'}"
                if missing and m.missing:
                    line += f"\n  lacks {missing}"
                line += f"\n  strip {strip}"
            elif missing and m.missing:
                more = f"; lacks {missing}"
                if cell_len(line) + cell_len(more) <= width:
                    line += more
                else:
                    line += "\n  lacks " + missing
            out.append(line + "\n", muted)
    out.rstrip()
    return out
