"""Colosseum's guided first game (``colosseum tutorial``): a seeded Grand Spectacle against
three easy bots, and a short note for each kind of decision (its rule ids from docs/rules.md).
The shell shows a kind's note the first time the player faces it (``core.tutorial``)."""

from __future__ import annotations

from colosseum.core.tutorial import DecisionNote, Tutorial

from .engine import to_act
from .model import State

__all__ = ["TUTORIAL", "decision_kind"]


def decision_kind(state: State) -> str:
    """The kind of decision the seat to act faces: one note each ("" when the game is over)."""
    seat = to_act(state)
    if seat < 0:
        return ""
    phase = state.phase
    if phase == "setup":
        return "start_gates"
    if phase == "invest":
        return "invest"
    if phase == "hire" and state.hire is not None:
        return "bid" if state.hire.auction is not None else "auction"
    if phase == "trade" and state.trade is not None:
        deal = state.trade.deal
        if deal is None:
            return "trade"
        return "answer" if deal.answers[seat] == "pending" else "close_deal"
    if phase == "perform" and state.perform is not None:
        stage = state.perform.stage
        return {"roll": "roll", "mode": "move", "move": "move"}.get(stage, "perform")
    if phase == "closing" and state.closing is not None:
        return state.closing.stage  # retire, steal, first
    return ""


def _note(kind: str, title: str, what: str, rule: str, *ids: str) -> DecisionNote:
    return DecisionNote(kind=kind, title=title, what=what, rule=rule, rule_ids=ids)


_NOTES = (
    _note(
        "start_gates",
        "Starting gates",
        "Choose where two of your four gates stand: nobles at your gates add Acclaim.",
        "in reverse turn order, a free pair each.",
        "G-1.6",
    ),
    _note(
        "invest",
        "Investments",
        "Buy a gate (10), a promoter (7), a spectacle or the Temple (7); or end the turn.",
        "2 a turn at most, of different kinds.",
        "G-2",
    ),
    _note(
        "auction",
        "Your auction",
        "Auction a full market's 3 tiles, or pass. Spectacles need performers.",
        "open at 8 or more; if another wins, open another.",
        "G-3.1",
        "G-3.7",
    ),
    _note(
        "bid",
        "Bidding",
        "Bid higher for the lot, or pass for good.",
        "the winner pays the bank; bid up to coins + 6 per Aquila.",
        "G-3.3",
        "G-3.4",
    ),
    _note(
        "trade",
        "Your trade turn",
        "Offer deals of tiles, coins and Aquilas, or end your turn.",
        "every party must agree; you take part in each deal.",
        "G-4",
        "D-5",
    ),
    _note(
        "answer",
        "A deal for you",
        "A deal you are part of waits for your answer: accept or reject it.",
        "nobody is forced; one rejection ends the deal.",
        "G-4",
        "D-5",
    ),
    _note(
        "close_deal",
        "Close the deal",
        "Every party accepted: close the deal to carry it out, or withdraw it.",
        "the active player decides which deals are closed.",
        "G-4",
        "D-5",
    ),
    _note(
        "roll",
        "Perform: roll",
        "Roll two dice to move nobles, then perform; or skip the round.",
        "you may skip only before rolling.",
        "G-5",
        "D-7",
    ),
    _note(
        "move",
        "Move nobles",
        "Two nobles a die each, or one by the sum. At your gates: emperor +7, consul +5, senator +3.",
        "clockwise; an Aquila space pays one.",
        "G-5.1",
    ),
    _note(
        "perform",
        "Choose a spectacle",
        "Perform a spectacle (or none): its strip value plus bonuses, as Acclaim and coins.",
        "your marker only moves up; an Aquila adds 3.",
        "G-5.2",
        "G-5.3",
    ),
    _note(
        "retire",
        "Retire a performer",
        "Send back one tile your performance used; the spectacle turns face up.",
        "a face-up spectacle adds +5 to each later performance.",
        "G-6.1",
        "G-5.3",
    ),
    _note(
        "steal",
        "Steal a tile",
        "As the least acclaimed you may take one tile from the most acclaimed player.",
        "you may also decline.",
        "G-6.2",
        "D-8",
    ),
    _note(
        "first",
        "Next first player",
        "As the least acclaimed you name who starts the next round.",
        "you may name yourself.",
        "G-6.3",
    ),
)

#: the seeded game: 4 players, the Grand Spectacle, three easy bots
TUTORIAL = Tutorial(
    players=4,
    seed=2025,
    notes={n.kind: n for n in _NOTES},
    kind_of=decision_kind,
    options={"variant": "grand"},
    level="easy",
)
