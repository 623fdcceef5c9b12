"""The game log file: how a game is saved, resumed and reviewed.  Pure Python, no UI.

Format (version 1): UTF-8 JSON lines, each a JSON object encoded with msgspec.

* Line 1, the header::

    {"format":"colosseum-game-log","version":1,"program":"0.1.0","created":"2026-11-29T14:12:05Z",
     "setup":{"players":["Becky","Kat","Laura"],"seed":7,"variant":"grand","options":[],"first_player":null},
     "seats":["human","greedy","random"]}

  ``setup`` is the engine's :class:`GameSetup`; ``seats`` says who plays each seat ("human" or a
  bot name); ``resumed_from`` (optional) names the damaged log a game was rescued from.
* Then one action per line, in the order applied: the engine's ``Action`` tagged union (tag
  ``"a"``, named fields) preceded by ``"i"``, the action's number (1, 2, ...) for people reading
  the file::

    {"i":1,"a":"start_gates","player":2,"space":3}

  ``"i"`` is optional when reading; if present it must count up from 1 (a swapped, duplicated or
  missing line is reported).  Blank lines are ignored.
* Version 2 logs may hold undo lines (:class:`UndoLine`), withdrawing the last actions in
  effect; the withdrawn lines stay, the next action line takes the first withdrawn number::

    {"undo":9,"through":11,"seat":0,"name":"Becky","time":1795961702.5,"text":"Becky took back: ..."}

  ``GameLog.actions`` are the actions that stand; ``GameLog.undos`` what was taken back.
  The header of a forked game names its parent: ``"fork_of":"FILE.jsonl","fork_at":N``.
* Chat lines (table talk in a networked game) may stand between actions; they are not actions
  and change nothing in the game::

    {"chat":"I'll give you a lion for 5","name":"Becky","seat":0,"time":1795961702.5,"after":12}

  ``after`` is the number of actions played when it was said.

Nothing derived is stored: :func:`parse_log` replays the actions with the engine, and the first
line that cannot be read or is illegal in the replayed position ends the valid prefix;
:class:`GameLog` carries that prefix and a :class:`GameLogError` naming the line.  Only a file
with no usable header (empty, unreadable, not a game log, unknown version) raises.

Files are written by :class:`colosseum.core.logwriter.LogWriter` (created exclusively, locked,
one ``write`` per line), for the client's autosave and the server's tables alike.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

from .actions import Action
from .catalog import CatalogError
from .engine import apply, new_game, to_act
from .errors import RuleError
from .model import Event, GameSetup, State

FORMAT = "colosseum-game-log"
FORMAT_VERSION = 1
# Version 2 is version 1 plus undo lines: a reader of version 1 would replay the withdrawn
# actions as if they stood, so a log that may carry undo lines says version 2 and such a
# reader refuses it with "unknown format version 2".
UNDO_VERSION = 2
READ_VERSIONS = (FORMAT_VERSION, UNDO_VERSION)
MAX_LOG_BYTES = 64 << 20  # a 1,000-action game is about 100 kB

try:  # the program version; core must not depend on the client, only on the package
    from colosseum import __version__ as PROGRAM_VERSION
except ImportError:  # pragma: no cover - running from an odd layout
    PROGRAM_VERSION = "unknown"


class Header(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Line 1 of a game log."""

    format: str  # always FORMAT
    version: int  # FORMAT_VERSION
    program: str  # colosseum.__version__ of the writer
    created: str  # ISO 8601, UTC
    setup: GameSetup
    seats: tuple[str, ...]  # "human" or a bot name, per seat
    resumed_from: str | None = None  # file name of the damaged log this game continues
    fork_of: str | None = None  # file name of the game this one was forked from ...
    fork_at: int | None = None  # ... after its first ``fork_at`` actions
    # New chance from a position on: the generator state at position ``reseed_at`` is ``reseed``
    # (a fork that draws new chance after the fork point).  Version 2 only.
    reseed_at: int | None = None
    reseed: int | None = None

    def reseed_point(self) -> tuple[int, int] | None:
        """(position, generator state) when the game was reseeded there, else None."""
        if self.reseed_at is None or self.reseed is None:
            return None
        return (self.reseed_at, self.reseed)


def reseeded(state: State, position: int, point: tuple[int, int] | None) -> State:
    """``state`` (the one at ``position``) with the generator state ``point`` puts there."""
    if point is None or point[0] != position:
        return state
    return replace(state, rng=point[1])


class ChatLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A line of table talk kept in the log (not an action)."""

    chat: str
    name: str = ""
    seat: int = -1  # -1: a spectator
    time: float = 0.0  # seconds since the epoch
    after: int = 0  # actions played when it was said


class UndoLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A line withdrawing the actions numbered ``undo`` to ``through`` (the last ones in effect):
    the game goes on from the position after action ``undo - 1``, and the next action line is
    numbered ``undo`` again.  The withdrawn lines stay in the file (nothing is lost)."""

    undo: int
    through: int
    seat: int = -1  # who took them back
    name: str = ""
    time: float = 0.0  # seconds since the epoch
    text: str = ""  # what was taken back, for people ("Becky took back: ...")


class Withdrawal(msgspec.Struct, kw_only=True):
    """An undo line as read: the position the game went back to and the actions withdrawn."""

    line: UndoLine
    at: int  # actions in effect after the undo (= line.undo - 1)
    actions: tuple[Action, ...]
    lineno: int  # the undo line's line in the file
    texts: tuple[str, ...] = ()  # what each withdrawn action did, in the log's sentences


class GameLogError(ValueError):
    """A game log that cannot be read (whole or in part).

    ``line`` is the 1-based line of the file at fault (None for the whole file); ``kind`` is one
    of: empty, unreadable, header, version, encoding, truncated, malformed, order, illegal,
    engine.  ``str(err)`` is a sentence naming the line."""

    def __init__(self, kind: str, message: str, line: int | None = None) -> None:
        self.kind = kind
        self.line = line
        self.detail = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


# ------------------------------------------------------------------------------ writing

_enc = msgspec.json.Encoder()


