"""Helpers for tests and the load benchmark: protocol-level players, screen text, free ports.

The players see only what the server sends (their seat's view: no seed, no generator state,
nothing hidden); their bots need no more.  A player plays any game: its table's, read from the
first ``Joined`` or ``TableChanged`` it takes in (or given)."""

from __future__ import annotations

import asyncio
import re
import socket
from typing import Any

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
    """A protocol-level player at one table that follows the pushed state and plays its seat
    with a bot of the game (``bot``: a level or name ``Rules.make_bot`` takes)."""

    def __init__(
        self, client: ProtoClient, table: str, seat: int, bot: str = "random", seed: int = 0, game: str | None = None
    ) -> None:
        self.c = client
        self.table = table
        self.seat = seat
        self.bot_name = bot
        self.seed = seed
        self.codec: P.Codec | None = P.Codec.of(game) if game is not None else None
        self._bot: Any = None
        self.state: Any = None
        self.n = 0
        self.ref = 0

    @property
    def rules(self) -> Any:
        assert self.codec is not None, "no game known yet: take in the table's Joined first"
        return self.codec.rules

    @property
    def bot(self) -> Any:
        if self._bot is None:
            self._bot = self.rules.make_bot(self.bot_name, self.seed)
        return self._bot

    def _learn(self, info: P.TableInfo) -> P.Codec:
        if self.codec is None:
            self.codec = P.Codec.of(info.game)
        return self.codec

    def take(self, m: P._Msg) -> None:
        if isinstance(m, P.Joined | P.TableChanged) and m.table.id == self.table:
            codec = self._learn(m.table)
            n = len(m.actions) if isinstance(m, P.Joined) else m.n
            if m.state is not None and (self.state is None or n >= self.n):
                self.state, self.n = codec.state(m.state), n
        elif isinstance(m, P.Update) and m.table == self.table and m.n > self.n and self.codec is not None:
            self.state, self.n = self.codec.state(m.state), m.n
        elif isinstance(m, P.Undone) and m.table == self.table and self.codec is not None:
            self.state, self.n = self.codec.state(m.state), m.n  # a seat took decisions back

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
        return self.state is not None and self.rules.to_act(self.state) == self.seat

    def over(self) -> bool:
        return self.state is not None and self.rules.to_act(self.state) < 0

    def send_act(self, action: Any) -> int:
        """Send ``action`` (the game's own) for this seat; returns its ``ref``."""
        self.ref += 1
        self.c.send(P.Act(table=self.table, action=self.rules.encode(action), ref=self.ref, at=self.n))
        return self.ref

    async def act(self, action: Any, timeout: float = 10.0) -> P._Msg:
        """Send ``action``; returns the Ack or Error (updates are taken in)."""
        ref = self.send_act(action)
        while True:
            m = await self.c.recv(timeout=timeout)
            self.take(m)
            if isinstance(m, (P.Ack, P.Error)) and m.ref == ref:
                return m

    async def act_once(self, timeout: float = 10.0) -> P._Msg:
        """Send this player's bot move; returns the Ack or Error (updates are taken in)."""
        assert self.state is not None, "no game state yet"
        m = await self.act(self.bot.act(self.state), timeout)
        if isinstance(m, P.Error) and m.code == "rule":
            # bots may try illegal things: fall back to a legal action
            m = await self.act(self.rules.fallback_action(self.state), timeout)
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
            if p.over():
                continue
            if p.my_turn():
                await p.act_once()
                progressed = True
        if all(p.over() for p in players):
            return
        if not progressed:
            # wait for someone's update (bots or other players)
            waiting = [asyncio.ensure_future(p.pump(timeout=0.5)) for p in players]
            await asyncio.gather(*waiting)


def ranks(player: Player) -> tuple[int, ...]:
    """Each seat's place in the finished game the player saw."""
    found = player.rules.ranks(player.state)
    assert found is not None, "the game is not over"
    return tuple(found)
