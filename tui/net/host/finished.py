"""Finished games for the lobby: a page of them (everyone's, or only the asker's), a finished
game move by move as the asker saw it (``ReviewGame``: the same ``Positions`` a live table's
review sends), and a new table forked from one of its positions (``ForkGame``).

A finished game is the pair its table left in the data folder: ``history/<id>.json`` (the
table's description, with who held each seat) and ``games/<id>.jsonl`` (its log, which holds
the chance: only the server reads it).  The asker sees the game as their seat saw it if they
played it (the identity that held the seat), else as a spectator did: nothing hidden from that
seat is sent, even after the end (D-75).
"""

from __future__ import annotations

import re
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from colosseum.core import rng
from colosseum.core.gamelog import GameLogError, make_header, reseeded
from colosseum.core.logread import read_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.timeline import GameLog

from . import protocol as P
from .conn import Conn
from .files import tail_lines
from .invites import may_see
from .meta import SeatMeta, TableMeta, history_entry, load_meta, seat_names
from .names import cells, clean_text
from .seen import positions

if TYPE_CHECKING:
    from .hub import TableServer
    from .table import Table

__all__ = ["fork_position", "fork_table", "history_tables", "review_game", "visible_page"]

GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,40}")
NO_GAME = "no finished game {gid!r} on this server"


def history_of(meta: TableMeta) -> P.HistoryInfo:
    """A finished table's history line when only its description is left (a table found over
    at a restart, from before this version kept a history)."""
    return P.HistoryInfo(
        id=meta.id,
        name=meta.name,
        players=[s.name or f"{s.kind} bot" for s in meta.seats],
        game=meta.game,
        edition=meta.edition,
        ended=time.time(),
        holders=[s.holder for s in meta.seats if s.holder],
        private=bool(meta.code),
    )


def holders_of(data: Path, entry: P.HistoryInfo) -> list[str]:
    """Who played a finished game (identities): its history line's, or (lines written before
    they said so) its table's description's."""
    if entry.holders:
        return entry.holders
    try:
        meta = load_meta((data / "history" / f"{entry.id}.json").read_bytes())
    except (OSError, msgspec.DecodeError, msgspec.ValidationError, ValueError):
        return []
    return [s.holder for s in meta.seats if s.holder]


def entries_since(server: TableServer, count: int) -> tuple[bool, list[tuple[int, P.HistoryInfo]]]:
    """The history's games written after its first ``count`` lines, newest first, each with its
    line (from the oldest); True first when the file was replaced (all of them: count again)."""
    again = server.history_count < count
    new = server.history_count - (0 if again else count)
    out = []
    for k, line in enumerate(tail_lines(server.data / "history.jsonl", 0, new) if new > 0 else []):
        try:
            out.append((server.history_count - 1 - k, history_entry(line)))
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
            continue
    return again, out


#: each asker's own finished games (newest first) and the history's length when they were
#: counted: a later page reads only the lines added since (at most ``MINE_CACHED`` askers kept)
_mine: dict[tuple[Path, str], tuple[int, list[P.HistoryInfo]]] = {}
MINE_CACHED = 256


def my_games(server: TableServer, player: str) -> list[P.HistoryInfo]:
    """The finished games ``player`` played, newest first."""
    key = (server.data, player)
    count, games = _mine.pop(key, (0, []))
    again, added = entries_since(server, count)
    mine = [entry for _line, entry in added if player in holders_of(server.data, entry)]
    games = mine + ([] if again else games)
    _mine[key] = (server.history_count, games)
    while len(_mine) > MINE_CACHED:
        del _mine[next(iter(_mine))]
    return games


#: each data folder's private finished games, (history lines counted, [(line from the oldest,
#: who played)]): a later page reads only the lines added since
_private: dict[Path, tuple[int, list[tuple[int, frozenset[str]]]]] = {}


def private_games(server: TableServer) -> list[tuple[int, frozenset[str]]]:
    """The private games of the history: each one's line (from the oldest) and who played it."""
    count, games = _private.get(server.data, (0, []))
    again, added = entries_since(server, count)
    found = [(line, frozenset(holders_of(server.data, e))) for line, e in reversed(added) if e.private]
    games = ([] if again else games) + found
    _private[server.data] = (server.history_count, games)
    return games


def visible_page(server: TableServer, hidden: list[int], offset: int, limit: int) -> list[P.HistoryInfo]:
    """Finished games newest first from the ``offset``-th one shown, leaving out the lines
    ``hidden`` (counted from the newest, ascending; none: a page of every game)."""
    line = offset  # the line of the offset-th game shown: past every hidden line before it
    for h in hidden:
        if h > line:
            break
        line += 1
    skip = set(hidden)
    out: list[P.HistoryInfo] = []
    while len(out) < limit and line < server.history_count:
        lines = tail_lines(server.data / "history.jsonl", line, limit - len(out))
        if not lines:
            break
        for k, text in enumerate(lines):
            if line + k not in skip:
                try:
                    out.append(history_entry(text))
                except (msgspec.DecodeError, ValueError):  # a line cut by a crash, or of a game gone
                    continue
        line += len(lines)
    return out[:limit]


