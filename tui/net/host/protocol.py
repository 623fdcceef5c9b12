"""Messages between the table server (inside ``colosseum serve``) and client processes.

Every message is a msgspec Struct in one tagged union (tag field ``"t"``), encoded with
msgpack and framed by a 4-byte big-endian length.  ``PROTOCOL_VERSION`` is sent in ``Hello``
and ``Welcome``; a server refuses a client of another version.  A frame longer than
``MAX_MESSAGE`` is refused (the connection is closed: the stream cannot be trusted after it);
a frame that does not decode into a known message is refused with an ``Error`` and logged.

Clients never apply actions: they send ``Act`` and receive the server's resulting ``State`` in
``Update`` (plus the new actions and their events for the log panel).  Every state and setup a
client receives is the player's view (``colosseum.core.games.colosseum.view``): seed and generator state zero.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Union

import msgspec

from colosseum.core.games.colosseum import Action, Event, GameSetup, State

PROTOCOL_VERSION = 4  # 3: Undo, Composing, Undone, Reach; GameMsg (a second game); 4: hints
MAX_MESSAGE = 1 << 20  # 1 MiB: a full state is a few kB
PAGE_MAX = 100  # tables in one Tables message (a TableInfo is a few hundred bytes)
HEADER = struct.Struct(">I")


class _Msg(msgspec.Struct, tag_field="t", kw_only=True, forbid_unknown_fields=True):
    pass


# ------------------------------------------------------------------ client -> server


class Hello(_Msg, tag="hello"):
    """First message: the protocol version and the token the SSH server handed this client."""

    version: int
    token: str
    client: str = ""


class ListTables(_Msg, tag="list"):
    """A page of the live tables (waiting and playing), or with ``history`` a page of the
    finished games, newest first.  The server sends at most ``PAGE_MAX`` at once."""

    offset: int = 0
    limit: int = 100
    history: bool = False


class CreateTable(_Msg, tag="create"):
    """``seats``: per seat 'human' (open for a player) or a bot name.  The creator sits at
    ``sit`` (-1: only create).  ``seed`` None: random."""

    seats: list[str]
    variant: str = "grand"
    options: list[str] = []
    allow_takeover: bool = False
    hints: bool = False  # players may ask the hard bot what it would do (shown to the asker only)
    sit: int = 0
    seed: int | None = None
    name: str = ""
    game: str = "colosseum"  # a name of core.games.GAMES


class Join(_Msg, tag="join"):
    """Sit at ``seat`` of ``table``: a free human seat, one's own seat again (reconnect), or a
    bot's seat between its turns when the creator allowed take-overs."""

    table: str
    seat: int


class Watch(_Msg, tag="watch"):
    table: str


class Leave(_Msg, tag="leave"):
    """Stop receiving a table's updates (the seat stays held)."""

    table: str


class Start(_Msg, tag="start"):
    """The creator starts a waiting table at once; unheld human seats get bots."""

    table: str


class Act(_Msg, tag="act"):
    """An action for ``table``; ``ref`` is echoed in the ``Ack`` or ``Error``.  ``at`` is the
    number of actions the client has seen (the server refuses a stale action)."""

    table: str
    action: Action
    ref: int = 0
    at: int = -1


class Say(_Msg, tag="say"):
    table: str
    text: str


class Autopilot(_Msg, tag="autopilot"):
    """The seated player lets a bot play their seat (``on``) or takes it back."""

    table: str
    on: bool = True


class Ping(_Msg, tag="ping"):
    ref: int = 0


class Undo(_Msg, tag="undo"):
    """The seated player takes back ``count`` of their own last decisions (``seat`` is theirs).
    Refused once anyone else has acted since, or across chance (``core.undo.seat_undo_reach``);
    ``at`` as in ``Act``.  Answered with ``Ack`` (``n``: actions in effect after) or ``Error``;
    every connection at the table receives ``Undone``."""

    table: str
    seat: int
    count: int = 1
    ref: int = 0
    at: int = -1


class Composing(_Msg, tag="composing"):
    """The seated player opened (``on``) or closed the deal dialog: a bot's trade turn waits for
    the offer (for a while: a silent client cannot hold a table)."""

    table: str
    on: bool = True


# ------------------------------------------------------------------ server -> client


class Welcome(_Msg, tag="welcome"):
    version: int
    player: str  # the player's identity (key fingerprint or password user)
    name: str  # display name (the SSH user name)
    seats: list[tuple[str, int]] = []  # (table, seat) this player holds


class SeatInfo(msgspec.Struct, kw_only=True):
    kind: str  # 'human' or a bot name
    name: str = ""  # holder's display name ('' free)
    holder: bool = False  # a human holds it
    present: bool = False  # the holder is connected
    standin: bool = False  # a bot plays for the absent holder


class TableInfo(msgspec.Struct, kw_only=True):
    id: str
    name: str
    variant: str
    options: list[str]
    status: str  # 'waiting', 'playing', 'over'
    seats: list[SeatInfo]
    round: int = 0
    phase: str = ""
    allow_takeover: bool = False
    hints: bool = False  # the table allows hints
    creator: str = ""  # display name
    spectators: int = 0
    actions: int = 0
    deadline: float = 0.0  # wall-clock time the seat to act runs out of time (0: no clock)
    clock_seat: int = -1  # the seat the clock runs for
    game: str = "colosseum"  # a name of core.games.GAMES


class HistoryInfo(msgspec.Struct, kw_only=True):
    """A finished game: its log stays in the server's data folder."""

    id: str
    name: str
    variant: str
    players: list[str]
    winner: str = ""
    ended: float = 0.0
    actions: int = 0


