"""Messages between the table server (inside ``colosseum serve``) and client processes.

Every message is a msgspec Struct in one tagged union (tag field ``"t"``), encoded with
msgpack and framed by a 4-byte big-endian length.  ``PROTOCOL_VERSION`` is sent in ``Hello``
and ``Welcome``; a server refuses a client of another version.  A frame longer than
``MAX_MESSAGE`` is refused (the connection is closed: the stream cannot be trusted after it);
a frame that does not decode into a known message is refused with an ``Error`` and logged.

One wire for every game.  The messages name no game's types: a game's setup, state and actions
travel as :data:`GameData`, that game's JSON (its ``Rules.encode``), and the receiver decodes
them with the types of the game the table names (``TableInfo.game``: ``Rules.decode_state``,
``decode_setup``, ``decode_action``; :class:`Codec` does it by name).

Clients never apply actions: they send ``Act`` and receive the server's resulting state in
``Update`` (plus the new actions and their events for the log panel).  Every state and setup a
connection receives is its seat's view (``Rules.player_view(state, seat)``; a spectator's is
seat None's): no seed, no secret, no generator state, nothing that seat may not see.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec

from colosseum.core.events import Event
from colosseum.core.options import DEFAULT_GAME

from .codec import Codec as Codec
from .codec import GameData as GameData
from .frames import HEADER as HEADER
from .frames import MAX_MESSAGE as MAX_MESSAGE
from .frames import FrameBuffer as FrameBuffer
from .frames import ProtocolError as ProtocolError
from .frames import read_frame as read_frame
from .msgbase import Account as Account
from .msgbase import AccountInfo as AccountInfo
from .msgbase import Elsewhere as Elsewhere
from .msgbase import _Msg as _Msg

#: 3: Undo, Composing, Undone, Reach; 4: hints; 5: one wire for every game (game values in the
#: game's JSON), CreateTable's options by name, Review and Positions; 6: rated tables, the
#: leaderboard and players' profiles (from the lobby's store), one-time web links; 7: one's own
#: finished games, a finished game's review and forks, rematches, "your move" in the lobby
PROTOCOL_VERSION = 8
PAGE_MAX = 100  # tables in one Tables message (a TableInfo is a few hundred bytes)
TABLE_NAME_CELLS = 40  # a table's name, in terminal cells (a wide character such as 漢 is two)
REVIEW_BUDGET = 256 << 10  # bytes of positions in one Positions message (more follow on request)


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
    mine: bool = False  # with ``history``: only the games the asker played


class CreateTable(_Msg, tag="create"):
    """A new table of ``game`` (a name of ``core.registry``).  ``seats``: per seat 'human'
    (open for a player) or a bot name of the game (``Rules.bot_names``); as many as the game
    has players.  ``options``: the game's setup options by field name, as JSON values (checked
    by ``GameSpec.make_setup``: its ``OptionError`` is the refusal).  The creator sits at ``sit``
    (-1: only create).  ``seed`` None: the server draws the game's chance (``--fixed-seeds``
    servers take a seed: tests)."""

    seats: list[str]
    name: str = ""
    game: str = DEFAULT_GAME
    options: dict[str, Any] = {}
    allow_takeover: bool = False  # players may take over bot seats between their turns
    hints: bool = False  # players may ask the game's strongest bot (shown to the asker only)
    sit: int = 0
    seed: int | None = None
    rated: bool = False  # rated when at least two people sit at it when it starts (D-30)
    private: bool = False  # seen only by those who have its code (``TableInfo.code``: D-78)
    bank: int = 0  # a time bank: each seat's seconds for the game, and ``increment`` per decision (D-77)
    increment: int = 0
    turn_hours: float = 0.0  # turn-based: hours for each decision; the table waits for absent players


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
    """An action for ``table`` (in its game's JSON); ``ref`` is echoed in the ``Ack`` or
    ``Error``.  ``at`` is the number of actions the client has seen (the server refuses a
    stale action)."""

    table: str
    action: GameData
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
    """The seated player opened (``on``) or closed a dialog for an action out of turn (a deal):
    a bot's move waits for it while the game lets that seat act out of turn
    (``Rules.out_of_turn``), for a while (a silent client cannot hold a table)."""

    table: str
    on: bool = True


class Review(_Msg, tag="review"):
    """The game so far as this connection's seat may see it, for the review (``v``): answered
    with ``Positions`` from position ``start`` (or ``Error``)."""

    table: str
    ref: int = 0
    start: int = 0


class ReviewGame(_Msg, tag="review_game"):
    """A finished game move by move as the asker saw it (their seat's view, else a spectator's)."""

    game: str
    ref: int = 0
    start: int = 0


class ForkGame(_Msg, tag="fork"):
    """A new table from a finished game (``game``) after its first ``at`` actions: ``seats``
    as in ``CreateTable`` (the game's player count), the asker sits at ``sit``; new chance from
    the fork point on.  Answered with ``Joined`` (or ``Error``)."""

    game: str
    at: int
    seats: list[str]
    sit: int = 0


class Rematch(_Msg, tag="rematch"):
    """Ask for a rematch at a finished table, or answer one (``accept`` False: decline)."""

    table: str
    accept: bool = True


class JoinCode(_Msg, tag="join_code"):
    """Come to a private table by its code: sit at a free seat of a waiting table, else watch."""

    code: str


class Leaderboard(_Msg, tag="leaderboard"):
    """A page of a game's leaderboard (answered by ``Leaders``)."""

    game: str
    offset: int = 0
    limit: int = 20


class Profile(_Msg, tag="profile"):
    """A player's profile in one game (answered by ``PlayerProfile``)."""

    name: str
    game: str


class WebLinkRequest(_Msg, tag="weblink"):
    """A one-time link that signs a browser in as this player (answered by ``WebLink``, or an
    ``Error`` when the server has no web port)."""


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
    game: str  # a name of core.registry: how a client reads the table's game values
    status: str  # 'waiting', 'playing', 'over'
    seats: list[SeatInfo]
    options: dict[str, Any] = {}  # the game's options as the creator gave them
    edition: str = ""  # the options in words, "" for the game's defaults ("Original 2007")
    progress: str = ""  # how far the game is ("round 3": Rules.progress)
    allow_takeover: bool = False
    hints: bool = False  # the table allows hints
    creator: str = ""  # display name
    creator_seat: int = -1  # the seat the creator holds (-1: none): who may start a waiting table
    spectators: int = 0
    actions: int = 0
    deadline: float = 0.0  # wall-clock time the seat to act runs out of time (0: no clock)
    clock_seat: int = -1  # the seat the clock runs for
    rated: bool = False  # asked for (waiting), or rated indeed (once started)
    to_act: int = -1  # the seat to act (-1: none, or no game yet)
    code: str = ""  # a private table's invitation code (sent only to those who may see it)
    banks: list[float] = []  # a time bank's seconds left per seat (the running decision's not yet off)
    turn_hours: float = 0.0  # a turn-based table's hours per decision
    decision_seconds: float = 0.0  # without a time bank or turn hours: the server's clock per decision (0: none)


class HistoryInfo(msgspec.Struct, kw_only=True):
    """A finished game: its log stays in the server's data folder.  A line of
    ``history.jsonl`` (lines written before version 5 have ``variant`` instead of ``game``:
    ``host.meta.history_entry`` reads both)."""

    id: str
    name: str
    players: list[str]
    game: str = DEFAULT_GAME
    edition: str = ""
    winner: str = ""  # the winners' names ("A, B" when they share the win)
    ended: float = 0.0
    actions: int = 0
    holders: list[str] = []  # the identities of the people who played (in the file, never sent)
    private: bool = False  # a private table's game: listed to those who played it only


class Tables(_Msg, tag="tables"):
    """One page: ``tables`` (live) or ``history`` (finished), from ``offset`` of ``total``."""

    tables: list[TableInfo]
    held: list[tuple[str, int]] = []  # (table, seat) the asking player holds
    total: int = 0
    offset: int = 0
    history: list[HistoryInfo] = []
    your_move: list[str] = []  # the live tables where the asker's seat is to act


class ChatLine(_Msg, tag="chat"):
    table: str
    name: str
    text: str
    seat: int = -1
    time: float = 0.0
    at: int = -1  # the actions played when it was said (0 while waiting; -1: not known)


class Joined(_Msg, tag="joined"):
    """You sit at (``seat`` >= 0) or watch (``seat`` -1) ``table``.  ``state`` is None while the
    table waits for players.  ``setup`` and ``state`` are this seat's view; ``actions`` every
    action so far, ``events`` the last ones (a log panel's worth)."""

    table: TableInfo
    seat: int
    setup: GameData | None = None
    state: GameData | None = None
    actions: list[GameData] = []
    events: list[Event] = []
    chat: list[ChatLine] = []


class Update(_Msg, tag="update"):
    """The server applied ``actions`` (in order); ``state`` is the result as the receiving seat
    sees it; ``n`` the number of actions applied so far at this table."""

    table: str
    n: int
    actions: list[GameData]
    events: list[Event]
    state: GameData
    deadline: float = 0.0  # as ``TableInfo.deadline``, for the seat to act now
    clock_seat: int = -1


class TableChanged(_Msg, tag="table"):
    """Seats, presence or status of a table changed (also sent when a game starts); ``n`` the
    actions so far."""

    table: TableInfo
    setup: GameData | None = None
    state: GameData | None = None
    n: int = 0


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
    state: GameData
    seat: int
    event: Event
    dropped: int = 0
    deadline: float = 0.0
    clock_seat: int = -1


class Reach(_Msg, tag="reach"):
    """Sent after each change of a running game where people hold seats (and after
    ``Joined``): per seat, how far it may take back (an empty entry for a seat no person holds)."""

    table: str
    n: int
    seats: list[SeatReach]


class Position(msgspec.Struct, kw_only=True):
    """Position ``at`` (after that many actions), as the asking seat sees it."""

    at: int
    state: GameData


class Positions(_Msg, tag="positions"):
    """The answer to ``Review``: the game from position ``start`` to ``n`` as the asking seat
    sees it.  ``actions[k]`` leads from position ``start + k`` to the next and ``events[k]``
    is what it did; ``keys`` are the positions a client cannot reach by applying the actions
    to its view of the one before (chance, or something turned up): every other position is
    that.  ``next`` > 0: ask again from there for the rest."""

    table: str
    n: int
    start: int
    setup: GameData
    actions: list[GameData]
    events: list[list[Event]]
    keys: list[Position]
    next: int = -1
    ref: int = 0
    seat: int = -1  # whose view: the asker's seat in the game (-1: a spectator's)
    seats: list[str] = []  # who played each seat ("human" or a bot level): a finished game's


class RematchState(_Msg, tag="rematch_state"):
    """A rematch at ``table``: ``answers`` per seat ("asked", "yes", "no", "" not yet; bots "yes"),
    ``new_table`` once all accepted (each person sits there), ``note`` a line for everyone."""

    table: str
    answers: list[str]
    new_table: str = ""
    note: str = ""


class LeaderRow(msgspec.Struct, kw_only=True):
    place: int
    name: str
    rating: int  # the conservative number shown (D-30)
    games: int  # rated games of this game
    provisional: bool = False


class Leaders(_Msg, tag="leaders"):
    game: str
    rows: list[LeaderRow]
    total: int = 0
    offset: int = 0


class GameLine(msgspec.Struct, kw_only=True):
    """One finished game in a profile: where the player came, among whom."""

    id: str
    name: str
    ended: float
    place: int
    players: list[str]
    rated: bool = False
    left: bool = False


class PlayerProfile(_Msg, tag="player"):
    name: str
    game: str
    rating: int
    rated_games: int
    provisional: bool
    played: int  # finished games of this game (rated or not)
    wins: int  # of those, first places (shared ones too)
    recent: list[GameLine] = []
    history: list[int] = []  # the rating shown after each of the last rated games, oldest first


class WebLink(_Msg, tag="link"):
    url: str
    minutes: int


class Ack(_Msg, tag="ack"):
    ref: int
    n: int


class Error(_Msg, tag="error"):
    message: str
    code: str = "refused"  # refused, rule, malformed, version, auth, unknown_table, ...
    rule: str = ""
    ref: int = -1
    table: str = ""  # the table it is about, where that matters (``moved_host``)


class Pong(_Msg, tag="pong"):
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
    Review,
    ReviewGame,
    JoinCode,
    ForkGame,
    Rematch,
    RematchState,
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
    Positions,
    Leaderboard,
    Profile,
    WebLinkRequest,
    Leaders,
    PlayerProfile,
    WebLink,
    Account,
    AccountInfo,
    Elsewhere,
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
    Review,
    ReviewGame,
    JoinCode,
    ForkGame,
    Rematch,
    Leaderboard,
    Profile,
    WebLinkRequest,
    Account,
)

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Message)


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
