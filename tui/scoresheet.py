"""Where the points came from, for every game: a finished game's score sheet
(``Rules.score_sheet``) as lines of text for one player, on the end screen (a page per player)
and in ``colosseum export``.  The parts that add up to the final score come first, each with its
value, then the total, then the game's other figures and the score after each round (or turn).

No Textual, no rich at import time (``colosseum export`` uses it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from colosseum.core.game import ScoreSheet

__all__ = ["RULE", "all_lines", "seat_lines", "sheet_of"]

#: the line between the parts and their total
RULE = "  -----"


def sheet_of(rules: Any, timeline: Any) -> ScoreSheet | None:
    """The score sheet of the game ``timeline`` holds (a ``core.timeline.Timeline``), or None
    while it goes on or for a game without one."""
    end = timeline.end
    if not rules.is_over(timeline.state(end)):
        return None
    states = [timeline.state(i) for i in range(end + 1)]
    events = [timeline.events(i) for i in range(end + 1)]
    sheet: ScoreSheet | None = rules.score_sheet(states, list(timeline.actions), events)
    return sheet


def _cut(text: str, width: int | None) -> str:
    if width is None:
        return text
    from .text import fit

    return fit(text, width)


def _value(v: int) -> str:
    return f"{v:>6}"


def seat_lines(sheet: ScoreSheet, names: Sequence[str], seat: int, width: int | None = None) -> list[str]:
    """Where ``seat``'s points came from, each line within ``width`` cells (None: whole)."""
    name = names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"
    word = sheet.score_name
    total = sheet.totals[seat]
    out = [_cut(f"Where {name}'s {total} {word} came from:", width)]
    for line in sheet.lines:
        if line.adds:
            note = line.notes[seat] if seat < len(line.notes) and line.notes[seat] else ""
            out.append(_cut(f"{_value(line.values[seat])}  {line.label}" + (f" ({note})" if note else ""), width))
    out.append(RULE)
    out.append(_cut(f"{_value(total)}  {word} in all", width))
    others = [line for line in sheet.lines if not line.adds]
    if others:
        out += ["", "Other figures of the game:"]
        for line in others:
            out.append(_cut(f"{_value(line.values[seat])}  {line.label}", width))
    series = sheet.series[seat] if seat < len(sheet.series) else ()
    if series:
        out += ["", _cut(f"{word[:1].upper()}{word[1:]} after each {sheet.series_name} (the last: the end):", width)]
        for at in range(0, len(series), 10):
            chunk = series[at : at + 10]
            where = f"{at + 1}-{at + len(chunk)}" if len(chunk) > 1 else f"{at + 1}"
            out.append(_cut(f"  {where:>7}: " + " ".join(f"{v:>4}" for v in chunk), width))
    return out


def all_lines(sheet: ScoreSheet, names: Sequence[str]) -> list[str]:
    """Every seat's sheet, one after the other (the export's section)."""
    out: list[str] = []
    for seat in range(len(sheet.totals)):
        out += [""] + ["  " + line if line else "" for line in seat_lines(sheet, names, seat)]
    return out