class Tables(_Msg, tag="tables"):
    """One page: ``tables`` (live) or ``history`` (finished), from ``offset`` of ``total``."""

    tables: list[TableInfo]
    held: list[tuple[str, int]] = []  # (table, seat) the asking player holds
    total: int = 0
    offset: int = 0
    history: list[HistoryInfo] = []


class Joined(_Msg, tag="joined"):
    """You sit at (``seat`` >= 0) or watch (``seat`` -1) ``table``.  ``state`` is None while the
    table waits for players."""

    table: TableInfo
    seat: int
    setup: GameSetup | None = None
    state: State | None = None
    actions: list[Action] = []
    events: list[Event] = []
    chat: list[ChatLine] = []


class Update(_Msg, tag="update"):
    """The server applied ``actions`` (in order); ``state`` is the result; ``n`` the number of
    actions applied so far at this table."""

    table: str
    n: int
    actions: list[Action]
    events: list[Event]
    state: State
    deadline: float = 0.0  # as ``TableInfo.deadline``, for the seat to act now
    clock_seat: int = -1


class TableChanged(_Msg, tag="table"):
    """Seats, presence or status of a table changed (also sent when a game starts)."""

    table: TableInfo
    setup: GameSetup | None = None
    state: State | None = None


class SeatReach(msgspec.Struct, kw_only=True):
    """How far a seat may take back now: ``targets[k]`` is the number of actions in effect
    after taking back ``k + 1`` decisions; ``reason`` why not further (``short``: for a key bar)."""

    targets: list[int] = []
    reason: str = ""
    short: str = ""


class Undone(_Msg, tag="undone"):
    """Seat ``seat`` took decisions back: the game is at ``n`` actions again with ``state``.
    ``dropped``: the game events (of the withdrawn actions) a client removes from its log;
    ``event`` the line every log shows instead ("Becky took back: ...")."""

    table: str
    n: int
    state: State
    seat: int
    event: Event
    dropped: int = 0
    deadline: float = 0.0
    clock_seat: int = -1


class Reach(_Msg, tag="reach"):
    """Sent after each change of a running game (and after ``Joined``): per seat, how far it may
    take back (an empty entry for a seat no person holds)."""

    table: str
    n: int
    seats: list[SeatReach]


class Ack(_Msg, tag="ack"):
    ref: int
    n: int


class Error(_Msg, tag="error"):
    message: str
    code: str = "refused"  # refused, rule, malformed, version, auth, unknown_table, ...
    rule: str = ""
    ref: int = -1


class ChatLine(_Msg, tag="chat"):
    table: str
    name: str
    text: str
    seat: int = -1
    time: float = 0.0


class Pong(_Msg, tag="pong"):
    ref: int = 0


class GameMsg(_Msg, tag="game"):
    """Either way: a message of a game other than Colosseum at ``table``, in that game's own
    types (``body``: a message of ``host.muni_wire`` for Municipium), so this union stays the
    same whatever games a table may hold."""

    table: str
    body: bytes
    ref: int = 0


Message = Union[
    Hello,
    ListTables,
    CreateTable,
    Join,
    Watch,
    Leave,
    Start,
    Act,
    Say,
    Autopilot,
    Ping,
    Undo,
    Composing,
    Welcome,
    Tables,
    Joined,
    Update,
    TableChanged,
    Ack,
    Error,
    ChatLine,
    Pong,
    Undone,
    Reach,
    GameMsg,
]

CLIENT_MESSAGES = (
    Hello,
    ListTables,
    CreateTable,
    Join,
    Watch,
    Leave,
    Start,
    Act,
    Say,
    Autopilot,
    Ping,
    Undo,
    Composing,
    GameMsg,
)

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Message)


class ProtocolError(Exception):
    """A frame that is oversized or does not decode; ``fatal`` when the stream is unusable."""

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


def encode(msg: _Msg) -> bytes:
    """One framed message."""
    body = _encoder.encode(msg)
    if len(body) > MAX_MESSAGE:
        raise ProtocolError(f"message of {len(body)} bytes exceeds {MAX_MESSAGE}")
    return HEADER.pack(len(body)) + body


def decode(body: bytes) -> _Msg:
    try:
        msg: _Msg = _decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ProtocolError(f"malformed message: {exc}") from None
    return msg


async def read_frame(reader: asyncio.StreamReader, limit: int = MAX_MESSAGE) -> bytes | None:
    """The next frame's body, or None at a clean end of stream.  Raises a fatal ProtocolError
    for an oversized frame (nothing of it is read) or a stream cut mid-frame."""
    try:
        head = await reader.readexactly(HEADER.size)
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            return None
        raise ProtocolError("stream cut inside a frame header", fatal=True) from None
    (size,) = HEADER.unpack(head)
    if size > limit:
        raise ProtocolError(f"oversized message: {size} bytes (limit {limit})", fatal=True)
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise ProtocolError("stream cut inside a frame", fatal=True) from None


class FrameBuffer:
    """Incremental framing for blocking sockets (the client side)."""

    def __init__(self, limit: int = MAX_MESSAGE) -> None:
        self.buf = bytearray()
        self.limit = limit

    def feed(self, data: bytes) -> list[bytes]:
        self.buf += data
        out = []
        while len(self.buf) >= HEADER.size:
            (size,) = HEADER.unpack_from(self.buf)
            if size > self.limit:
                raise ProtocolError(f"oversized message: {size} bytes", fatal=True)
            if len(self.buf) < HEADER.size + size:
                break
            out.append(bytes(self.buf[HEADER.size : HEADER.size + size]))
            del self.buf[: HEADER.size + size]
        return out
