"""What every game's decision dialog is to the shell: a modal screen serving one decision of one
seat.

The game screen and the dialog director read only this: ``seat``, ``over`` (the dialog is done
and closing), ``decision_open()`` (the decision it serves still waits: False once it is made),
``handed_over`` and ``hand_over()`` (hot seat: closed for another seat at this keyboard whose
decision comes first; it comes back, made anew, when its seat must act again).  A dialog closed
while ``decision_open()`` and not handed over was closed by the player (Escape): the game screen
waits for ``a`` before opening it again."""

from __future__ import annotations

from textual.screen import ModalScreen

from colosseum.tui.base import StyledOnMount


class DecisionScreen(StyledOnMount, ModalScreen[None]):
    seat: int = -1
    handed_over: bool = False

    @property
    def over(self) -> bool:
        """The dialog is done (its decision made, or closed) and leaving the stack."""
        raise NotImplementedError

    def decision_open(self) -> bool:
        """The decision this dialog serves still waits."""
        raise NotImplementedError

    def hand_over(self) -> None:
        """Close for another seat at this keyboard whose decision comes first (hot seat); the
        decision itself goes on."""
        raise NotImplementedError
