"""The arena: the 36-space noble track drawn as a ring, the five markets inside it.

Ring, clockwise from the top-left corner: 10 spaces along the top (0-9), 8 down the right
(10-17), 10 along the bottom right to left (18-27), 8 up the left (28-35).  Each space is three
cells: the gate owner's letter (in their colour) or '.', the noble (E, C, S) and '*' on an Aquila
space, so the board reads without colour too.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from colosseum.core.games.colosseum import State, catalog
from colosseum.core.games.colosseum.summary import Changes
from colosseum.tui.widgets.lines import LinePanel
from colosseum.tui.widgets.preview import Preview

from .common import MARKETS, NOBLE_LETTERS, player_marks, seat_style

SPACES = 36


#: "highlight these track spaces" (a ``frozenset`` of spaces; empty clears): the shell's preview
PreviewSpaces = Preview


def ring_position(space: int) -> tuple[int, int]:
    """(column index 0-9, row 0-9) of a track space on the ring."""
    if space < 10:
        return space, 0
    if space < 18:
        return 9, space - 9
    if space < 28:
        return 27 - space, 9
    return 0, 36 - space


def _wide_name(name: str) -> str:
    return name if len(name) <= 10 else name.split()[0]


class BoardPanel(LinePanel):
    """Renders a State's track, nobles, gates and markets.  ``preview`` highlights spaces.

    Drawn with the line API (``lines.LinePanel``): a move repaints only the rows it changed."""

    DEFAULT_CSS = """
    BoardPanel { height: 12; width: 41; border: round $primary 60%; border-title-color: $primary; padding: 0 0; }
    BoardPanel > .board--space { background: $panel; }
    BoardPanel > .board--preview { background: $accent; color: $background; text-style: bold reverse; }
    BoardPanel > .board--noble { color: $warning; text-style: bold; }
    BoardPanel > .board--market { color: $primary; }
    BoardPanel > .board--dim { text-style: dim; }
    BoardPanel > .board--mark { text-style: bold reverse; }
    BoardPanel > .board--from { text-style: underline; }
    """

    COMPONENT_CLASSES = {
        "board--space",
        "board--preview",
        "board--noble",
        "board--market",
        "board--dim",
        "board--mark",
        "board--from",
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state: State | None = None
        self.seat = -1
        self.preview: frozenset[int] = frozenset()
        # the last move: the spaces where moved nobles ended and gates were built (reverse,
        # so it reads without colour), where they came from (underlined), the markets it
        # emptied or refilled
        self.marks = Changes()
        self.border_title = "Arena"
        self._key: tuple | None = None  # what the panel was last drawn from
        self._ring_key: tuple | None = None  # what the ring's cells were drawn from
        self._cells: dict[tuple[int, int], Text] = {}

    def show(self, state: State, seat: int = -1, marks: Changes | None = None) -> None:
        self.state = state
        self.seat = seat
        if marks is not None:
            self.marks = marks
        # Most actions (bids, deals, investments) leave the arena as it was: repaint only when
        # something it draws changed, so a move costs a screen little to show (SSH tables).
        key = (self._drawn_from(state), self.preview, self._marked())
        if key != self._key:
            self._key = key
            self.redraw()

    @staticmethod
    def _drawn_from(st: State) -> tuple:
        """Everything render() reads from the state."""
        auction = st.hire.auction if st.hire is not None else None
        return (
            st.nobles,
            tuple((p.name, p.gates, p.temple) for p in st.players),
            st.markets,
            st.pillars,
            auction,
            sum(st.bag),
            st.promoters_left,
            st.gifts_left,
        )

    def _marked(self) -> tuple:
        m = self.marks
        return (m.spaces, m.origins, m.gates, m.markets)

    def set_preview(self, spaces: frozenset[int] | set[int] | tuple[int, ...]) -> None:
        spaces = frozenset(spaces)
        if spaces != self.preview:
            self.preview = spaces
            self._key = None
            self.redraw()

    # ------------------------------------------------------------------ drawing
    def _gap(self) -> int:
        width = self.content_region.width or 39
        return 2 if width >= 48 else 1

    def build_lines(self) -> list[Text]:
        st = self.state
        if st is None:
            return []
        cat = catalog(st)
        theme = self.app.theme
        gap = self._gap()
        step = 3 + gap
        ring_w = 10 * step - gap
        width = max(self.content_region.width, ring_w)
        pad = (width - ring_w) // 2
        letters = player_marks([p.name for p in st.players], theme)
        owner = {}
        for seat, p in enumerate(st.players):
            for g in p.gates:
                owner[g] = seat
        space_style = self.component_style("board--space")
        preview_style = self.component_style("board--preview")
        noble_style = self.component_style("board--noble")
        dim = self.component_style("board--dim")
        marked = self._marked()
        mark_styles = (self.component_style("board--mark"), self.component_style("board--from"))
        # the ring changes only when a noble moves or a gate is taken: keep its cells
        ring_key = (
            st.setup.variant,
            st.nobles,
            tuple(sorted(owner.items())),
            self.preview,
            letters,
            theme,
            space_style,
            preview_style,
            noble_style,
            dim,
            marked,
            mark_styles,
        )
        if ring_key != self._ring_key:
            self._cells = self._ring_cells(st, cat, letters, owner, theme, space_style, preview_style, noble_style, dim)
            self._mark_cells(self._cells, *mark_styles)
            self._ring_key = ring_key
        cells = self._cells
        lines: list[Text] = []
        inner = self._inside(st, cat, letters, width - 2 * (pad + step) - 2, theme)
        for row in range(10):
            line = Text(" " * pad)
            if row in (0, 9):
                for col in range(10):
                    line.append_text(cells[(col, row)])
                    if col < 9:
                        line.append(" " * gap)
            else:
                line.append_text(cells[(0, row)])
                line.append(" " * (gap + 1))
                body = inner[row - 1] if row - 1 < len(inner) else Text("")
                room = ring_w - 2 * step - 2
                body.truncate(room, pad=True)
                line.append_text(body)
                line.append(" " * (gap + 1))
                line.append_text(cells[(9, row)])
            lines.append(line)
        return lines

    def _ring_cells(
        self, st: State, cat, letters, owner, theme, space_style, preview_style, noble_style, dim
    ) -> dict[tuple[int, int], Text]:
        """The 36 spaces of the track by (column, row) of the ring: the gate owner's letter or
        '.', the noble, '*' on an Aquila space."""
        nobles: dict[int, list[int]] = {}
        for i, pos in enumerate(st.nobles):
            nobles.setdefault(pos, []).append(i)
        cells: dict[tuple[int, int], Text] = {}
        for space in range(SPACES):
            col, row = ring_position(space)
            t = Text()
            base = preview_style if space in self.preview else space_style
            o = owner.get(space, -1)
            if o >= 0:
                t.append(letters[o], base + seat_style(theme, o))
            else:
                t.append(".", base + dim)
            here = nobles.get(space, ())
            if here:
                t.append(NOBLE_LETTERS[here[0]], base + noble_style)
            else:
                t.append(" ", base)
            if len(here) > 1:  # more nobles than the cell holds: '+', and the ring's inside says which
                t.append("+", base + noble_style)
            else:
                t.append("*" if space in cat.aquila_spaces else " ", base)
            cells[(col, row)] = t
        return cells

    def _mark_cells(self, cells: dict[tuple[int, int], Text], mark: Style, origin: Style) -> None:
        """The last move on the ring: where nobles ended and gates went up, where they left."""
        ends = set(self.marks.spaces) | set(self.marks.gates)
        for space in set(self.marks.origins) - ends:
            cells[ring_position(space)].stylize(origin)
        for space in ends:
            cells[ring_position(space)].stylize(mark)

    def _stacks(self, st: State, room: int) -> Text:
        """The spaces where nobles share a space (a cell shows one and '+'): "12 E+S" for each,
        so that every noble is seen (the nobles' names in full where there is room)."""
        spaces: dict[int, list[int]] = {}
        for i, pos in enumerate(st.nobles):
            spaces.setdefault(pos, []).append(i)
        stacked = sorted((pos, ids) for pos, ids in spaces.items() if len(ids) > 1)
        if not stacked:
            return Text("")
        noble_style = self.component_style("board--noble")
        t = Text(" ")
        for pos, ids in stacked:
            t.append(f"{pos} ", self.component_style("board--dim"))
            t.append("+".join(NOBLE_LETTERS[i] for i in ids), noble_style)
            t.append("  ")
        t.rstrip()
        if t.cell_len > room:
            t.truncate(room)
        return t

    def _inside(self, st: State, cat, letters, room: int, theme: str) -> list[Text]:
        """The eight lines inside the ring: markets A-E and a few supplies."""
        market_style = self.component_style("board--market")
        dim = self.component_style("board--dim")
        wide = room >= 36
        out: list[Text] = [self._stacks(st, room)]
        auction = st.hire.auction if st.hire is not None else None
        for i in range(5):
            t = Text()
            active = auction is not None and auction.market == i
            t.append(">" if active else " ", Style(bold=True))
            changed = i in self.marks.markets
            t.append(MARKETS[i], market_style + Style(bold=True, reverse=changed))
            t.append(" ")
            lot = st.markets[i]
            if lot:
                names = [_wide_name(cat.tiles[k].name) if wide else cat.tiles[k].short for k in lot]
                t.append(" ".join(f"{n:<3}" for n in names), Style(reverse=True) if active else Style())
            pillar = st.pillars[i]
            if pillar >= 0:
                t.append("  |" + letters[pillar] + "| ", seat_style(theme, pillar))
                t.append("pillar", dim)
            elif not lot:
                t.append("(empty)", dim)
            if active and auction is not None:
                t.append(f"  {auction.high} ")
                t.append(letters[auction.bidder], seat_style(theme, auction.bidder))
            out.append(t)
        temples = [seat for seat, p in enumerate(st.players) if p.temple]
        bag = sum(st.bag)
        term = catalog(st).term  # the edition's words (season tickets, podiums, loges)
        promoters, gifts = term("promoters"), term("gifts")
        sup_text = ""
        tries = ((("  ", promoters),) if wide else ()) + ((" ", promoters), (" ", promoters.split()[-1]))
        for gap, prom in tries:
            sup_text = gap.join((f"bag {bag}", f"{prom} {st.promoters_left}", f"{gifts} {st.gifts_left}"))
            if cell_len(sup_text) <= room - 1:
                break
        sup = Text(sup_text, dim)
        line = Text("")
        if temples:
            line.append(term("temple").split(" of ")[0].lower() + "s ", dim)
            for seat in temples:
                line.append(letters[seat], seat_style(theme, seat))
                line.append(" ")
        out.append(line)
        out.append(sup)
        return out
