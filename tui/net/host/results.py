"""A finished table's result in the lobby's store: who played (each person by their account),
their places and scores, whether the game was rated, the log's file and digest.

A result is never lost to a database that is away: it is appended (and synced) to the store's
outbox (``pending.jsonl``) when the game ends, before anything else, and written from there to
the database (at once, and again every ``RETRY_SECONDS`` while the database is away, and at
the next start).  Written twice, a game counts once (its id: the table's and its log's digest).

Rated tables (D-30, D-48): a table is rated when its creator asked and at least two people
sit at it when the game starts (else it plays unrated, and the server says so in its talk); a person for
whom a bot plays when the game ends (they left, ran out of time, or handed their seat over)
counts as last.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from . import protocol as P
from .gamelog_io import load
from .meta import TableMeta

if TYPE_CHECKING:
    from .store import FinishedGame, Store

__all__ = ["RETRY_SECONDS", "SERVER_NAME", "UNRATED", "Recorder", "finished_game", "rated_refusal", "settle_rated"]

log = logging.getLogger("colosseum.net")

RETRY_SECONDS = 10.0
SERVER_NAME = "(server)"  # who says the server's lines in a table's talk
UNRATED = "Fewer than two people sit at this table: the game is not rated."


def rated_refusal(msg: P.CreateTable, *, has_store: bool) -> str:
    """Why a table asked to be rated cannot be made ('' if it can): a server without a store
    keeps no ratings, and a rated table gives no hints (the strongest bot's advice would play
    for the asker: D-51)."""
    if not has_store:
        return "this server keeps no ratings: a table cannot be rated"
    if msg.hints:
        return "a rated table gives no hints: choose one or the other"
    return ""


def settle_rated(meta: TableMeta) -> str:
    """At the start: whether a table asked to be rated is (at least two people sit at it);
    the line its players are told when it is not ('' else)."""
    if meta.rated and sum(1 for s in meta.seats if s.kind == "human" and s.holder) < 2:
        meta.rated = False
        return UNRATED
    return ""


def finished_game(table: Any) -> FinishedGame | None:
    """``table``'s game as the store keeps it (a ``table.Table`` whose game is over; None if
    it is not)."""
    from .store import FinishedGame, SeatResult

    rules, state, meta = table.rules, table.state, table.meta
    ranks = rules.ranks(state) if state is not None else None
    if ranks is None:
        return None
    scores, names = rules.scores(state), rules.names(state)
    seats = []
    for i, s in enumerate(meta.seats):
        person = s.kind == "human" and bool(s.holder)
        seats.append(
            SeatResult(
                seat=i,
                name=names[i],
                kind="human" if person else rules.level_of(s.kind),
                identity=s.holder if person else "",
                rank=int(ranks[i]),
                score=int(scores[i]),
                left=person and i in table.standin,
            )
        )
    writer = table.record.writer
    digest = writer.digest if writer is not None else None
    if digest is None:
        try:
            digest = load(table.log_path).digest
        except (OSError, ValueError):
            digest = None
    started = meta.started or meta.created
    # the table's id and its log's last digest: the same game gives the same id (written once),
    # two hosts' tables that drew the same id (one database for several hosts) do not
    return FinishedGame(
        id=f"{meta.id}@{digest.hex()[:16]}" if digest else f"{meta.id}@{started:.0f}",
        table_id=meta.id,
        table_name=meta.name,
        game=meta.game,
        options=dict(meta.options),
        edition=meta.edition,
        started=started,
        ended=_ended(table),
        rated=meta.rated,
        actions=len(table.actions),
        log=table.log_path.name,
        digest=digest.hex() if digest else "",
        seats=tuple(seats),
    )


def _ended(table: Any) -> float:
    import time

    try:
        return float(table.log_path.stat().st_mtime)  # the last action's line (also after a restart)
    except OSError:
        return time.time()


class Recorder:
    """Hands finished games to the store: into the outbox at once (synced), then to the
    database, retried while it is away."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None

    def add(self, game: FinishedGame) -> None:
        try:
            self.store.pending.add(game)
        except OSError as err:  # not even the outbox: the game log and history line remain
            log.error("table %s: its result could not be kept for the database: %s", game.table_id, err)
            return
        log.info("table %s: result kept for the database (rated: %s)", game.table_id, game.rated)
        self.kick()

    def kick(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self.flush()
            if not self.store.pending.path.exists():
                return
            await asyncio.sleep(RETRY_SECONDS)

    async def flush(self) -> int:
        """Write what waits in the outbox (0 while the database is away)."""
        async with self.lock:
            try:
                return await self.store.flush()
            except Exception:  # noqa: BLE001 - kept in the outbox: tried again later
                log.exception("finished games not written to the database yet")
                return 0

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - what waits stays in the outbox
                pass


def history_line(table: Any) -> P.HistoryInfo:
    """A finished game (a ``table.Table``) as the history list shows it."""
    state, meta, rules = table.state, table.meta, table.rules
    names = list(rules.names(state)) if state is not None else []
    winners = rules.winners(state) if state is not None else ()
    return P.HistoryInfo(
        id=table.id,
        name=meta.name,
        players=names or [s.name or f"{s.kind} bot" for s in meta.seats],
        game=meta.game,
        edition=meta.edition,
        winner=", ".join(names[w] for w in winners),
        ended=time.time(),
        actions=len(table.actions),
        holders=[s.holder for s in meta.seats if s.holder],
        private=bool(meta.code),
    )
