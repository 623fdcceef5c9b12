"""The game log file: how a game is saved, resumed and reviewed.  Pure Python, no UI.

Format (version 2; version 1 is the same without the digests): UTF-8 JSON lines, each a JSON
object encoded with msgspec.

* Line 1, the header::

    {"format":"colosseum-game-log","version":2,"program":"0.1.0","created":"2026-11-29T14:12:05Z",
     "setup":{"players":["Becky","Kat","Laura"],"seed":7,"variant":"classic"},
     "seats":["human","greedy","random"]}

  ``setup`` is the game's setup (``core.options.SetupBase``: the players, the seed, and the
  options that differ from their defaults; older logs wrote every field); ``seats`` says who
  plays each seat ("human" or a bot name); ``resumed_from`` (optional) names the damaged log a
  game was rescued from.  ``game`` names the game (:mod:`colosseum.core.registry`) when it is
  not the default (Colosseum): a header without it is Colosseum's, so every log written before
  there were two games reads as before.  The setup is checked against the game's setup type:
  a field this program does not know is refused (see ``SETUP_VERSION``), never dropped; a
  game may mark what an older version's setup meant (``KEYED_VERSION``).  The
  action lines are the game's own actions, in one shape (tag ``"a"``, ``"player"`` first).
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
* Hint lines record what the ``hard`` bot suggested when a player asked (not actions; they
  change nothing in the game and are not in the digest chain)::

    {"chat":"Hint for Becky: ...","name":"hint","seat":0,"time":1795961702.5,"after":12,
     "hint":[{"action":{"a":"pass_bid","player":0},"text":"pass","win":0.41,"acclaim":48.2,...},...]}

  ``hint`` lists the bot's choice first, then the next best.  A hint line is a chat line with
  one more key, so it needs no new format version: a reader that predates hints reads it as
  table talk (the sentence) and replays the game unchanged.
* Version 2 adds integrity.  Each action line ends with ``"h"``, a running digest: 16 hex digits
  of BLAKE2b over the previous digest and the line as written without its ``"h"`` (the chain
  starts from the digest of the header line).  A line replaced by another (even a legal one),
  an edited header, or lines removed in the middle no longer match it.  When the game ends the
  writer adds a final line in the same write as the last action::

    {"end":153,"h":"9c0f8a61d2b3e4f5"}

  so a finished game cut at a line boundary is told from a complete one.  (An unfinished game
  cut at a line boundary looks like a game stopped there: nothing in the file can tell.)  Undo
  lines carry ``"h"`` too and are in the chain like action lines, so editing or removing one
  is detected; chat lines are not in the chain.  Version 1 logs are read as before, without
  these checks, and cannot hold undo lines.

Nothing derived is stored: :func:`parse_log` replays the actions with the engine, and the first
line that cannot be read or is illegal in the replayed position ends the valid prefix;
:class:`GameLog` carries that prefix and a :class:`GameLogError` naming the line.  Only a file
with no usable header (empty, unreadable, not a game log, unknown version) raises.

Files are written by :class:`colosseum.core.logwriter.LogWriter` (created exclusively, locked,
one ``write`` per line), for the client's autosave and the server's tables alike.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from collections.abc import Iterable
from typing import Any

import msgspec
from msgspec.structs import replace

from colosseum.core.options import DEFAULT_GAME, SetupBase, setup_version

#: an action of any game (each game's own tagged union: tag "a", "player" first)
Action = Any


FORMAT = "colosseum-game-log"
FORMAT_VERSION = 2  # what LogWriter writes: version 1 plus digests, the end line and undo lines
PLAIN_VERSION = 1  # no digests: what make_header gives unless asked, for other writers
# Undo lines need version 2: a version 1 reader would replay the withdrawn actions as if they
# stood, so a log that may carry undo lines says version 2 and such a reader refuses it.
UNDO_VERSION = FORMAT_VERSION
# Version 3 is version 2 whose setup sets a field an older reader does not know (the secret of a
# server game, a newer option away from its default: ``options.setup_version``).  A version 2
# reader refuses it ("unknown format version") instead of replaying another game with that
# field's default; a log of a game that uses no newer field stays version 2.
SETUP_VERSION = 3
# Version 4 is version 3 whose secret means more than it did in older writers' logs of the same
# game (``SetupBase.secret_since``; Municipium's, D-96: in its version 3 logs the secret kept
# only the setup's draws, and ``SetupBase.read_from_log`` marks them so, to replay as played).
KEYED_VERSION = 4
READ_VERSIONS = (PLAIN_VERSION, FORMAT_VERSION, SETUP_VERSION, KEYED_VERSION)
MAX_LOG_BYTES = 64 << 20  # a 1,000-action game is about 100 kB

try:  # the program version; core must not depend on the client, only on the package
    from colosseum import __version__ as PROGRAM_VERSION
except ImportError:  # pragma: no cover - running from an odd layout
    PROGRAM_VERSION = "unknown"


class Header(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Line 1 of a game log."""

    format: str  # always FORMAT
    version: int  # FORMAT_VERSION (SETUP_VERSION for a setup older readers cannot read)
    program: str  # colosseum.__version__ of the writer
    created: str  # ISO 8601, UTC
    # The game's setup (a SetupBase Struct of the game named by ``game``).  Read as JSON values,
    # then checked against that game's setup type (``logread``): a field this program does not
    # know is refused, not dropped.
    setup: Any
    seats: tuple[str, ...]  # "human" or a bot name, per seat
    resumed_from: str | None = None  # file name of the damaged log this game continues
    fork_of: str | None = None  # file name of the game this one was forked from ...
    fork_at: int | None = None  # ... after its first ``fork_at`` actions
    # New chance from a position on: the generator state at position ``reseed_at`` is ``reseed``
    # (a fork that draws new chance after the fork point).  Version 2 only.
    reseed_at: int | None = None
    reseed: int | None = None
    game: str | None = None  # the game (core.registry) when not Colosseum; None: Colosseum

    def reseed_point(self) -> tuple[int, int] | None:
        """(position, generator state) when the game was reseeded there, else None."""
        if self.reseed_at is None or self.reseed is None:
            return None
        return (self.reseed_at, self.reseed)


