"""The store the server holds: one object over the database, with the outbox for the times the
database is away.  Every method is a coroutine on the server's event loop."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from colosseum.tui.net.host.store import accounts, legacy, records
from colosseum.tui.net.host.store.accounts import Player, Refused
from colosseum.tui.net.host.store.db import StoreError, default_url, describe, make_engine, migrate
from colosseum.tui.net.host.store.pending import Pending
from colosseum.tui.net.host.store.ratings import Rating
from colosseum.tui.net.host.store.records import FinishedGame, GameRow, LeaderRow

__all__ = ["Player", "Refused", "Store", "StoreError"]

log = logging.getLogger("colosseum.store")
T = TypeVar("T")

#: what the database raises when it is away (stopped, unreachable, a connection cut)
UNAVAILABLE: tuple[type[BaseException], ...] = (OperationalError, DBAPIError, OSError, sqlite3.OperationalError)


class Store:
    """The lobby's database.  ``await Store.open(data, url)``; ``await store.close()``."""

    def __init__(self, engine: AsyncEngine, data: Path) -> None:
        self.engine = engine
        self.data = data
        self.pending = Pending(data / "pending.jsonl")

    @classmethod
    async def open(cls, data: Path, url: str | None = None) -> Store:
        """The store of the server whose data folder is ``data`` (``url``: another database
        than the folder's SQLite file).  StoreError with one line if it cannot be used."""
        engine = make_engine(url or default_url(data))
        await migrate(engine)
        store = cls(engine, data)
        await store.write(lambda conn: legacy.import_once(conn, data))
        await store.flush()
        return store

    async def close(self) -> None:
        await self.engine.dispose()

    # ------------------------------------------------------------------ transactions
    async def read(self, fn: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        try:
            async with self.engine.connect() as conn:
                return await fn(conn)
        except UNAVAILABLE as err:
            raise StoreError(describe(err, self.engine)) from None

    async def write(self, fn: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        try:
            async with self.engine.begin() as conn:
                return await fn(conn)
        except IntegrityError:
            raise
        except UNAVAILABLE as err:
            raise StoreError(describe(err, self.engine)) from None

    # ------------------------------------------------------------------ accounts
    async def login(self, name: str, fingerprint: str, public_key: str = "") -> Player:
        """The player of this key (or a new one called ``name``); Refused, or StoreError when
        the database is away (a server with a database away lets known names in: its caller)."""
        return await self.write(lambda conn: accounts.login(conn, name, fingerprint, public_key))

    async def player(self, player_id: int) -> Player | None:
        return await self.read(lambda conn: accounts.by_id(conn, player_id))

    async def player_named(self, name: str) -> Player | None:
        return await self.read(lambda conn: accounts.by_name(conn, name))

    async def player_for_key(self, fingerprint: str) -> Player | None:
        return await self.read(lambda conn: accounts.by_key(conn, fingerprint))

    async def add_key(self, player_id: int, fingerprint: str, public_key: str = "") -> None:
        await self.write(lambda conn: accounts.add_key(conn, player_id, fingerprint, public_key))

    async def keys(self, player_id: int) -> list[str]:
        return await self.read(lambda conn: accounts.keys_of(conn, player_id))

    async def rename(self, player_id: int, name: str) -> str:
        return await self.write(lambda conn: accounts.rename(conn, player_id, name))

    async def set_blocked(self, name: str, blocked: bool, why: str = "") -> Player:
        return await self.write(lambda conn: accounts.set_blocked(conn, name, blocked, why))

    async def players(
        self, *, blocked_only: bool = False, offset: int = 0, limit: int = 50
    ) -> tuple[list[Player], int]:
        return await self.read(
            lambda conn: accounts.listing(conn, blocked_only=blocked_only, offset=offset, limit=limit)
        )

    # ------------------------------------------------------------------ finished games
    async def record(self, game: FinishedGame) -> bool:
        """Write a finished game (results, ratings), once.  When the database is away the game
        waits in the outbox (synced) and True is still returned: it is kept, and written by
        ``flush`` later, in order.  An OSError only if even the outbox cannot be written."""
        if len(self.pending):
            await self.flush()
        if len(self.pending):  # still away: keep the order
            self.pending.add(game)
            return True
        try:
            await self.write(lambda conn: records.write(conn, game))
        except StoreError as err:
            log.warning("database away (%s): game %s kept in %s", err, game.id, self.pending.path)
            self.pending.add(game)
        except IntegrityError:  # written by another host or an earlier try: once is enough
            pass
        return True

    async def flush(self) -> int:
        """Write what waits in the outbox, oldest first; the number written (0 while the
        database is away)."""
        waiting = self.pending.games()
        done = 0
        for game in waiting:
            try:
                await self.write(partial(records.write, game=game))
            except StoreError:
                break
            except IntegrityError:
                pass
            done += 1
        if done:
            self.pending.keep_only(waiting[done:])
            log.info("%d finished game(s) written from the outbox", done)
        return done

    async def leaderboard(self, game: str, offset: int = 0, limit: int = 20) -> list[LeaderRow]:
        return await self.read(lambda conn: records.leaderboard(conn, game, offset, limit))

    async def finished(
        self, *, player_id: int | None = None, game: str | None = None, offset: int = 0, limit: int = 20
    ) -> tuple[list[GameRow], int]:
        return await self.read(
            lambda conn: records.finished(conn, player_id=player_id, game=game, offset=offset, limit=limit)
        )

    async def rating(self, player_id: int, game: str) -> Rating:
        found = await self.read(lambda conn: records.current(conn, [player_id], game, lock=False))
        return found.get(player_id, Rating())

    async def rating_history(self, player_id: int, game: str) -> list[tuple[float, Rating]]:
        return await self.read(lambda conn: records.history(conn, player_id, game))

    async def rebuild_ratings(self) -> int:
        """Every rating again from the stored results (``colosseum serve admin ratings``)."""
        return await self.write(records.rebuild)
