"""Reading game logs: ``parse_log`` (bytes -> ``GameLog`` with the valid prefix, or the first
problem as a ``GameLogError`` naming its line), ``read_log`` (a path; regular files only, read
without blocking and with a size limit) and ``replay_states``.

The format itself (header, action, chat, hint and undo lines, the digest chain) is defined in
:mod:`colosseum.core.gamelog`, which re-exports these names; they live here so that neither
module grows past what a reader can hold in mind.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.gamelog import (
    FORMAT,
    MAX_LOG_BYTES,
    READ_VERSIONS,
    UNDO_VERSION,
    ChatLine,
    GameLogError,
    Header,
    HintLine,
    UndoLine,
    Withdrawal,
    _split_digest,
    chain_next,
    chain_start,
    describe_action,
    reseeded,
)
from colosseum.core.names import printable, printable_names
from colosseum.core.registry import DEFAULT_GAME, game_names, spec
from colosseum.core.timeline import GameLog, Timeline

if TYPE_CHECKING:
    from colosseum.core.game import Rules

try:  # the program version, for messages about logs written by another one
    from colosseum import __version__ as PROGRAM_VERSION
except ImportError:  # pragma: no cover - running from an odd layout
    PROGRAM_VERSION = "unknown"

__all__ = ["parse_log", "printable_header", "read_fd", "read_log", "read_log_bytes", "replay_states"]


def _first_error_text(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0]


# What decoding a line of text can raise: malformed JSON or the wrong shape (ValidationError is
# a DecodeError), and RecursionError for JSON nested too deeply.
_DECODE_ERRORS: tuple[type[Exception], ...] = (msgspec.DecodeError, RecursionError)


def _probe(line: str) -> Any:
    return msgspec.json.decode(line)


_header_dec = msgspec.json.Decoder(Header)
# each game's action decoder, made when a log of that game is first read: a Colosseum game never
# loads another game's engine
_action_decs: dict[str, msgspec.json.Decoder[Any]] = {}


def _action_decoder(rules: Rules[Any, Any, Any]) -> msgspec.json.Decoder[Any]:
    found = _action_decs.get(rules.spec.name)
    if found is None:
        found = _action_decs[rules.spec.name] = msgspec.json.Decoder(rules.action_type)
    return found


_chat_dec = msgspec.json.Decoder(ChatLine)
_hint_dec = msgspec.json.Decoder(HintLine)


class _HintProbe(msgspec.Struct):
    """A chat line with a ``hint`` key is a hint line (see ``HintLine``)."""

    hint: Any = None


_hint_probe_dec = msgspec.json.Decoder(_HintProbe)


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
    game = obj.get("game")
    if game is not None and (not isinstance(game, str) or game == DEFAULT_GAME or game not in game_names()):
        # the default game is never written: its header names none
        raise GameLogError("header", f"a game this program does not play ({game!r})", 1)
    version = obj.get("version")
    if version not in READ_VERSIONS or isinstance(version, bool):
        newer = isinstance(version, int) and not isinstance(version, bool) and version > max(READ_VERSIONS)
        raise GameLogError(
            "version",
            f"unknown format version {version!r} (this program, colosseum {PROGRAM_VERSION}, reads versions "
            f"{', '.join(map(str, READ_VERSIONS))}"
            + ("; the log was written by a newer colosseum: update to read it" if newer else "")
            + ")",
            1,
        )
    try:
        header = _header_dec.decode(text)
    except _DECODE_ERRORS as e:
        raise GameLogError("header", f"bad header: {_first_error_text(e)}", 1) from None
    try:
        setup_type = spec(game).setup_type
    except ValueError as e:
        raise GameLogError("header", str(e), 1) from None
    try:
        header.setup = msgspec.convert(header.setup, setup_type, strict=True).read_from_log(header.version)
    except msgspec.ValidationError as e:
        detail = _first_error_text(e)
        if "unknown field" in detail:
            raise GameLogError(
                "version",
                f"the game's setup has a field this program (colosseum {PROGRAM_VERSION}) does not know "
                f"({detail.split('unknown field ')[-1]}): the log was written by colosseum {printable(header.program)}; "
                "update to read it",
                1,
            ) from None
        raise GameLogError("header", f"bad game setup: {detail}", 1) from None
    printable_header(header)
    if len(header.seats) != len(header.setup.players):
        raise GameLogError(
            "header", f"bad header: {len(header.seats)} seats for {len(header.setup.players)} players", 1
        )
    return header


def printable_header(header: Header) -> None:
    """``header``'s text made printable (``core.names``): a name, a seat or the program with a
    control character (an older program's log, or one made by hand) is read with ``?`` for it,
    so that no output sends it to a terminal.  Only what is read changes: the file and its
    digest chain (over the lines as written) are left as they are."""
    players = header.setup.players
    shown = printable_names(players)
    if shown != tuple(players):
        header.setup = msgspec.structs.replace(header.setup, players=shown)
    header.seats = tuple(printable(k) for k in header.seats)
    header.program = printable(header.program)


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
    rules = spec(header.game).rules()
    play = rules.apply
    action_dec = _action_decoder(rules)
    try:
        state = reseeded(rules.new_game(header.setup), 0, point)
    except (RuleError, ValueError) as e:
        raise GameLogError("header", f"bad game setup: {_first_error_text(e)}", 1) from None
    except Exception as e:  # noqa: BLE001 - an engine bug must not make the file unreadable either
        raise GameLogError("engine", f"the engine failed on this setup ({type(e).__name__}: {e})", 1) from None

    actions: list[Any] = []
    states: list[Any] = [state]
    events: list[list[Event]] = [[]]
    error: GameLogError | None = None
    chat: list[ChatLine] = []
    hints: list[HintLine] = []
    undos: list[Withdrawal] = []
    version_note = (
        f" (the file was written by colosseum {header.program}; this is {PROGRAM_VERSION})"
        if header.program != PROGRAM_VERSION
        else ""
    )
    digest = chain_start(raw_lines[0]) if header.version >= 2 else None
    ended = False
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
        if digest is not None and text.startswith('{"end"'):
            if ended:
                error = GameLogError("edited", "a second end line (the log was edited here)", lineno)
                break
            problem = _end_line_problem(raw, digest, len(actions), rules.is_over(state))
            if problem is not None:
                kind = "truncated" if is_cut else "edited"
                if is_cut:
                    problem = "the last line is incomplete (the game stopped while saving it)"
                error = GameLogError(kind, problem, lineno)
                break
            ended = True
            continue
        if text.lstrip().startswith('{"undo"'):
            if ended:
                error = GameLogError("edited", "an undo line after the end line (the log was edited here)", lineno)
                break
            found = _read_undo(text, header, actions, lineno, is_cut)
            if isinstance(found, GameLogError):
                error = found
                break
            if digest is not None:
                digest, error = _chained(
                    raw, digest, f"the undo line of actions {found.line.undo} to {found.line.through}", lineno
                )
                if error is not None:
                    break
            at = found.at
            found.texts = tuple(" ".join(e.text for e in ev) for ev in events[at + 1 :])
            undos.append(found)
            del actions[at:], states[at + 1 :], events[at + 1 :]
            state = states[-1]
            continue
        if text.lstrip().startswith('{"chat"'):
            try:
                if _hint_probe_dec.decode(text).hint is not None:
                    hints.append(_with_actions(rules, _hint_dec.decode(text)))
                else:
                    said = _chat_dec.decode(text)
                    chat.append(msgspec.structs.replace(said, chat=printable(said.chat), name=printable(said.name)))
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
            action = action_dec.decode(text)
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
        if ended:
            error = GameLogError("edited", "an action after the end line (the log was edited here)", lineno)
            break
        try:
            state_after, ev = play(state, action)
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
        if digest is not None:
            digest, error = _chained(raw, digest, f"action {number}", lineno)
            if error is not None:
                break
        state = reseeded(state_after, len(actions) + 1, point)
        actions.append(action)
        states.append(state)
        events.append(ev)

    if error is None and digest is not None and not ended and rules.is_over(state):
        error = GameLogError("cut", "the game ended but its end line is missing (the log was cut here)", total + 1)
    timeline = Timeline(rules, header.setup, actions, _states=states, _events=events, reseed=point)
    return GameLog(
        header,
        timeline,
        error,
        lines=total,
        terminated=terminated,
        path=path,
        chat=chat,
        hints=hints,
        digest=digest,
        ended=ended,
        undos=undos,
    )


def _with_actions(rules: Rules[Any, Any, Any], line: HintLine) -> HintLine:
    """A hint line with each option's action as the game's own action (as written)."""
    options = tuple(
        msgspec.structs.replace(o, action=msgspec.convert(o.action, rules.action_type, strict=True)) for o in line.hint
    )
    return msgspec.structs.replace(line, hint=options)


def _chained(raw: bytes, digest: bytes, what: str, lineno: int) -> tuple[bytes, GameLogError | None]:
    """The chain after a line that must carry the next digest, or the error naming the line."""
    parts = _split_digest(raw)
    if parts is None:
        return digest, GameLogError("edited", f"{what} carries no digest (the log was edited here)", lineno)
    after = chain_next(digest, parts[0])
    if after.hex() != parts[1]:
        return digest, GameLogError(
            "edited",
            f"{what} does not match the lines before it (the log was edited here, or lines before it were removed)",
            lineno,
        )
    return after, None


def _end_line_problem(raw: bytes, digest: bytes, count: int, over: bool) -> str | None:
    """What is wrong with an end line (None if it closes this game)."""
    parts = _split_digest(raw)
    if parts is None or parts[0] != b'{"end":%d}' % count:
        return f"not the end line of a game of {count} actions (the log was edited or cut here)"
    if chain_next(digest, parts[0]).hex() != parts[1]:
        return "the end line does not match the lines before it (the log was edited here)"
    if not over:
        return f"an end line after action {count}, but the game is not over (the log was edited here)"
    return None


_undo_dec = msgspec.json.Decoder(UndoLine)


def _read_undo(text: str, header: Header, actions: list[Any], lineno: int, is_cut: bool) -> Withdrawal | GameLogError:
    """An undo line checked against the actions in effect, or the error."""
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
    return Withdrawal(line=line, at=line.undo - 1, actions=tuple(actions[line.undo - 1 :]), lineno=lineno)


def read_log(path: str | Path) -> GameLog:
    """Read and replay the log at ``path`` (never writes to it).  Raises GameLogError when the
    file cannot be read at all or has no usable header."""
    p = Path(path)
    return parse_log(read_log_bytes(p), path=p)


def read_log_bytes(path: Path) -> bytes:
    """The bytes of the file at ``path`` if it is a regular file of at most ``MAX_LOG_BYTES``;
    else GameLogError ("unreadable").  Never blocks on a FIFO nor reads a device."""
    try:
        # O_NONBLOCK: opening a FIFO without a writer must not hang; the check below refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise GameLogError("unreadable", f"no such file: {path}") from None
    except IsADirectoryError:
        raise GameLogError("unreadable", f"{path} is a folder, not a game log") from None
    except OSError as e:
        raise GameLogError("unreadable", f"cannot read {path}: {e.strerror or e}") from None
    try:
        return read_fd(fd, path)
    finally:
        os.close(fd)


def read_fd(fd: int, path: Path) -> bytes:
    """The whole regular file open as ``fd`` (read with ``pread``: the offset is left as it is)."""
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise GameLogError("unreadable", f"{path} is a folder, not a game log")
        if not stat.S_ISREG(info.st_mode):
            raise GameLogError("unreadable", f"{path} is not a regular file (a device, pipe or socket)")
        if info.st_size > MAX_LOG_BYTES:
            raise GameLogError("unreadable", f"{path} is too large to be a game log ({info.st_size} bytes)")
        parts = []
        pos = 0
        while pos <= MAX_LOG_BYTES:
            chunk = os.pread(fd, 1 << 20, pos)
            if not chunk:
                break
            parts.append(chunk)
            pos += len(chunk)
        if pos > MAX_LOG_BYTES:  # it grew while being read
            raise GameLogError("unreadable", f"{path} is too large to be a game log")
        return b"".join(parts)
    except OSError as e:
        raise GameLogError("unreadable", f"cannot read {path}: {e.strerror or e}") from None


def replay_states(log: GameLog) -> list[Any]:
    """Every position of the valid prefix (0..len(actions))."""
    tl = log.timeline
    return [tl.state(i) for i in range(len(tl))]
