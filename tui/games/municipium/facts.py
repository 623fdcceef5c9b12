"""What the dialogs show about a choice, asked of the engine: the action in words, the ranking
at an institution, and what an action would change (``apply`` on the immutable state, read
back).  Chance is never previewed: a draw from the bag or the deck is described, not applied,
and of a trial ``apply`` only the holdings of the players are read, never what it drew.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import MuniAction, State, apply
from colosseum.core.games.municipium.actions import (
    BasilicaDraw,
    DrawCommon,
    EmporiumDraw,
    Exchange,
    GreatFamilyOption,
    KeepCitizens,
    Move,
    Pass,
    PlaceChamber,
    PlaceCitizen,
    PlaceMember,
    PlayFamily,
    Pull,
    Relocate,
    Take,
    UsePower,
)
from colosseum.core.games.municipium.board import influence, ranking

from .text import (
    ORDINALS,
    ROMAN,
    card_name,
    cat,
    fit,
    inst_name,
    kind_index,
    kinds_list,
    letters,
    seat_style,
)

# Actions whose trial apply would turn over something hidden: described, never applied.
CHANCE = (DrawCommon, EmporiumDraw, BasilicaDraw)


def after(state: State, action: MuniAction) -> State | None:
    """The state after ``action`` (the engine's answer), or None if it is refused or draws."""
    if isinstance(action, CHANCE):
        return None
    if isinstance(action, PlayFamily) and action.card == "citizens_invitation":
        return None
    try:
        return apply(state, action)[0]
    except RuleError:
        return None


def describe(state: State, a: MuniAction) -> str:
    """The action in a few words (for lists and the generic chooser)."""
    p = state.players
    if isinstance(a, PlaceMember):
        return f"a member to {ROMAN[a.institution]} {inst_name(a.institution)}"
    if isinstance(a, Move):
        return "; ".join(
            f"{ROMAN[x.frm]}>{ROMAN[x.via] + '>' if x.via >= 0 else ''}{ROMAN[x.to]}{' (crowned)' if x.crowned else ''}"
            for x in a.paths
        )
    if isinstance(a, Pass):
        return "pass"
    if isinstance(a, DrawCommon):
        return "draw the top common card"
    if isinstance(a, PlayFamily):
        return f"play {card_name(a.card)}"
    if isinstance(a, PlaceCitizen):
        return f"{a.kind} to {ROMAN[a.institution]} {inst_name(a.institution)}"
    if isinstance(a, KeepCitizens):
        return f"leave the {a.leave}"
    if isinstance(a, GreatFamilyOption):
        return "move the governor" if a.option == "governor" else "rearrange your members"
    if isinstance(a, UsePower):
        return f"use the {inst_name(a.institution)}"
    if isinstance(a, Relocate):
        return f"{'crowned ' if a.crowned else ''}member {ROMAN[a.frm]} to {ROMAN[a.to]} {inst_name(a.to)}"
    if isinstance(a, Pull):
        n = a.plain + a.crowned
        return f"{n} of {p[a.owner].name}'s from {inst_name(a.frm)}"
    if isinstance(a, Exchange):
        counts = kinds_list(a.citizens)
        fav = f"{a.favours} favour{'s' if a.favours != 1 else ''}" if a.favours else ""
        items = " and ".join(x for x in (counts if any(a.citizens) else "", fav) if x)
        return f"hand in {items}"
    if isinstance(a, EmporiumDraw):
        return "draw a citizen"
    if isinstance(a, BasilicaDraw):
        return "draw a citizen and keep it"
    if isinstance(a, Take):
        where = p[a.seat].name if a.seat >= 0 else f"the {inst_name(a.institution)} banner"
        return f"a {a.kind} from {where}"
    if isinstance(a, PlaceChamber):
        return f"to the {inst_name(a.institution)} chamber"
    return type(a).__name__


def rank_text(
    state: State, inst: int, dark: bool = True, name_cells: int = 8, top: int = 2, sep: str = "  ", theme: str = ""
) -> Text:
    """'1st b Becky 3  2nd a Ann 2' (influence after the name); 'nobody there' if empty."""
    r = ranking(state, inst)
    t = Text()
    if not r:
        t.append("nobody there", Style(dim=True))
        return t
    for pos, seat in enumerate(r[:top]):
        if pos:
            t.append(sep)
        t.append(f"{ORDINALS[pos]} ")
        t.append(
            f"{letters(state, theme)[seat]} {fit(state.players[seat].name, name_cells)}", seat_style(state, seat, dark)
        )
        t.append(f" {influence(state, seat, inst)}")
    return t


def ranks_lines(
    before: State, later: State | None, insts: list[int], dark: bool = True, width: int = 30, theme: str = ""
) -> list[Text]:
    """For each institution: its ranking after the choice (``later``), else as it stands; a
    ranking the choice changes is marked with '!'.  Narrow boxes get one line per rank."""
    out: list[Text] = []
    if later is not None:
        out.append(Text("After this:", Style(bold=True)))
    name_cells = 8 if width < 44 else 12
    for i in dict.fromkeys(insts):
        st = later if later is not None else before
        changed = later is not None and ranking(before, i) != ranking(later, i)
        head = Text(f"{ROMAN[i]} {inst_name(i)}{' (changes)' if changed else ''}: ", Style(bold=True))
        ranks = rank_text(st, i, dark, name_cells, sep="\n  ", theme=theme)
        if width >= 44 or not ranking(st, i):
            head.append_text(rank_text(st, i, dark, name_cells, theme=theme))
            out.append(head)
        else:
            out.append(head)
            out.append(Text("  ").append_text(ranks))
    return out


def gains_lines(before: State, later: State, dark: bool = True, name_cells: int = 10, theme: str = "") -> list[Text]:
    """What each player gains or loses: citizens, favours, decurions, crowns.  A decurion
    earned shows as such, not as the set it took (the set's pieces go back at once)."""
    c = cat()
    out: list[Text] = []
    for s, (p, q) in enumerate(zip(before.players, later.players, strict=True)):
        parts: list[str] = []
        earned = q.decurions - p.decurions
        if earned:
            parts.append(f"+{earned} DECURION" if earned == 1 else f"+{earned} DECURIONS")
        for k in range(4):
            d = q.citizens[k] - p.citizens[k]
            if d > 0 or (d and not earned):
                parts.append(f"{d:+d} {c.kinds[k].name.lower()}{'s' if abs(d) > 1 else ''}")
        d = q.favours - p.favours
        if d > 0 or (d and not earned):
            parts.append(f"{d:+d} favour{'s' if abs(d) > 1 else ''}")
        if sum(q.crowned) > sum(p.crowned):
            parts.append("+1 crown")
        if parts:
            t = Text(f"{letters(before, theme)[s]} {fit(p.name, name_cells)}: ", seat_style(before, s, dark))
            t.append(", ".join(parts))
            out.append(t)
    if later.temple != before.temple and before.temple:
        t = Text("Temple order: ")
        t.append(" ".join(letters(later, theme)[s] for s in later.temple))
        out.append(t)
    return out


def held_after_exchange(state: State, a: Exchange) -> str:
    p = state.players[a.player]
    rest = tuple(h - x for h, x in zip(p.citizens, a.citizens, strict=True))
    fav = p.favours - a.favours
    items = kinds_list(rest)
    return f"you keep {items}" + (f" and {fav} favour{'s' if fav != 1 else ''}" if fav else "")


def kind_of(a: PlaceCitizen | KeepCitizens | Take) -> int:
    return kind_index(a.kind if not isinstance(a, KeepCitizens) else a.leave)
