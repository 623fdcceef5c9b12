"""The end screen's content for Municipium: the ranking (decurions, held, Temple order) and
what decided it (M-11.2)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from colosseum.core.games.municipium import State

from .text import ORDINALS, letters, pad, seat_style


def result_text(state: State, dark: bool = True, theme: str = "") -> Text:
    t = Text()
    res = state.result
    if res is None:
        return t
    winner = state.players[res.winner].name
    t.append(f"{winner} wins.\n\n", Style(bold=True))
    t.append(" #  Player              Dec  Held  Temple\n", Style(dim=True))
    let = letters(state, theme)
    for s in res.standings:
        p = state.players[s.seat]
        t.append(f" {s.rank}  ")
        t.append(f"{let[s.seat]} {pad(p.name, 16)}", seat_style(state, s.seat, dark))
        t.append(f"  {s.decurions:>3}  {s.held:>4}  {ORDINALS[s.temple - 1]}\n")
    t.append("\n")
    by = res.standings[0].decided_by
    if len(res.standings) > 1:
        second = state.players[res.standings[1].seat].name
        why = {
            "decurions": "on decurions",
            "held": "on decurions tied, by favours and citizens held",
            "temple": "tied on decurions and holdings, by the Temple order",
        }.get(by, "")
        t.append(f"{winner} is ahead of {second} {why}.\n")
    return t
