"""Words and marks for the Municipium screens: player letters and colours, kind letters,
institution numbers, names cut to a number of terminal cells, the header's prompt.

Nothing here decides a rule: facts come from the State and the engine's queries.
"""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len, chop_cells
from rich.style import Style
from rich.text import Text

from colosseum.core.games.municipium import State, to_act
from colosseum.core.games.municipium.catalog import MuniCatalog, load_catalog
from colosseum.core.games.municipium.model import (
    BasilicaFrame,
    ChamberFrame,
    CitizenEventFrame,
    EmporiumFrame,
    ForumFrame,
    GreatFamilyFrame,
    OfferFrame,
    PlaceFrame,
    RearrangeFrame,
    TavernFrame,
)
from colosseum.tui.text import fit  # (the shell's: ASCII, "..." or "~")
from colosseum.tui.widgets.style import player_marks

ROMAN = ("0", "I", "II", "III", "IV", "V", "VI")
ORDINALS = ("1st", "2nd", "3rd", "4th")
# Family colours (M-2.7): a second channel next to the player's letter, never the only one.
FAMILY_COLOURS = {
    "blue": ("#5fa8ff", "#1d5fb0"),
    "orange": ("#f0903c", "#a8520a"),
    "yellow": ("#e8d047", "#8a6d00"),
    "pink": ("#f07cc4", "#a0287a"),
}
KIND_COLOURS = {  # dark theme, light theme
    "priest": ("#c38cf0", "#6a2a9a"),
    "soldier": ("#f06a5a", "#b3261e"),
    "merchant": ("#d4a05a", "#7a4a10"),
    "advocate": ("#b8b8b8", "#505050"),
}
CARD_SHORT = {
    "governors_visit": "Gov.Visit",
    "citizens_visit": "Cit.Visit",
    "one_power": "One Power",
    "all_powers": "All Powers",
    "citizens_invitation": "Invite",
    "great_family": "Family",
    "your_powers": "Powers",
}


def cat() -> MuniCatalog:
    return load_catalog()


def pad(text: str, cells: int) -> str:
    """``text`` fitted and padded with spaces to exactly ``cells`` cells."""
    t = fit(text, cells)
    return t + " " * (cells - cell_len(t))


def wrap_cells(text: str, width: int, indent: str = "  ") -> list[str]:
    """Word-wrap by terminal cells (CJK names take two cells a character); continuation lines
    start with ``indent``; a word longer than a line is cut."""
    width = max(width, cell_len(indent) + 2)
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line:
            if cell_len(line) + 1 + cell_len(word) <= width:
                line += " " + word
                continue
            lines.append(line)
            line = ""
        prefix = indent if lines else ""
        while word and cell_len(prefix) + cell_len(word) > width:
            head, *rest = chop_cells(word, width - cell_len(prefix))
            lines.append(prefix + head)
            word = "".join(rest)
            prefix = indent
        if word:
            line = prefix + word
    if line or not lines:
        lines.append(line)
    return lines


@lru_cache(maxsize=64)
def player_letters(names: tuple[str, ...]) -> tuple[str, ...]:
    """One distinct lower-case letter per player: the first ASCII letter of the name not yet
    taken, else the first free letter of the alphabet."""
    taken: list[str] = []
    for name in names:
        pick = next((c.lower() for c in name if c.isascii() and c.isalpha() and c.lower() not in taken), "")
        if not pick:
            pick = next(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in taken)
        taken.append(pick)
    return tuple(taken)


def letters(state: State, theme: str = "") -> tuple[str, ...]:
    """The players' marks: their letters, or in a theme that shows seats by symbol, the seats'
    symbols (``widgets.style.player_marks``)."""
    names = tuple(p.name for p in state.players)
    return player_marks(names, theme, player_letters(names))


def seat_style(state: State, seat: int, dark: bool = True, bold: bool = True) -> Style:
    if not 0 <= seat < state.n:
        return Style(bold=bold)
    colour = FAMILY_COLOURS.get(state.players[seat].colour, ("#ffffff", "#000000"))[0 if dark else 1]
    return Style(color=colour, bold=bold)