def history_tables(server: TableServer, conn: Conn, msg: P.ListTables, offset: int, limit: int) -> P.Tables:
    """A page of the finished games, newest first: everyone's, or (``msg.mine``) those the
    asker played.  Who played is the server's to know: it is not sent."""
    if msg.mine:
        mine = my_games(server, conn.player)
        page, total = mine[offset : offset + limit], len(mine)
    else:  # a private game is left out for someone who did not play it, and not counted
        hidden = sorted(
            server.history_count - 1 - line for line, who in private_games(server) if conn.player not in who
        )
        page, total = visible_page(server, hidden, offset, limit), server.history_count - len(hidden)
    return P.Tables(
        tables=[],
        total=total,
        offset=offset,
        history=[msgspec.structs.replace(e, holders=[]) for e in page],
    )


def finished_game(data: Path, gid: str) -> tuple[TableMeta, GameLog] | str:
    """A finished game's description and log, or why there is none (one line).  ``gid``: the
    table's id, or the store's id of its game (``TABLE@DIGEST``, D-48)."""
    gid = gid.partition("@")[0]
    if not GAME_ID.fullmatch(gid):
        return NO_GAME.format(gid=gid[:40])
    try:
        meta = load_meta((data / "history" / f"{gid}.json").read_bytes())
        log = read_log(data / "games" / f"{gid}.jsonl")
    except (OSError, msgspec.DecodeError, msgspec.ValidationError, ValueError, GameLogError):
        return NO_GAME.format(gid=gid)
    return meta, log


def seat_of(meta: TableMeta, player: str) -> int | None:
    """The seat ``player`` held in a finished game (None: they did not play it)."""
    return next((i for i, s in enumerate(meta.seats) if s.holder and s.holder == player), None)


def review_game(server: TableServer, conn: Conn, msg: P.ReviewGame) -> P.Positions | str:
    """A finished game as the asker saw it (their seat's view, else a spectator's)."""
    found = finished_game(server.data, msg.game)
    if isinstance(found, str):
        return found
    meta, log = found
    if not may_see(meta, conn.player):
        return NO_GAME.format(gid=meta.id)
    seat = seat_of(meta, conn.player)
    timeline = log.timeline
    answer = positions(
        log.rules,
        log.setup,
        log.actions,
        lambda k: timeline.events(k + 1),
        seat,
        table=meta.id,
        start=msg.start,
        ref=msg.ref,
        reseed=log.header.reseed_point(),
    )
    answer.seats = list(log.seats)
    return answer


# ---------------------------------------------------------------- forks


def fork_table(server: TableServer, conn: Conn, msg: P.ForkGame) -> TableMeta | str:
    """The description of a new table that starts from position ``msg.at`` of a finished
    game, or why there is none."""
    found = finished_game(server.data, msg.game)
    if isinstance(found, str):
        return found
    parent, log = found
    if not may_see(parent, conn.player):
        return NO_GAME.format(gid=parent.id)
    n = len(log.actions)
    if not 0 <= msg.at < n or log.rules.is_over(log.timeline.state(msg.at)):
        return f"a fork starts before the game's end: after 0 to {n - 1} actions"
    ask = P.CreateTable(seats=list(msg.seats), name="", game=parent.game, options=dict(parent.options), sit=msg.sit)
    if len(msg.seats) != len(log.seats):
        return f"the game had {len(log.seats)} players: a fork has as many seats"
    if msg.sit < 0:
        return "you sit at the fork you make"
    why = server.create_refusal(conn, ask)
    if why:
        return why
    return TableMeta(
        id=server.new_id(),
        name=fork_name(parent.name, msg.at),
        game=parent.game,
        options=dict(parent.options),
        edition=parent.edition,
        allow_takeover=parent.allow_takeover,
        creator=conn.player,
        creator_name=conn.name,
        seats=[SeatMeta(kind=k) for k in msg.seats],
        seed=parent.seed,
        created=time.time(),
        fork_of=parent.id,
        fork_at=msg.at,
    )


def fork_position(table: Table) -> tuple[Any, Any]:
    """A fork table begins: the parent's setup under the players' names now, its first
    ``fork_at`` actions replayed, new chance from there (a generator state drawn now: the
    parent's draws after the fork point, which its players saw, do not come again); the fork's
    log names the parent and holds those actions.  Returns (setup, state)."""
    m, rules = table.meta, table.rules
    parent = read_log(table.server.data / "games" / f"{m.fork_of}.jsonl")
    setup = msgspec.structs.replace(parent.setup, players=tuple(seat_names(m.seats)))
    if m.reseed is None:
        m.reseed = rng.seed_state(secrets.randbits(63))
    point = (m.fork_at, m.reseed)
    actions = list(parent.actions[: m.fork_at])
    record = table.record
    state = rules.new_game(setup)
    record.actions, record.events, record.marks = [], [], [0]
    for a in actions:
        state, events = rules.apply(state, a)
        record.actions.append(a)
        record.events.extend(events)
        record.marks.append(len(record.events))
    state = reseeded(state, len(actions), point)
    header = make_header(
        setup, [s.kind for s in m.seats], fork_of=f"{m.fork_of}.jsonl", fork_at=m.fork_at, reseed=point
    )
    record.writer = LogWriter.create_at(record.path, header, actions)
    return setup, state


def fork_name(name: str, at: int) -> str:
    """A fork's table name: the parent's, shortened (``~``) so that "(fork at N)" stays whole
    within a name's cells (before, a long name lost the end of the note: "(fork a")."""
    note = f" (fork at {at})"
    room = P.TABLE_NAME_CELLS - cells(note)
    base = clean_text(name, room)
    if base != clean_text(name, P.TABLE_NAME_CELLS * 4):
        base = clean_text(base, room - 1) + "~"
    return base + note
