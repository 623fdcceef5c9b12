"""Municipium's legend (``k``, and in the help): every code and symbol its panels show."""

from __future__ import annotations

from typing import Any

from .text import CARD_SHORT

Rows = list[tuple[str, str]]

_CARDS = {
    "governors_visit": "Governor's Visit",
    "citizens_visit": "Citizens' Visit",
    "one_power": "One Power",
    "all_powers": "All Powers",
    "citizens_invitation": "Citizens' Invitation",
    "great_family": "Great Family",
    "your_powers": "Your Powers",
}


def legend(setup: Any) -> list[tuple[str, Rows]]:
    board: Rows = [
        ("No", "the institution: 0 Temple, I Tavern, II Baths, III Emporium, IV Basilica, V Forum, VI Praetorium"),
        ("Members", "the families there, most influence first: letter and members (a2)"),
        ("*", "a crowned member (counts 2); *3: three crowns"),
        ("Ban", "the banner's citizens; 3 set off a citizen event; . a free place"),
        ("P S M A", "citizens: priest, soldier, merchant, advocate"),
        ("Chm", "the chamber: governor, favour, citizen (GfS: all three; fP: no governor)"),
        ("G", "the governor stands at this chamber"),
        ("f", "a favour on the chamber's favour space"),
        ("-", "no chamber (the Temple)"),
        ("Roads", "the institutions one step away"),
        ("Temple order", "the discs, rank 1 first: ties go to the higher disc"),
        ("deck bag", "common cards left; citizens in the bag"),
        ("fav wr", "favours and wreaths left in the supply"),
    ]
    families: Rows = [
        (">", "the family to act"),
        ("a b c d", "a family's letter (in its colour)"),
        ("D", "decurions"),
        ("F", "favours (wild)"),
        ("P S M A", "citizens held of each kind"),
    ]
    families += [(short, f"card: {_CARDS.get(key, key)}") for key, short in CARD_SHORT.items() if key in _CARDS]
    families.append(("~", "a name cut to fit"))
    return [("Board", board), ("Families", families)]