def kind_style(kind: int, dark: bool = True) -> Style:
    kid = cat().kinds[kind].id
    return Style(color=KIND_COLOURS[kid][0 if dark else 1], bold=True)


def kind_letter(kind: int) -> str:
    return cat().kinds[kind].letter


def kind_id(kind: int) -> str:
    return cat().kinds[kind].id


def kind_index(kid: str) -> int:
    return cat().kind_index[kid]


def inst_name(i: int) -> str:
    return cat().inst_name(i)


def inst_label(i: int) -> str:
    """'III Emporium'."""
    return f"{ROMAN[i]} {inst_name(i)}"


def card_name(card: str) -> str:
    return cat().card_name(card)


def name_text(state: State, seat: int, cells: int, dark: bool = True, bold: bool = True) -> Text:
    """A player's name (user text: never markup) cut to ``cells``, in their colour."""
    return Text(fit(state.players[seat].name, cells), style=seat_style(state, seat, dark, bold))


def tag(state: State, seat: int, dark: bool = True, name_cells: int = 12, theme: str = "") -> Text:
    """'b Becky' : mark (letter) and name, in the player's colour."""
    t = Text(letters(state, theme)[seat] + " ", style=seat_style(state, seat, dark))
    t.append_text(name_text(state, seat, name_cells, dark))
    return t


def citizens_text(counts: tuple[int, ...], dark: bool = True, zero: bool = False) -> Text:
    """'P2 M1' (kinds held, by letter); with ``zero`` every kind is shown."""
    t = Text()
    for k, c in enumerate(counts):
        if c or zero:
            if t:
                t.append(" ")
            t.append(f"{kind_letter(k)}{c}", style=kind_style(k, dark) if c else Style(dim=True))
    return t


def bag_text(state: State, dark: bool = True) -> Text:
    """'Bag 47: P14 S11 M11 A11' (what is in the bag is public: every other citizen is in
    sight; only the order of the draws is chance)."""
    t = Text(f"Bag {sum(state.bag)}: ")
    t.append_text(citizens_text(state.bag, dark, zero=True))
    return t


def kinds_list(counts: tuple[int, ...]) -> str:
    """'2 priests and a merchant'."""
    c = cat()
    parts = [c.a_kind(k) if n == 1 else c.kind_name(k, n) for k, n in enumerate(counts) if n]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def frame_prompt(state: State) -> str:
    """What the player to act must decide now, in a few words."""
    seat = to_act(state)
    if seat < 0:
        return "game over"
    if state.stack:
        top = state.stack[-1]
        if isinstance(top, PlaceFrame):
            return f"place {kinds_list(state.held)}"
        if isinstance(top, CitizenEventFrame):
            return f"citizen event at the {inst_name(top.institution)}: keep 2"
        if isinstance(top, GreatFamilyFrame):
            return "Great Family: governor or rearrange"
        if isinstance(top, OfferFrame):
            return "use the power of " + " or ".join(inst_name(i) for i in top.options) + "?"
        if isinstance(top, TavernFrame):
            return "Tavern: pull members to the Tavern"
        if isinstance(top, EmporiumFrame):
            return "Emporium: draw a citizen or stop"
        if isinstance(top, BasilicaFrame):
            return "Basilica: hand in 3 or draw"
        if isinstance(top, ForumFrame):
            return "Forum: take a citizen"
        if isinstance(top, RearrangeFrame):
            return f"rearrange members ({top.left} left) or done"
        if isinstance(top, ChamberFrame):
            return f"put the chamber citizen ({kinds_list(state.held)}) on a chamber"
    if state.phase == "place":
        return "place a member on an institution"
    if state.phase == "move":
        return "move members or pass"
    return "draw a common card or play a family card"


def prompt(state: State) -> tuple[int, str]:
    """(seat to act, '<name>: <what to do>'); (-1, text) when nobody acts."""
    seat = to_act(state)
    if seat < 0:
        if state.result is not None:
            return -1, f"game over: {state.players[state.result.winner].name} wins"
        return -1, "game over"
    return seat, f"{state.players[seat].name}: {frame_prompt(state)}"
