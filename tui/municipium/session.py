"""The one interface between the Municipium client and a game: ``MuniLocalSession``, the
shared :class:`~colosseum.tui.game_session.EngineSession` on Municipium's engine.

It runs the engine in-process and plays the bot seats; widgets only read ``session.state``
and send actions through ``session.submit``.  A ``recorder`` (``tui.storage.Recorder``) saves
each action in the game's log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from colosseum.core.games.municipium import Event, MuniAction, MuniSetup, State
from colosseum.core.games.municipium.rules import RULES as MUNICIPIUM
from colosseum.tui.game_session import EngineSession, Seat

MuniListener = Callable[[State, list[Event]], None]

__all__ = ["MuniListener", "MuniLocalSession", "Seat"]


class MuniLocalSession(EngineSession):
    """The engine in-process.  ``recorder`` (if given) is called with each applied action and
    its resulting state, before the listeners, so a game log can be appended and flushed."""

    setup: MuniSetup

    def __init__(
        self,
        setup: MuniSetup,
        seats: tuple[Any, ...],
        *,
        actions: list[MuniAction] | None = None,
        recorder: Callable[[MuniAction, State], None] | None = None,
    ) -> None:
        super().__init__(MUNICIPIUM, setup, seats, actions=actions, recorder=recorder)

    @property
    def state(self) -> State:
        state: State = self._state
        return state

    @property
    def actions(self) -> list[MuniAction]:
        return self._actions
