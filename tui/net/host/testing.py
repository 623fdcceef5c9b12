"""Helpers for tests and the load benchmark: protocol-level players, screen text, free ports.

The players see only what the server sends (``player_view``: no seed, no generator state);
their bots need no more."""

from __future__ import annotations

import asyncio
import re
import socket

from colosseum.core.games.colosseum import State, to_act
from colosseum.core.games.colosseum.bots import make_bot
from colosseum.core.games.colosseum.offers import safe_action

from . import protocol as P
from .proto_client import ProtoClient

ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78M]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)")


def plain(data: bytes) -> str:
    """Terminal output without escape sequences (for looking for words on a screen)."""
    return ANSI.sub(b"", data).decode("utf-8", "replace")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Player:
    """A protocol-level player at one table that follows the pushed state."""

    def __init__(self, client: ProtoClient, table: str, seat: int, bot: str = "random", seed: int = 0) -> None:
        self.c = client
        self.table = table
        self.seat = seat
        self.bot = make_bot(bot, seed=seed)
        self.state: State | None = None
        self.n = 0
        self.ref = 0
        self.final = None

    def take(self, m: P._Msg) -> None:
        if isinstance(m, P.Update) and m.table == self.table and m.n > self.n:
            self.state, self.n = m.state, m.n
        elif isinstance(m, P.Undone) and m.table == self.table:
            self.state, self.n = m.state, m.n  # a seat took decisions back
        elif isinstance(m, (P.TableChanged, P.Joined)) and m.state is not None:
            if self.state is None or m.state.actions >= self.n:
                self.state, self.n = m.state, m.state.actions

    async def pump(self, timeout: float = 0.0) -> None:
        """Take in whatever has arrived (waiting at most ``timeout`` for a first message)."""
        while self.c.inbox:
            self.take(self.c.inbox.pop(0))
        if timeout:
            try:
                self.take(await self.c.recv(timeout=timeout))
            except TimeoutError:
                return
        while not self.c.queue.empty():
            m = self.c.queue.get_nowait()
            if m is None:
                self.c.queue.put_nowait(None)
                return
            self.take(m)

    def my_turn(self) -> bool:
        return self.state is not None and to_act(self.state) == self.seat

    async def act_once(self, timeout: float = 10.0) -> P._Msg:
        """Send this player's bot move; returns the Ack or Error (updates are taken in)."""
        assert self.state is not None, "no game state yet"
        action = self.bot.act(self.state)
        self.ref += 1
        self.c.send(P.Act(table=self.table, action=action, ref=self.ref, at=self.n))
        ref = self.ref
        while True:
            m = await self.c.recv(timeout=timeout)
            self.take(m)
            if isinstance(m, (P.Ack, P.Error)) and m.ref == ref:
                if isinstance(m, P.Error) and m.code == "rule":
                    # bots may try illegal things: fall back to a legal action
                    fallback = safe_action(self.state)
                    self.ref += 1
                    self.c.send(P.Act(table=self.table, action=fallback, ref=self.ref, at=self.n))
                    ref = self.ref
                    continue
                return m


async def play_to_end(players: list[Player], timeout: float = 60.0) -> None:
    """Drive protocol-level players (one per human seat) until the game is over."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        if loop.time() > end:
            raise TimeoutError("game did not finish")
        progressed = False
        for p in players:
            await p.pump()
            if p.state is not None and to_act(p.state) < 0:
                continue
            if p.my_turn():
                await p.act_once()
                progressed = True
        if all(p.state is not None and to_act(p.state) < 0 for p in players):
            return
        if not progressed:
            # wait for someone's update (bots or other players)
            waiting = [asyncio.ensure_future(p.pump(timeout=0.5)) for p in players]
            await asyncio.gather(*waiting)


def standings(state: State) -> list[tuple[int, int]]:
    assert state.result is not None, "the game is not over"
    return [(s.seat, s.rank) for s in state.result.standings]
