"""Municipium's words for the shell's help: what the panels show.  (The rules in short are
data: core/games/municipium/data/rules_short.toml.)"""

from __future__ import annotations

PANELS = (
    ("Header", "the turn, the card in play, who must act and what they decide"),
    (
        "Board",
        "the seven institutions 0-VI.  Members: the players there, first (most influence) first: "
        "letter, members, one '*' per crowned member (a crown counts 2).  Ban: the citizens on the "
        "banner (P priest, S soldier, M merchant, A advocate; 3 set off a citizen event).  Chm: "
        "the chamber: G the governor, f the favour, then its citizen.  Roads: neighbours.  Below: "
        "the Temple order (ties go to the higher disc), the deck, the bag, the favour supply and "
        "the wreaths left",
    ),
    (
        "Families",
        "'>' who must act; D decurions, F favours, then citizens held by kind; family cards left and "
        "Temple rank.  1-4 (or i) show one family's sheet: its members at each institution, its cards; "
        "f every family again",
    ),
    ("Log", "every event, newest at the bottom; focus it with l, scroll with the arrows, End"),
    (
        "Dialogs",
        "arrows or Tab move, Enter chooses, Esc goes back a step or closes (the game waits; a or "
        "Enter opens the dialog again).  The lines under the list show what the choice would do",
    ),
)