def make_header(
    setup: GameSetup,
    seats: Iterable[str],
    *,
    created: _dt.datetime | None = None,
    resumed_from: str | None = None,
    fork_of: str | None = None,
    fork_at: int | None = None,
    version: int = FORMAT_VERSION,
    reseed: tuple[int, int] | None = None,
) -> Header:
    when = created or _dt.datetime.now(_dt.UTC)
    stamp = when.astimezone(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Header(
        format=FORMAT,
        version=version,
        program=PROGRAM_VERSION,
        created=stamp,
        setup=setup,
        seats=tuple(seats),
        resumed_from=resumed_from,
        fork_of=fork_of,
        fork_at=fork_at,
        reseed_at=reseed[0] if reseed else None,
        reseed=reseed[1] if reseed else None,
    )


def encode_header(header: Header) -> bytes:
    """Line 1, with its newline."""
    return _enc.encode(header) + b"\n"


def encode_action_line(action: Action, number: int) -> bytes:
    """One action line, with its newline: ``{"i":N,"a":TAG,"player":P,...}``."""
    fields = msgspec.to_builtins(action)
    line = {"i": number, "a": fields.pop("a"), "player": fields.pop("player")}
    line.update(fields)
    return _enc.encode(line) + b"\n"


def encode_chat_line(line: ChatLine) -> bytes:
    """One chat line, with its newline."""
    return _enc.encode(line) + b"\n"


def encode_undo_line(line: UndoLine) -> bytes:
    """One undo line, with its newline: ``{"undo":N,"through":M,...}``."""
    return _enc.encode(line) + b"\n"


def dump_log(header: Header, actions: Iterable[Action]) -> bytes:
    """A whole log file."""
    parts = [encode_header(header)]
    parts.extend(encode_action_line(a, i) for i, a in enumerate(actions, 1))
    return b"".join(parts)


# ------------------------------------------------------------------------------ the timeline


class Timeline:
    """The positions of a game: position ``i`` is the state after the first ``i`` actions
    (0 = the start, ``len(actions)`` = the end).  States are computed on demand and all kept
    (they share structure), so after the first visit any position is one list index away.

    Navigation (``next_*``/``prev_*``) moves between the starts of segments: a *turn* is a run
    of positions where the same player is to act in the same phase; a *phase* and a *round* are
    what the state says.  ``prev_*`` goes to the start of the current segment, or of the one
    before when already at a start."""

    def __init__(
        self,
        setup: GameSetup,
        actions: Iterable[Action] = (),
        *,
        _states: list[State] | None = None,
        _events: list[list[Event]] | None = None,
        reseed: tuple[int, int] | None = None,
    ) -> None:
        self.setup = setup
        self.actions: list[Action] = list(actions)
        self.reseed = reseed  # (position, generator state): see Header.reseed_point
        self._states: list[State] = _states if _states is not None else [reseeded(new_game(setup), 0, reseed)]
        self._events: list[list[Event]] = _events if _events is not None else [[]]

    def __len__(self) -> int:
        """Number of positions (actions + 1)."""
        return len(self.actions) + 1

    @property
    def end(self) -> int:
        return len(self.actions)

    def append(self, action: Action) -> None:
        """Add an action played after the last one (a running game moved on)."""
        self.actions.append(action)

    def _extend(self, i: int) -> None:
        states, events = self._states, self._events
        state = states[-1]
        while len(states) <= i:
            state, ev = apply(state, self.actions[len(states) - 1])
            state = reseeded(state, len(states), self.reseed)
            states.append(state)
            events.append(ev)

    def state(self, i: int) -> State:
        if not 0 <= i <= self.end:
            raise IndexError(f"position {i} is outside 0..{self.end}")
        if i >= len(self._states):
            self._extend(i)
        return self._states[i]

    def events(self, i: int) -> list[Event]:
        """The events caused by action ``i`` (the one leading to position ``i``; none for 0)."""
        self.state(i)
        return self._events[i]

    def all_events(self) -> list[tuple[int, Event]]:
        """Every event with the position it leads to."""
        self.state(self.end)
        return [(i, e) for i in range(1, len(self._events)) for e in self._events[i]]

    # ---- segment keys
    def _key(self, kind: str, i: int) -> Any:
        s = self.state(i)
        if kind == "round":
            return s.round if s.phase != "over" else -1
        if kind == "phase":
            return (s.round, s.phase)
        if kind == "turn":
            return (s.round, s.phase, s.turn, to_act(s))
        if kind == "action":
            return i
        raise ValueError(f"unknown step {kind!r}")

    def is_start(self, kind: str, i: int) -> bool:
        return i == 0 or i == self.end or self._key(kind, i) != self._key(kind, i - 1)

    def next(self, kind: str, i: int) -> int:
        """The next segment start after ``i`` (the end if none)."""
        j = i + 1
        while j < self.end and not self.is_start(kind, j):
            j += 1
        return min(j, self.end)

    def prev(self, kind: str, i: int) -> int:
        """The start of the segment holding ``i``; if ``i`` is that start, the previous one."""
        j = i - 1
        while j > 0 and not self.is_start(kind, j):
            j -= 1
        return max(j, 0)


# ------------------------------------------------------------------------------ reading


class GameLog:
    """A parsed log: the header, the valid prefix of actions replayed, and the first error."""

    def __init__(
        self,
        header: Header,
        timeline: Timeline,
        error: GameLogError | None,
        *,
        lines: int,
        terminated: bool,
        path: Path | None = None,
        chat: list[ChatLine] | None = None,
    ) -> None:
        self.chat: list[ChatLine] = chat or []  # table talk, in file order
        self.undos: list[Withdrawal] = []  # undo lines, in file order (``actions`` is what stands)
        self.header = header
        self.timeline = timeline
        self.error = error
        self.lines = lines  # lines in the file (header included, blank ones too)
        self.terminated = terminated  # the file ends with a newline
        self.path = path

    @property
    def setup(self) -> GameSetup:
        return self.header.setup

    @property
    def seats(self) -> tuple[str, ...]:
        return self.header.seats

    @property
    def actions(self) -> list[Action]:
        return self.timeline.actions

    @property
    def state(self) -> State:
        """The position after the valid prefix."""
        return self.timeline.state(self.timeline.end)

    @property
    def intact(self) -> bool:
        return self.error is None

    @property
    def finished(self) -> bool:
        return self.state.phase == "over"

    @property
    def appendable(self) -> bool:
        """Intact and ending with a newline: new actions may be appended to the file."""
        return self.error is None and self.terminated


def _first_error_text(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0]


# What decoding a line of text can raise: malformed JSON or the wrong shape (ValidationError is
# a DecodeError), and RecursionError for JSON nested too deeply.
_DECODE_ERRORS: tuple[type[Exception], ...] = (msgspec.DecodeError, RecursionError)


def _probe(line: str) -> Any:
    return msgspec.json.decode(line)


_header_dec = msgspec.json.Decoder(Header)
_action_dec = msgspec.json.Decoder(Action)
_chat_dec = msgspec.json.Decoder(ChatLine)


class _Number(msgspec.Struct):
    i: Any = None
    chat: Any = None


_number_dec = msgspec.json.Decoder(_Number)


def _parse_header(raw: bytes, *, last_unterminated: bool) -> Header:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise GameLogError("encoding", f"corrupted bytes (not UTF-8 text) at column {e.start + 1}", 1) from None
    if not text.strip():
        raise GameLogError("header", "no header (the first line is blank)", 1)
    try:
        obj = _probe(text)
    except _DECODE_ERRORS as e:
        if last_unterminated:
            raise GameLogError("truncated", "the header is incomplete (the file was cut short)", 1) from None
        raise GameLogError("header", f"not a Colosseum game log (not JSON: {_first_error_text(e)})", 1) from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise GameLogError("header", "not a Colosseum game log (no game log header)", 1)
    version = obj.get("version")
    if version not in READ_VERSIONS or isinstance(version, bool):
        newer = isinstance(version, int) and not isinstance(version, bool) and version > max(READ_VERSIONS)
        raise GameLogError(
            "version",
            f"unknown format version {version!r} (this program, colosseum {PROGRAM_VERSION}, reads versions "
            f"{' and '.join(map(str, READ_VERSIONS))}"
            + ("; the log was written by a newer colosseum: update to read it" if newer else "")
            + ")",
            1,
        )
    try:
        header = _header_dec.decode(text)
    except _DECODE_ERRORS as e:
        raise GameLogError("header", f"bad header: {_first_error_text(e)}", 1) from None
    if len(header.seats) != len(header.setup.players):
        raise GameLogError(
            "header", f"bad header: {len(header.seats)} seats for {len(header.setup.players)} players", 1
        )
    return header


def describe_action(action: Action) -> str:
    """A short plain description of an action, e.g. ``gate by seat 0 (space=3)``."""
    fields = msgspec.to_builtins(action)
    tag = fields.pop("a")
    player = fields.pop("player")
    rest = ", ".join(f"{k}={v!r}" for k, v in fields.items())
    return f"{tag} by seat {player}" + (f" ({rest})" if rest else "")


def parse_log(data: bytes, *, path: Path | None = None) -> GameLog:
    """Parse and replay a log file's bytes.  Raises :class:`GameLogError` only when there is no
    usable header; otherwise returns the valid prefix with ``error`` set at the first bad line."""
    if not data:
        raise GameLogError("empty", "the file is empty")
    terminated = data.endswith(b"\n")
    raw_lines = data.split(b"\n")
    if terminated:
        raw_lines.pop()
    total = len(raw_lines)
    header = _parse_header(raw_lines[0], last_unterminated=(total == 1 and not terminated))
    point = header.reseed_point()
    try:
        state = reseeded(new_game(header.setup), 0, point)
    except (RuleError, CatalogError, ValueError) as e:
        raise GameLogError("header", f"bad game setup: {_first_error_text(e)}", 1) from None
    except Exception as e:  # noqa: BLE001 - an engine bug must not make the file unreadable either
        raise GameLogError("engine", f"the engine failed on this setup ({type(e).__name__}: {e})", 1) from None

    actions: list[Action] = []
    states: list[State] = [state]
    events: list[list[Event]] = [[]]
    error: GameLogError | None = None
    chat: list[ChatLine] = []
    undos: list[Withdrawal] = []
    version_note = (
        f" (the file was written by colosseum {header.program}; this is {PROGRAM_VERSION})"
        if header.program != PROGRAM_VERSION
        else ""
    )
    for idx in range(1, total):
        lineno = idx + 1
        raw = raw_lines[idx]
        is_cut = idx == total - 1 and not terminated
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            if is_cut:
                error = GameLogError(
                    "truncated", "the last line is incomplete (the game stopped while saving it)", lineno
                )
            else:
                error = GameLogError("encoding", f"corrupted bytes (not UTF-8 text) at column {e.start + 1}", lineno)
            break
        if not text.strip():
            continue
        number = len(actions) + 1
        if text.lstrip().startswith('{"undo"'):
            error = _read_undo(text, header, actions, lineno, is_cut, undos)
            if error is not None:
                break
            at = undos[-1].at
            undos[-1].texts = tuple(" ".join(e.text for e in ev) for ev in events[at + 1 :])
            del actions[at:], states[at + 1 :], events[at + 1 :]
            state = states[-1]
            continue
        if text.lstrip().startswith('{"chat"'):
            try:
                chat.append(_chat_dec.decode(text))
                continue
            except _DECODE_ERRORS as e:
                if is_cut:
                    error = GameLogError(
                        "truncated", "the last line is incomplete (the game stopped while saving it)", lineno
                    )
                else:
                    error = GameLogError("malformed", f"not a valid chat line ({_first_error_text(e)})", lineno)
                break
        try:
            action = _action_dec.decode(text)
            tag = _number_dec.decode(text).i
        except _DECODE_ERRORS as e:
            if is_cut:
                error = GameLogError(
                    "truncated", "the last line is incomplete (the game stopped while saving it)", lineno
                )
                break
            try:
                _probe(text)
            except _DECODE_ERRORS:
                error = GameLogError("malformed", f"not valid JSON ({_first_error_text(e)})", lineno)
            else:
                error = GameLogError("malformed", f"not a valid action ({_first_error_text(e)})", lineno)
            break
        if tag is not None and (tag != number or isinstance(tag, bool)):
            error = GameLogError(
                "order",
                f"action number {tag!r} where {number} was expected (lines swapped, repeated or missing)",
                lineno,
            )
            break
        try:
            state, ev = apply(state, action)
        except RuleError as e:
            error = GameLogError(
                "illegal", f"action {number} ({describe_action(action)}) is not legal here: {e}{version_note}", lineno
            )
            break
        except Exception as e:  # noqa: BLE001 - an engine bug ends the valid prefix, like an illegal action
            error = GameLogError(
                "engine",
                f"the engine failed on action {number} ({describe_action(action)}): {type(e).__name__}: {e}",
                lineno,
            )
            break
        state = reseeded(state, len(actions) + 1, point)
        actions.append(action)
        states.append(state)
        events.append(ev)

    timeline = Timeline(header.setup, actions, _states=states, _events=events, reseed=point)
    log = GameLog(header, timeline, error, lines=total, terminated=terminated, path=path, chat=chat)
    log.undos = undos
    return log


_undo_dec = msgspec.json.Decoder(UndoLine)


def _read_undo(
    text: str, header: Header, actions: list[Action], lineno: int, is_cut: bool, undos: list[Withdrawal]
) -> GameLogError | None:
    """Check an undo line against the actions in effect; append it to ``undos`` or return the error."""
    try:
        line = _undo_dec.decode(text)
    except _DECODE_ERRORS as e:
        if is_cut:
            return GameLogError("truncated", "the last line is incomplete (the game stopped while saving it)", lineno)
        return GameLogError("malformed", f"not a valid undo line ({_first_error_text(e)})", lineno)
    if header.version < UNDO_VERSION:
        return GameLogError("malformed", f"an undo line in a version {header.version} log", lineno)
    n = len(actions)
    if line.through != n or not 1 <= line.undo <= line.through:
        return GameLogError(
            "order", f"undo of actions {line.undo} to {line.through} where {n} actions are in effect", lineno
        )
    undos.append(Withdrawal(line=line, at=line.undo - 1, actions=tuple(actions[line.undo - 1 :]), lineno=lineno))
    return None


def read_log(path: str | Path) -> GameLog:
    """Read and replay the log at ``path`` (never writes to it).  Raises GameLogError when the
    file cannot be read at all or has no usable header."""
    p = Path(path)
    try:
        info = p.stat()
        if p.is_dir():
            raise IsADirectoryError
        if info.st_size > MAX_LOG_BYTES:
            raise GameLogError("unreadable", f"{p} is too large to be a game log ({info.st_size} bytes)")
        data = p.read_bytes()
    except FileNotFoundError:
        raise GameLogError("unreadable", f"no such file: {p}") from None
    except IsADirectoryError:
        raise GameLogError("unreadable", f"{p} is a folder, not a game log") from None
    except OSError as e:
        raise GameLogError("unreadable", f"cannot read {p}: {e.strerror or e}") from None
    return parse_log(data, path=p)


def replay_states(log: GameLog) -> list[State]:
    """Every position of the valid prefix (0..len(actions))."""
    tl = log.timeline
    return [tl.state(i) for i in range(len(tl))]
