"""Municipium's words for the shell's help (what the panels show) and rules screens: the rules in
short, in this project's own words (the full reading is docs/rules.md, "Municipium (M)")."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

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


RULES = (
    (
        "The aim",
        "2 to 4 families spread members over seven institutions.  Collect citizens of the four "
        "kinds (priest, soldier, merchant, advocate) and the governor's favours (wild); a full "
        "set of four is turned in at once for a decurion.  The game ends at the end of the turn in "
        "which someone has 5 decurions (4 in the short game); most decurions wins, then most "
        "favours and citizens held, then the higher Temple rank.",
    ),
    (
        "Setup and placement",
        "Each banner starts with one citizen; with 3-4 players each chamber gets a citizen from "
        "the bag.  In turn from the start player, everyone places one member at a time until all "
        "7 are placed; most Temple members takes Temple space I.",
    ),
    (
        "Influence",
        "Members at an institution, a crowned member counting 2.  The first is the player with "
        "most influence; ties go to the higher Temple rank, so there is always one first and one "
        "second.",
    ),
    (
        "A turn",
        "First an optional move: one or two members one step along roads, or one member two "
        "steps.  Then a card: the top common card (Governor's Visit, Citizens' Visit, One Power, "
        "All Powers) or one of your three family cards (Citizens' Invitation, Great Family, Your "
        "Powers), each usable once.",
    ),
    (
        "Governor event",
        "The governor moves clockwise to the next chamber: the first there takes its favour, the "
        "second its citizen (3-4 players); with one player there, the citizen goes to the bag.  "
        "Then the chamber is refilled.",
    ),
    (
        "Citizen event",
        "A citizen is placed on the banner of an institution that takes its kind (priests "
        "anywhere; soldiers Tavern or Praetorium; merchants Baths or Emporium; advocates Basilica "
        "or Forum).  When a banner holds 3, the first there keeps 2 of them, the second takes "
        "the last.",
    ),
    (
        "Powers",
        "Used only by the first at an institution, and always optional.  0 Temple: re-order the "
        "discs by Temple influence.  I Tavern: pull members of one colour from one institution to "
        "the Tavern.  II Baths: your Baths members go to the Temple and one member there is "
        "crowned.  III Emporium: draw and place citizens until you stop or an event.  IV "
        "Basilica: 3 citizens or favours for a decurion, or draw a citizen.  V Forum: take a "
        "citizen from a player or a banner.  VI Praetorium: rearrange your members.",
    ),
)


def rules_text() -> Text:
    out = Text()
    for title, body in RULES:
        out.append(title + "\n", Style(bold=True))
        out.append(body + "\n\n")
    out.append("Rule ids (M-1 ... M-13) in messages refer to the project's rules.", Style(dim=True))
    return out
