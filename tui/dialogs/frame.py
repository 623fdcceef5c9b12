"""What every game's decision dialog is to the shell: a modal screen serving one decision of one
seat.

The game screen and the dialog director read only this: ``seat``, ``over`` (the dialog is done
and closing), ``decision_open()`` (the decision it serves still waits: False once it is made),
``handed_over`` and ``hand_over()`` (hot seat: closed for another seat at this keyboard whose
decision comes first; it comes back, made anew, when its seat must act again).  A dialog closed
while ``decision_open()`` and not handed over was closed by the player (Escape): the game screen
waits for ``a`` before opening it again.

A choice list's highlight or choice that reaches a dialog after the game has moved past its
decision is dropped: the message was queued before the change, the dialog's handlers read the
game as it is now (where that decision's facts are gone: a frame of another kind on top, a
phase over), and the update the change queued closes the dialog or draws it anew."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.screen import ModalScreen

from colosseum.tui.base import StyledOnMount
from colosseum.tui.plain import OptionList

#: the heading of "Since your last turn", and its key hint where the box has the cells for it
SINCE_HEADING = "Since your last turn"
SINCE_HINTS = ("  (l: the log)", " (l: log)")


def since_text(session: Any, seat: int, limit: int, width: int = 0) -> Text:
    """``Since your last turn``: one line per turn the others played since ``seat`` last acted
    (what happened while its player looked away), the latest ``limit`` of them, the latest
    last; empty when nothing did.  Its heading says less where ``width`` cells are too few."""
    follow = getattr(session, "follow", None)
    lines = follow.since(seat, limit) if follow is not None else []
    t = Text()
    if not lines:
        return t
    hint = SINCE_HINTS[0]
    if width and cell_len(SINCE_HEADING + hint) > width:
        hint = SINCE_HINTS[1]
    t.append(SINCE_HEADING, Style(bold=True))
    t.append(hint)
    for line in lines:
        t.append("\n- " + line)  # a player's name inside: a Text, never markup
    return t


class DecisionScreen(StyledOnMount, ModalScreen[None]):
    seat: int = -1
    handed_over: bool = False
    session: Any
    #: "Since your last turn" lines on a short screen and on a tall one (``tall``)
    SINCE_LINES = (3, 6)

    @property
    def tall(self) -> bool:
        """A screen of 32 rows or more: the recap's lines wrap, and more of them show."""
        return self.app.size.height >= 32

    @property
    def since_width(self) -> int:
        """Cells a recap line has (0: as many as its heading needs)."""
        return 0

    def since_text(self) -> Text:
        """What the others did since this seat last acted, as many turns as the screen allows."""
        return since_text(self.session, self.seat, self.SINCE_LINES[self.tall], self.since_width)

    @property
    def over(self) -> bool:
        """The dialog is done (its decision made, or closed) and leaving the stack."""
        raise NotImplementedError

    def decision_open(self) -> bool:
        """The decision this dialog serves still waits."""
        raise NotImplementedError

    async def _on_message(self, message: Message) -> None:
        # (Textual's dispatch of a message, pinned at 8.2.8: the one place every handler of
        # every game's dialogs is reached through, when the message is handled, not when sent)
        if isinstance(message, OptionList.OptionHighlighted | OptionList.OptionSelected) and (
            self.over or not self.decision_open()
        ):
            return
        await super()._on_message(message)

    def hand_over(self) -> None:
        """Close for another seat at this keyboard whose decision comes first (hot seat); the
        decision itself goes on."""
        raise NotImplementedError

    def finish(self) -> None:
        """Close the dialog (the decision, if still open, waits for the game screen's ``a``)."""
        raise NotImplementedError

    def action_full_log(self) -> None:
        """``l``: close the dialog and put the keys on the game's log (``a`` opens it again)."""
        log = None
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, DecisionScreen):
                continue
            log = next(iter(screen.query("#log")), None)
            break
        self.finish()
        if log is not None:
            self.app.call_after_refresh(log.focus)