def reseeded(state: Any, position: int, point: tuple[int, int] | None) -> Any:
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


class HintOption(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One action a hint compared: what the bot's playouts found for it."""

    action: Any  # the game's action (its JSON values as read: the game's type converts them)
    text: str = ""  # the action in words, as the log tells it
    win: float = 0.0  # share of the playouts the player won
    acclaim: float = 0.0  # the player's mean final Acclaim in them
    score: float = 0.0  # the search's score (win + a little of the Acclaim margin)
    playouts: int = 0


class HintLine(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A hint the ``hard`` bot gave ``seat`` after ``after`` actions: ``hint[0]`` is its choice,
    the rest the next best.  Laid out as a :class:`ChatLine` (``chat`` first, the same keys) plus
    ``hint``, so that readers without hint lines take it for table talk and skip nothing."""

    chat: str  # the hint in one sentence
    name: str = ""  # always "hint" (what an older reader shows as the speaker)
    seat: int = -1  # the seat the hint was for
    time: float = 0.0  # seconds since the epoch
    after: int = 0  # actions played when it was asked
    hint: tuple[HintOption, ...] = ()


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
    engine, edited (a digest does not match: the file was edited, or lines removed), cut (a
    finished game without its end line: the file was cut).  ``str(err)`` is a sentence naming
    the line."""

    def __init__(self, kind: str, message: str, line: int | None = None) -> None:
        self.kind = kind
        self.line = line
        self.detail = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


# ------------------------------------------------------------------------------ writing

_enc = msgspec.json.Encoder()


def make_header(
    setup: SetupBase,
    seats: Iterable[str],
    *,
    created: _dt.datetime | None = None,
    resumed_from: str | None = None,
    fork_of: str | None = None,
    fork_at: int | None = None,
    version: int = PLAIN_VERSION,
    reseed: tuple[int, int] | None = None,
) -> Header:
    """A header; :class:`~colosseum.core.logwriter.LogWriter` makes it ``FORMAT_VERSION`` (with
    digests) when it creates the file, or ``SETUP_VERSION`` when the setup needs it.  Other code
    writing lines itself gets plain lines.  The game is the one whose setup type ``setup`` is;
    Colosseum's header names none (every log written before there were two games reads alike)."""
    when = created or _dt.datetime.now(_dt.UTC)
    stamp = when.astimezone(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    name = type(setup).game
    if not name:
        raise ValueError(f"{type(setup).__name__} names no game (SetupBase.game)")
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
        game=None if name == DEFAULT_GAME else name,
    )


def written_version(header: Header) -> int:
    """The version a writer with digests gives ``header``: 2, or 3 for a setup older readers
    cannot read (see ``SETUP_VERSION``)."""
    return max(FORMAT_VERSION, setup_version(header.setup))


def encode_header(header: Header) -> bytes:
    """Line 1, with its newline."""
    return _enc.encode(header) + b"\n"


def encode_action_line(action: Action, number: int) -> bytes:
    """One plain action line (version 1, no digest), with its newline:
    ``{"i":N,"a":TAG,"player":P,...}``."""
    return _action_body(action, number) + b"\n"


def _action_body(action: Action, number: int) -> bytes:
    fields = msgspec.to_builtins(action)
    line = {"i": number, "a": fields.pop("a"), "player": fields.pop("player")}
    line.update(fields)
    return _enc.encode(line)


def encode_chat_line(line: ChatLine) -> bytes:
    """One chat line, with its newline."""
    return _enc.encode(line) + b"\n"


def encode_hint_line(line: HintLine) -> bytes:
    """One hint line, with its newline (it starts like a chat line: see :class:`HintLine`)."""
    return _enc.encode(line) + b"\n"


def encode_undo_line(line: UndoLine) -> bytes:
    """One plain undo line (no digest), with its newline: ``{"undo":N,"through":M,...}``."""
    return _enc.encode(line) + b"\n"


DIGEST_BYTES = 8
_H_KEY = b',"h":"'
_H_TAIL = len(_H_KEY) + 2 * DIGEST_BYTES + 2  # ,"h":"<16 hex>"}


def chain_start(header_line: bytes) -> bytes:
    """The digest a chain starts from: the header line's (without its newline)."""
    return hashlib.blake2b(header_line, digest_size=DIGEST_BYTES).digest()


def chain_next(digest: bytes, body: bytes) -> bytes:
    """The digest after a line whose text without ``"h"`` is ``body``."""
    return hashlib.blake2b(digest + body, digest_size=DIGEST_BYTES).digest()


def _with_digest(body: bytes, digest: bytes) -> bytes:
    return body[:-1] + _H_KEY + digest.hex().encode() + b'"}\n'


def _split_digest(raw: bytes) -> tuple[bytes, str] | None:
    """(body, hex digest) of a line that ends with ``,"h":"..."}``; None if it carries none."""
    if len(raw) > _H_TAIL and raw.endswith(b'"}') and raw[-_H_TAIL:].startswith(_H_KEY):
        return raw[:-_H_TAIL] + b"}", raw[-_H_TAIL + len(_H_KEY) : -2].decode("ascii", "replace")
    return None


class Chain:
    """Writes lines of one log: plain for a version 1 header, chained for version 2.
    ``digest`` is the chain so far (None for version 1); ``count`` the actions written."""

    def __init__(self, digest: bytes | None, count: int = 0) -> None:
        self.digest = digest
        self.count = count

    @classmethod
    def for_header(cls, header: Header) -> tuple[Chain, bytes]:
        """The chain of a new log and its header line (with the newline)."""
        line = encode_header(header)
        return cls(chain_start(line[:-1]) if header.version >= 2 else None), line

    def action_line(self, action: Action) -> bytes:
        """The next action line; ``count`` and ``digest`` move on (call only once written, or
        copy the chain first: see :meth:`copy`)."""
        body = _action_body(action, self.count + 1)
        self.count += 1
        if self.digest is None:
            return body + b"\n"
        self.digest = chain_next(self.digest, body)
        return _with_digest(body, self.digest)

    def undo_line(self, line: UndoLine) -> bytes:
        """The undo line withdrawing actions ``line.undo`` to ``line.through`` (the last ones
        written): ``count`` goes back to ``line.undo - 1``, so the next action line reuses the
        first withdrawn number; the undo line is in the chain like an action line."""
        if line.through != self.count or not 1 <= line.undo <= line.through:
            raise ValueError(f"undo of actions {line.undo} to {line.through} where {self.count} are in effect")
        body = _enc.encode(line)
        self.count = line.undo - 1
        if self.digest is None:
            return body + b"\n"
        self.digest = chain_next(self.digest, body)
        return _with_digest(body, self.digest)

    def end_line(self) -> bytes:
        """The final line of a finished game (nothing for version 1)."""
        if self.digest is None:
            return b""
        body = b'{"end":%d}' % self.count
        return _with_digest(body, chain_next(self.digest, body))

    def copy(self) -> Chain:
        return Chain(self.digest, self.count)


def dump_log(header: Header, actions: Iterable[Action], *, end: bool = False) -> bytes:
    """A whole log file (with the end line after the actions if ``end`` and version 2)."""
    chain, head = Chain.for_header(header)
    parts = [head]
    parts.extend(chain.action_line(a) for a in actions)
    if end:
        parts.append(chain.end_line())
    return b"".join(parts)


def describe_action(action: Any) -> str:
    """A short plain description of an action of any game, e.g. ``gate by seat 0 (space=3)``."""
    fields = msgspec.to_builtins(action)
    tag = fields.pop("a")
    player = fields.pop("player")
    rest = ", ".join(f"{k}={v!r}" for k, v in fields.items())
    return f"{tag} by seat {player}" + (f" ({rest})" if rest else "")
