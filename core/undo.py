"""Taking decisions back: how far a seat may go, and why not further.  Pure, no UI.

The policy players know from Board Game Arena: you may take back your own decisions until
something you could not have known happened.  Walking back from the last action, an action is a
boundary (it and everything before it stay) when

* chance decided in it: the generator state changed (a tile drawn from the bag, a die rolled, a
  deck shuffled), or hidden information came to light (a tile left face down was turned up);
* another human made it (at a table, or the other player of a hot-seat game).

Bot moves in between are taken back with the decision they followed: a bot replays the same
move from the same position.  Nothing here knows what a bot or a human is beyond the set of
human seats it is given, nor which game is played: the game's rules say what chance did
(``Rules.chance_between``) and what an action was (``Rules.describe``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from colosseum.core.events import Event

if TYPE_CHECKING:
    from colosseum.core.game import Rules


class UndoReach(msgspec.Struct, frozen=True, kw_only=True):
    """How far ``seat`` may take back.  ``targets[k]`` is the position (number of actions in
    effect) after taking back ``k + 1`` of its decisions, nearest first; ``reason`` says why it
    cannot go further back ("" when the limit is the start of the game)."""

    seat: int
    targets: tuple[int, ...] = ()
    reason: str = ""
    short: str = ""  # the reason in a word or two, for a key bar ("dice", "draw", "Kat acted")

    @property
    def steps(self) -> int:
        return len(self.targets)


def chance_in(rules: Rules[Any, Any, Any], before: Any, after: Any) -> str:
    """What chance decided or revealed between two consecutive states ("" if nothing)."""
    return rules.chance_between(before, after)[0]


def _name(rules: Rules[Any, Any, Any], state: Any, seat: int) -> str:
    return rules.names(state)[seat]


def undo_reach(
    rules: Rules[Any, Any, Any], states: Sequence[Any], actions: Sequence[Any], seat: int, humans: Collection[int]
) -> UndoReach:
    """How far ``seat`` may take back in the game whose positions are ``states`` (``states[i]``
    after the first ``i`` of ``actions``; ``len(states) == len(actions) + 1``).  ``humans`` are
    the seats played by people: their actions (other than ``seat``'s) are boundaries."""
    if len(states) != len(actions) + 1:
        raise ValueError(f"{len(states)} states for {len(actions)} actions")
    targets: list[int] = []
    reason = short = ""
    for i in range(len(actions), 0, -1):
        action = actions[i - 1]
        what, word = rules.chance_between(states[i - 1], states[i])
        who = action.player
        if what:
            reason, short = f"{what} (action {i})", word
            break
        if who != seat and who in humans:
            name = _name(rules, states[i], who)
            reason, short = f"{name} acted since", f"{name} acted"
            break
        if who == seat:
            targets.append(i - 1)
    if not targets and not reason:
        reason, short = "nothing to take back yet", "nothing yet"
    elif not targets:
        reason = f"nothing of yours to take back: {reason}"
    return UndoReach(seat=seat, targets=tuple(targets), reason=reason, short=short)


def last_human_seat(actions: Sequence[Any], humans: Collection[int]) -> int | None:
    """The human seat that acted last (the one in front of the keyboard in a hot-seat game)."""
    for action in reversed(actions):
        seat: int = action.player
        if seat in humans:
            return seat
    return None


def seat_undo_reach(
    rules: Rules[Any, Any, Any],
    states: Sequence[Any],
    actions: Sequence[Any],
    seat: int,
    by_person: Sequence[bool],
    *,
    start: int = 0,
    edge: str = "",
) -> UndoReach:
    """How far ``seat`` may take back at a table of people who each see only their own screen:
    there every action of another seat is a boundary, a bot's as well as a person's (the others
    have seen it happen), and so is a move a bot made for ``seat`` itself (a stand-in after the
    clock ran out must not be taken back by the player it stood in for).  Chance is a boundary
    as in :func:`undo_reach`.

    ``states[0]`` is the position after ``start`` actions (a table keeps only the recent ones:
    nothing can be taken back across chance anyway); ``states[i]`` follows ``actions[i - 1]``;
    ``by_person[i]`` says whether ``actions[i]`` was decided by the seat's person.  ``edge`` says
    why not further back than ``start`` when no boundary is met first ("" at the game's start)."""
    if len(states) != len(actions) + 1 or len(by_person) != len(actions):
        raise ValueError(f"{len(states)} states, {len(by_person)} flags for {len(actions)} actions")
    targets: list[int] = []
    reason = short = ""
    for i in range(len(actions), 0, -1):
        action = actions[i - 1]
        what, word = rules.chance_between(states[i - 1], states[i])
        who = action.player
        if what:
            reason, short = f"{what} (action {start + i})", word
            break
        if who != seat:
            name = _name(rules, states[i], who)
            reason, short = f"{name} acted since", f"{name} acted"
            break
        if not by_person[i - 1]:
            reason, short = "a bot played for you since", "bot played"
            break
        targets.append(start + i - 1)
    else:
        if start > 0:
            reason, short = edge or "that is as far back as this game keeps", "too far"
    if not targets and not reason:
        reason, short = "nothing to take back yet", "nothing yet"
    elif not targets:
        reason = f"nothing of yours to take back: {reason}"
    return UndoReach(seat=seat, targets=tuple(targets), reason=reason, short=short)


def _in_words(rules: Rules[Any, Any, Any], action: Any, events: Sequence[Event], name: str) -> str:
    """What one decision did, in the log's words without the player's name."""
    said = [e.text for e in events if e.kind != "undo" and e.text]
    what = said[0] if said else rules.describe(action)
    if what.startswith(name + " "):
        what = what[len(name) + 1 :]
    return what.rstrip(".")


def took_back_text(
    rules: Rules[Any, Any, Any], name: str, decisions: Sequence[tuple[Any, Sequence[Event]]], limit: int = 240
) -> str:
    """``"Becky took back: opened market B for 9"``: the withdrawn decisions (each with the
    events it caused), oldest first, in the words the log used for them."""
    words = "; ".join(_in_words(rules, a, ev, name) for a, ev in decisions)
    text = f"{name} took back: {words}"
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."
