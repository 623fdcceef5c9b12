"""Municipium's guided first game (``colosseum tutorial --game municipium``): a seeded 3-player
game against two easy bots, and a short note for each kind of decision (its rule ids from
docs/rules.md).  The shell shows a kind's note the first time the player faces it
(``core.tutorial``)."""

from __future__ import annotations

from colosseum.core.tutorial import DecisionNote, Tutorial

from .engine import to_act
from .model import State

__all__ = ["TUTORIAL", "decision_kind"]


def decision_kind(state: State) -> str:
    """The kind of decision the seat to act faces: the frame on top of the engine's stack (a
    citizen to place, a power to use, ...), else the phase (placement, move, card)."""
    if to_act(state) < 0:
        return ""
    if state.stack:
        return str(type(state.stack[-1]).__struct_config__.tag)
    return "placement" if state.phase == "place" else state.phase


def _note(kind: str, title: str, what: str, rule: str, *ids: str) -> DecisionNote:
    return DecisionNote(kind=kind, title=title, what=what, rule=rule, rule_ids=ids)


_NOTES = (
    _note(
        "placement",
        "Place your family",
        "Place one member, 7 in all. Temple members set the Temple order, which breaks ties.",
        "most influence: more than each other player there.",
        "M-3.2",
        "M-0.3",
    ),
    _note(
        "move",
        "Move (optional)",
        "Move one or two members a step along the roads, one member two steps, or none.",
        "only your own; moving sets off nothing.",
        "M-5.1",
    ),
    _note(
        "card",
        "Play a card",
        "Turn over the top common card, or play one of your own family cards (each only once).",
        "the choice is made before the common card is seen.",
        "M-5.2",
    ),
    _note(
        "place",
        "Place a citizen",
        "Put the citizen on a banner of its kind; a third citizen there sets off an event.",
        "the first there takes 2, the second the last one.",
        "M-7.2",
    ),
    _note(
        "citizen_event",
        "Citizen event",
        "You lead here: choose which 2 of the 3 citizens you take.",
        "a set of the 4 kinds (favours wild) makes a decurion.",
        "M-7.2",
        "M-9",
    ),
    _note(
        "great_family",
        "Great Family",
        "Move the governor on (an event), or rearrange your own members.",
        "his event pays the first and second there.",
        "M-6.4",
        "M-7.1",
    ),
    _note(
        "offer",
        "Use a power",
        "You lead an institution: use its power, or pass.",
        "only the leader there may; any use may be declined.",
        "M-6.5",
        "M-6.8",
    ),
    _note(
        "tavern",
        "The Tavern",
        "Pull members of one colour from one institution into the Tavern.",
        "any colour, yours or an opponent's.",
        "M-8.1",
    ),
    _note(
        "emporium",
        "The Emporium",
        "Draw citizens one at a time and place each, or stop.",
        "you must stop after a citizen event.",
        "M-8.3",
    ),
    _note(
        "basilica",
        "The Basilica",
        "Hand in 3 citizens or favours for a decurion, or draw a citizen and keep it.",
        "exactly 3 items give exactly 1 decurion.",
        "M-8.4",
    ),
    _note(
        "forum",
        "The Forum",
        "Take one citizen from another player or from a banner.",
        "never a favour, never a chamber's citizen.",
        "M-8.5",
    ),
    _note(
        "rearrange",
        "Rearrange",
        "Put your members anywhere on the board, ignoring roads, then pass.",
        "wreaths stay on their members.",
        "M-6.4",
        "M-8.6",
    ),
    _note(
        "chamber",
        "A chamber citizen",
        "Put the citizen you hold on a chamber of its kind.",
        "the single-chamber option.",
        "M-13.2",
    ),
)

#: the seeded game: 3 players, the standard rules, two easy bots
TUTORIAL = Tutorial(
    players=3,
    seed=2038,
    notes={n.kind: n for n in _NOTES},
    kind_of=decision_kind,
    level="easy",
)
