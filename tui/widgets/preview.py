"""``Preview``: what a dialog's highlighted choice would do, shown on the game's panels.

A dialog (or the plain chooser) posts it to the app while a choice is highlighted; the app hands
its ``value`` to the game screen, whose game body shows it (Colosseum: track spaces on the board,
a ``frozenset`` of spaces).  An empty value clears what was shown."""

from __future__ import annotations

from textual.message import Message


class Preview(Message):
    def __init__(self, value: object) -> None:
        super().__init__()
        self.value = value
