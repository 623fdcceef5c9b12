"""A game log as a readable record (``colosseum export``) or as one JSON document of every
position (``colosseum export --format json``), for every game.  Formatting only: no files, no
Textual.

The record's head is the shell's (the game and its edition, the file, when, the options, the
players, where it came from); its body is the game's (``GameClient.record_lines``), with the
decisions taken back shown where the game went back to, and at the end of a finished game where
each player's points came from (``scoresheet``)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from colosseum.core.names import printable
from colosseum.core.options import SetupBase
from colosseum.core.timeline import GameLog

from .client import GameClient, load_client
from .scoresheet import all_lines, sheet_of
from .setups import edition_title, option_words

# ``text`` (terminal cells) needs rich: imported where used, so ``colosseum simulate`` loads neither

__all__ = ["export_json_chunks", "export_text", "local_date", "players_text", "taken_back_lines"]


def players_text(setup: SetupBase, seats: Iterable[str], width: int | None = None) -> str:
    """``Becky, Kat (random), Laura (greedy)``: a bot seat says which bot.  With ``width``, cut
    to at most that many terminal cells (a CJK name takes two a character)."""
    text = ", ".join(p if k == "human" else f"{p} ({k})" for p, k in zip(setup.players, seats, strict=False))
    if width is None:
        return text
    from .text import fit

    return fit(text, width)


def local_date(iso: str) -> str:
    """A header's UTC time (``2026-11-29T14:12:05Z``) as local ``2026-11-29 15:12``."""
    try:
        t = _dt.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=_dt.UTC)
        return t.astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16] or "?"


def head_lines(log: GameLog, client: GameClient) -> list[str]:
    """The record's head: title, file, when, options, players, where it came from, actions."""
    setup = log.setup
    out = [f"{edition_title(setup)}: game record"]
    if log.path is not None:
        out.append(f"File:     {printable(log.path.name)}")
    out.append(
        f"Created:  {local_date(log.header.created)}   (colosseum {log.header.program}, log format {log.header.version})"
    )
    options = option_words(setup, words=client.header_words, skip_edition=True)
    out.append(f"Options:  {', '.join(options) or 'none'}   seed: {setup.seed}")
    out.append(f"Players:  {players_text(setup, log.seats)}")
    if log.header.resumed_from:
        out.append(f"Continues the log {log.header.resumed_from} (damaged, or not writable)")
    out += _fork_lines(log)
    out.append(f"Actions:  {log.timeline.end}")
    if log.undos:
        out.append(f"Taken back: {len(log.undos)} time{'s' if len(log.undos) != 1 else ''} (shown in [brackets])")
    return out


def export_text(log: GameLog) -> str:
    """A readable record of the game: the shell's head, the game's body from the engine's events."""
    client = load_client(log.spec)
    out = head_lines(log, client)
    out += client.record_lines(log, taken_back_lines(log, client))
    sheet = sheet_of(log.rules, log.timeline)
    if sheet is not None:
        out += ["", "== Where the points came from =="]
        out += all_lines(sheet, log.rules.names(log.timeline.state(log.timeline.end)))
    if log.error is not None:
        out += ["", f"The log is damaged after this point: {log.error}"]
    return "\n".join(out) + "\n"


def _fork_lines(log: GameLog) -> list[str]:
    h = log.header
    out = []
    if h.fork_of:
        out.append(f"Fork of:  {h.fork_of} after its first {h.fork_at} actions")
    if h.reseed_at is not None:
        out.append(f"New chance from action {h.reseed_at} on (reseeded)")
    return out


def taken_back_lines(log: GameLog, client: GameClient) -> dict[int, list[str]]:
    """Lines for each take-back, by the position the game went back to (a body puts them after
    the action leading there; 0: before the first)."""
    out: dict[int, list[str]] = {}
    tl = log.timeline
    for w in log.undos:
        n = len(w.actions)
        who = w.line.text or f"{w.line.name or 'A player'} took back"
        lines = [f"  [{who} - {n} action{'s' if n != 1 else ''} withdrawn:"]
        for k, action in enumerate(w.actions):
            text = w.texts[k] if k < len(w.texts) and w.texts[k] else _quiet(client, tl, w.at, action)
            lines.append(f"     ({w.at + 1 + k}. {text})")
        lines[-1] += "]"
        out.setdefault(w.at, []).extend(lines)
    return out


def _quiet(client: GameClient, tl: Any, at: int, action: Any) -> str:
    """A sentence for a withdrawn decision the engine logs none for."""
    try:
        state = tl.state(min(at, tl.end))
    except IndexError:
        state = tl.state(0)
    return client.history_text(state, action)


def export_json_chunks(log: GameLog) -> Iterator[bytes]:
    """One JSON document: {"header", "error", "positions": [{index, action, events, state}]},
    one position per line (the full replayed state after each action)."""
    enc = msgspec.json.Encoder()
    tl = log.timeline
    err = None
    if log.error is not None:
        err = {"line": log.error.line, "kind": log.error.kind, "message": str(log.error)}
    head = b'{"header":' + enc.encode(log.header) + b',\n"error":' + enc.encode(err)
    if log.undos:  # what was taken back: the undo line, where the game went back to, the actions
        head += b',\n"undos":' + enc.encode(
            [{"line": w.line, "at": w.at, "actions": w.actions, "lineno": w.lineno} for w in log.undos]
        )
    yield head + b',\n"positions":[\n'
    for i in range(len(tl)):
        action = tl.actions[i - 1] if i else None
        item = b'{"index":%d,"action":%s,"events":%s,"state":%s}' % (
            i,
            enc.encode(action),
            enc.encode(tl.events(i)),
            enc.encode(tl.state(i)),
        )
        yield item + (b",\n" if i < tl.end else b"\n")
    yield b"]}\n"
