"""An older server's data folder, taken into the database once: the names bound to keys
(``names.jsonl``) become accounts, and the finished games (``history.jsonl``, each with its log
in ``games/``) become finished games with their places and scores read from the log.  Nothing
in the folder is changed or removed; ``store_meta`` remembers that the import was done.

A key that an older server had bound to several names becomes one player, under the first name
bound to it (the others are noted in the server's log).  Imported games are unrated.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from colosseum.tui.net.host.store import accounts, records
from colosseum.tui.net.host.store import schema as S
from colosseum.tui.net.host.store.db import take_turns
from colosseum.tui.net.host.store.records import FinishedGame, SeatResult

__all__ = ["import_once"]

log = logging.getLogger("colosseum.store")
MARK = "imported_data_folder"


def _lines(path: Path) -> list[dict[str, Any]]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    out = []
    for line in data.split(b"\n"):
        try:
            obj = json.loads(line)
        except ValueError:  # a line cut by a crash, or blank
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return out


async def import_once(conn: AsyncConnection, data: Path) -> tuple[int, int]:
    """Import ``data``'s names and history if not done before; (players, games) imported.
    Hosts starting together take turns (the first imports, the others find it done)."""
    await take_turns(conn)
    done = (await conn.execute(select(S.store_meta.c.value).where(S.store_meta.c.key == MARK))).first()
    if done is not None:
        return (0, 0)
    players = 0
    for entry in _lines(data / "names.jsonl"):
        name, key = str(entry.get("name", "")), str(entry.get("key", ""))
        if not name or not key:
            continue
        try:
            await accounts.create(conn, name, key)
            players += 1
        except accounts.Refused as why:
            log.info("older name %r not imported: %s", name, why)
    games = 0
    for entry in _lines(data / "history.jsonl"):
        game = _finished(entry, data)
        if game is not None and await records.write(conn, game):
            games += 1
    await conn.execute(insert(S.store_meta).values(key=MARK, value=str(data)))
    if players or games:
        log.info("imported %d player(s) and %d finished game(s) from %s", players, games, data)
    return (players, games)


def _finished(entry: dict[str, Any], data: Path) -> FinishedGame | None:
    """A history line as a finished game, its places and scores from its log (None if the log
    cannot be read: the line alone says too little to keep)."""
    from colosseum.core.gamelog import GameLogError
    from colosseum.core.logread import read_log
    from colosseum.core.options import option_values

    tid = str(entry.get("id", ""))
    log_name = f"{tid}.jsonl"
    try:
        game_log = read_log(data / "games" / log_name)
    except (GameLogError, ValueError):
        log.info("finished game %s not imported: its log cannot be read", tid)
        return None
    rules = game_log.rules
    state = game_log.state
    ranks = rules.ranks(state)
    if ranks is None:
        return None
    scores = rules.scores(state)
    names = rules.names(state)
    seats = tuple(
        SeatResult(
            seat=i,
            name=names[i],
            kind=kind if kind == "human" else rules.level_of(kind),
            rank=ranks[i],
            score=scores[i],
        )
        for i, kind in enumerate(game_log.seats)
    )
    ended = float(entry.get("ended", 0.0) or 0.0)
    return FinishedGame(
        id=f"{tid}@{ended:.0f}",
        table_id=tid,
        table_name=str(entry.get("name", tid)),
        game=game_log.game,
        options=option_values(game_log.setup),
        started=ended,
        ended=ended,
        rated=False,
        actions=len(game_log.actions),
        log=log_name,
        digest=game_log.digest.hex() if game_log.digest else "",
        seats=seats,
    )
