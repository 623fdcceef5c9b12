"""``MuniGameScreen``: the shell's one game screen, under the name ``tui/net/muni_remote.py``
imports, over a table's session that is not yet a ``GameSession`` (``TableLink``).  Goes with
``muni_remote.py`` (the host's one ``RemoteSession`` is a ``GameSession``)."""

from __future__ import annotations

from typing import Any

from colosseum.core.events import Event
from colosseum.tui.screens.game import GameScreen
from colosseum.tui.session import GameSession, Listener


class _Linked(GameSession[Any, Any]):
    """A table's session seen as a ``GameSession``: what it has is forwarded to it, the rest
    is the interface's neutral answer (no take-backs, no hints, no bots to pace here)."""

    def __init__(self, link: Any) -> None:
        self._link = link
        self.setup = link.setup

    def __getattr__(self, name: str) -> Any:
        return getattr(self._link, name)

    @property
    def state(self) -> Any:
        return self._link.state

    @property
    def events(self) -> list[Event]:
        events: list[Event] = self._link.events
        return events

    @property
    def actions(self) -> list[Any]:
        actions: list[Any] = self._link.actions
        return actions

    def submit(self, action: Any) -> list[Event]:
        events: list[Event] = self._link.submit(action)
        return events

    def add_listener(self, fn: Listener) -> None:
        self._link.add_listener(fn)

    def remove_listener(self, fn: Listener) -> None:
        self._link.remove_listener(fn)

    def local_seats(self) -> tuple[int, ...]:
        seats: tuple[int, ...] = self._link.local_seats()
        return seats

    def bot_to_act(self) -> bool:
        return False  # the server plays every bot


class MuniGameScreen(GameScreen):
    def __init__(self, session: Any, **kw: Any) -> None:
        super().__init__(session if isinstance(session, GameSession) else _Linked(session), **kw)
