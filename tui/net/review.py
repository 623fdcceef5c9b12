"""A game's review over the wire: the positions of a live table's game (``v`` at the table) or
of a finished game (the lobby's finished games), as the asker's seat saw them.

The server sends the actions, their events and the positions a client cannot work out (where
chance or something hidden came in: ``Positions.keys``); every other position is the one
before with the action applied, seen from the same seat (D-33).  :func:`fetch_timeline` asks
page after page and makes the ``Timeline`` the viewer reads; :func:`finished_viewer` opens the
viewer on a finished game, with "play from here" (``f``) asking the server for a fork.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from colosseum.core.events import Event
from colosseum.core.gamelog import UNDO_VERSION, make_header
from colosseum.core.timeline import GameLog, Timeline
from colosseum.tui.viewer import ViewerScreen

from .host import protocol as P

__all__ = ["fetch_timeline", "finished_viewer"]


def fetch_timeline(ask: Callable[[int], P._Msg], codec: P.Codec) -> tuple[Timeline, P.Positions]:
    """The whole game ``ask(start)`` answers page by page (``Positions``; an ``Error``: a
    RuleError with its message), and the last page (whose view, who played each seat)."""
    rules = codec.rules
    actions: list[Any] = []
    events: list[list[Event]] = [[]]
    states: list[Any] = []
    start = 0
    while True:
        reply = ask(start)
        if isinstance(reply, P.Error):
            from .lobby_requests import refusal

            raise refusal(reply)
        assert isinstance(reply, P.Positions)
        setup = codec.setup(reply.setup)
        view = reply.seat if reply.seat >= 0 else None
        keys = {k.at: codec.state(k.state) for k in reply.keys}
        if not states:
            states.append(keys[0])
        for k, packed in enumerate(reply.actions):
            at = reply.start + k
            action = codec.action(packed)
            after = keys.get(at + 1)
            if after is None:
                after = rules.player_view(rules.apply(states[at], action)[0], view)
            actions.append(action)
            states.append(after)
            events.append(list(reply.events[k]))
        if reply.next <= 0:
            return Timeline(rules, setup, actions, _states=states, _events=events), reply
        start = reply.next


def finished_viewer(client: Any, game: str, kind: str, title: str) -> tuple[ViewerScreen, int]:
    """The viewer on finished game ``game`` (a table id, or the store's id of its game) of
    ``kind`` (a game's name), as this player saw it; NetError or RuleError when it cannot be
    had.  ``f`` in it posts ``PlayFrom`` (the lobby asks the server for a fork).  Also returns
    the seat this player played (-1: none)."""
    codec = P.Codec.of(kind)
    timeline, last = fetch_timeline(lambda start: _ask(client, game, start), codec)
    seats = last.seats or ["human"] * len(codec.rules.names(timeline.state(0)))
    header = make_header(timeline.setup, seats, version=UNDO_VERSION)
    log = GameLog(header, timeline, None, lines=0, terminated=True, path=None)
    screen = ViewerScreen(timeline.setup, timeline.actions, seats=seats, title=title, timeline=timeline, log=log)
    from colosseum.tui.screens.hint import AnalysisScreen
    from colosseum.tui.session import SERVER_HINT_THINK

    screen.analyser = AnalysisScreen
    screen.hint_max_think = SERVER_HINT_THINK
    return screen, last.seat


def _ask(client: Any, game: str, start: int) -> P._Msg:
    from .host.proto_client import NetError

    try:
        reply: P._Msg = client.request(P.ReviewGame(game=game, start=start), P.Positions)
    except NetError as exc:
        return P.Error(message=str(exc))
    return reply
