"""Helpers for tests and the load benchmark: protocol-level players, screen text, free ports.

The players see only what the server sends (their seat's view: no seed, no generator state,
nothing hidden); their bots need no more.  A player plays any game: its table's, read from the
first ``Joined`` or ``TableChanged`` it takes in (or given)."""

from __future__ import annotations

import asyncio
import base64
import binascii
import codecs
import contextlib
import re
import socket
import threading
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import protocol as P
from .proto_client import ProtoClient

if TYPE_CHECKING:
    from .hub import TableServer

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


_CSI = re.compile(rb"\x1b\[([0-9;?<>=!]*)([ -/]*)([@-~])")
_OSC = re.compile(rb"\x1b\]([^\x07\x1b]*)(?:\x07|\x1b\\)")


def _cells(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _unfinished(rest: bytes) -> bool:
    """Whether ``rest`` (from an ESC to the end of the data so far) may be a sequence cut short."""
    kind = rest[1:2]
    if kind == b"[":
        return re.search(rb"[@-~]", rest[2:]) is None
    if kind == b"]":
        return b"\x07" not in rest and b"\x1b\\" not in rest[1:]
    return kind == b""


class Terminal:
    """A small terminal screen for reading what an SSH session shows, as a person sees it:
    enough of a VT100 for what Textual writes (cursor positions, erases, text; colours and
    modes are ignored).  ``clipboard`` keeps what the program last copied (OSC 52)."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.cols, self.rows = cols, rows
        self.grid = [[" "] * cols for _ in range(rows)]
        self.x = self.y = 0
        self.clipboard = ""
        self._pending = b""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def lines(self) -> list[str]:
        return ["".join(row).rstrip() for row in self.grid]

    def text(self) -> str:
        return "\n".join(self.lines())

    def feed(self, data: bytes) -> None:
        data = self._pending + data
        self._pending = b""
        i = 0
        while i < len(data):
            esc = data.find(b"\x1b", i)
            if esc < 0:
                self._write(self._decoder.decode(data[i:]))
                return
            self._write(self._decoder.decode(data[i:esc]))
            m = _CSI.match(data, esc) or _OSC.match(data, esc)
            if m is None:
                rest = data[esc:]
                # an escape sequence cut at the end of this chunk: wait for the rest
                if len(rest) < (1 << 16) and _unfinished(rest):
                    self._pending = rest
                    return
                i = esc + 2  # ESC and one character (charset, keypad modes...): nothing to draw
                continue
            if m.re is _CSI:
                self._csi(m.group(1).decode(), m.group(3).decode())
            else:
                self._osc(m.group(1).decode("utf-8", "replace"))
            i = m.end()

    def _csi(self, params: str, final: str) -> None:
        if params.startswith(("?", ">", "<", "=", "!")):
            return
        nums = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []
        first = nums[0] if nums else 0
        if final in "Hf":
            row = nums[0] if nums and nums[0] else 1
            col = nums[1] if len(nums) > 1 and nums[1] else 1
            self.y, self.x = min(row, self.rows) - 1, min(col, self.cols) - 1
        elif final == "A":
            self.y = max(0, self.y - max(first, 1))
        elif final == "B":
            self.y = min(self.rows - 1, self.y + max(first, 1))
        elif final == "C":
            self.x = min(self.cols - 1, self.x + max(first, 1))
        elif final == "D":
            self.x = max(0, self.x - max(first, 1))
        elif final == "G":
            self.x = min(max(first, 1), self.cols) - 1
        elif final == "J":
            rows = {0: range(self.y + 1, self.rows), 1: range(self.y)}.get(first, range(self.rows))
            for r in rows:
                self.grid[r] = [" "] * self.cols
            if first in (0, 1):
                self._erase_line(first)
        elif final == "K":
            self._erase_line(first)

    def _erase_line(self, how: int) -> None:
        row = self.grid[self.y]
        span = {0: range(self.x, self.cols), 1: range(self.x + 1)}.get(how, range(self.cols))
        for c in span:
            row[c] = " "

    def _osc(self, body: str) -> None:
        if body.startswith("52;"):
            try:
                self.clipboard = base64.b64decode(body.split(";", 2)[2]).decode("utf-8", "replace")
            except (IndexError, ValueError, binascii.Error):
                pass

    def _write(self, text: str) -> None:
        for ch in text:
            if ch == "\r":
                self.x = 0
            elif ch == "\n":
                self.y = min(self.rows - 1, self.y + 1)
            elif ch == "\b":
                self.x = max(0, self.x - 1)
            elif ch < " " or ch == "\x7f":
                continue
            else:
                width = _cells(ch)
                if width == 0:
                    continue
                if self.x + width > self.cols:
                    continue  # (Textual never writes past a line's end)
                row = self.grid[self.y]
                if row[self.x] == "" and self.x:
                    row[self.x - 1] = " "  # half of a wide character drawn over
                end = self.x + width
                if end < self.cols and row[end] == "":
                    row[end] = " "
                row[self.x] = ch
                if width == 2:
                    row[self.x + 1] = ""
                self.x = end


class SSHScreen:
    """An SSH session with a PTY (asyncssh), its screen kept by a :class:`Terminal`, for the
    end-to-end tests and benchmarks: ``await SSHScreen.open(port, key, user)``."""

    KEYS = {"Enter": "\r", "Escape": "\x1b"}

    def __init__(self, conn: Any, proc: Any, cols: int = 80, rows: int = 24) -> None:
        self.conn = conn
        self.proc = proc
        self.term = Terminal(cols, rows)
        self.ended = False
        self.task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, key: Any, user: str, cols: int = 80, rows: int = 24) -> SSHScreen:
        import asyncssh

        conn = await asyncssh.connect(
            "127.0.0.1", port, username=user, client_keys=[key], known_hosts=None, agent_path=None
        )
        proc = await conn.create_process(term_type="xterm-256color", term_size=(cols, rows), encoding=None)
        return cls(conn, proc, cols, rows)

    async def _read(self) -> None:
        import asyncssh

        try:
            while data := await self.proc.stdout.read(65536):
                self.term.feed(data)
        except (OSError, asyncssh.Error):
            pass
        self.ended = True

    async def lines(self) -> list[str]:
        return self.term.lines()

    async def text(self) -> str:
        return self.term.text()

    async def press(self, key: str) -> None:
        """A key (``Enter``, ``Escape``) or text, as typed."""
        self.proc.stdin.write(self.KEYS.get(key, key).encode())

    async def wait_for(self, text: str, timeout: float = 30.0, *, gone: bool = False) -> str:
        """The screen once ``text`` is on it (``gone``: once it is not); AssertionError, with
        the screen, after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (text in (shown := self.term.text())) == gone:
            if loop.time() > end or (self.ended and not gone):
                raise AssertionError(f"{text!r} {'still' if gone else 'not'} on the SSH screen:\n{shown}")
            await asyncio.sleep(0.05)
        return shown

    async def close(self) -> None:
        self.conn.close()
        with contextlib.suppress(Exception):
            await self.conn.wait_closed()
        self.task.cancel()


@contextlib.contextmanager
def running_server(data: Path, **kw: Any) -> Iterator[TableServer]:
    """A table server on its own event loop in a thread (``kw``: TableServer's options), for
    tests that drive it from another loop or from a client app."""
    from .hub import TableServer

    loop = asyncio.new_event_loop()
    srv = TableServer(data, **kw)
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(srv.start())
        ready.set()
        loop.run_forever()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert ready.wait(10)
    try:
        yield srv
    finally:
        asyncio.run_coroutine_threadsafe(srv.close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        t.join(10)
