"""Styles every game's panels share: a seat's colour in the theme, and one mark a player (a
letter, or in the colour-blind theme a symbol).

Colour is a second channel: a seat is also its mark, so everything reads without colour."""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style

from colosseum.themes import DEFAULT_THEME, seat_colour
from colosseum.tui.marks import player_letters, player_marks

__all__ = ["player_letters", "player_marks", "seat_style"]


@lru_cache(maxsize=256)
def seat_style(theme: str, seat: int, bold: bool = True) -> Style:
    """Seat ``seat``'s colour in ``theme`` (the default theme's for a theme not of this program)."""
    if seat < 0:
        return Style()
    return Style(color=seat_colour(theme if theme.startswith("colosseum") else DEFAULT_THEME, seat), bold=bold)
