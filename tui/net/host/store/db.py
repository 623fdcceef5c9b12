"""Opening the lobby's database: SQLite in WAL mode in the server's data folder by default,
PostgreSQL through ``--database postgresql+asyncpg://...``, the same code on both (SQLAlchemy 2
Core, async).  The schema is brought up to date with Alembic when the store opens.

What can go wrong at the start is one line for the operator (:class:`StoreError`): a SQLite file
locked by another server or damaged, a PostgreSQL server that does not answer.
"""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

__all__ = ["StoreError", "default_url", "make_engine", "migrate", "take_turns"]

SQLITE_FILE = "lobby.db"


class StoreError(Exception):
    """The database cannot be used: ``str(err)`` is one line saying why and what to do."""


def default_url(data: Path) -> str:
    return f"sqlite+aiosqlite:///{data / SQLITE_FILE}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL: a power cut loses at most the last commits
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """An engine for ``url`` (sqlite+aiosqlite or postgresql+asyncpg)."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 5})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    if url.startswith("postgresql"):
        return create_async_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)
    raise StoreError(f"unknown database URL {url!r}: use sqlite+aiosqlite:///FILE or postgresql+asyncpg://...")


def _upgrade(connection: Connection) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("colosseum.tui.net.host.store") / "migrations"))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


#: the PostgreSQL advisory lock the hosts of one database take to bring its schema up to date
#: one at a time (any number that no other program on the database uses)
MIGRATE_LOCK = 0x436F6C6F  # "Colo"


async def take_turns(conn: AsyncConnection) -> None:
    """Hosts starting at once on one PostgreSQL database do what follows in ``conn``'s
    transaction one at a time (an advisory lock held until it ends; SQLite: one host a file)."""
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATE_LOCK})


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema up to date (creates it in a new database); StoreError if impossible.
    Several hosts started at once on a new PostgreSQL database take turns (``take_turns``):
    the first creates the schema, the others find it made."""
    try:
        async with engine.begin() as conn:
            await take_turns(conn)
            await conn.run_sync(_upgrade)
    except (OperationalError, DBAPIError, sqlite3.DatabaseError, OSError) as err:
        raise StoreError(describe(err, engine)) from None


def describe(err: BaseException, engine: AsyncEngine) -> str:
    """A database error in one line for the operator."""
    url = engine.url
    text = str(getattr(err, "orig", None) or err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    if url.get_backend_name() == "sqlite":
        where = url.database or "?"
        if "locked" in text:
            return f"the lobby database {where} is locked (is another server running on this data folder?)"
        if "not a database" in text or "malformed" in text or "disk image" in text:
            return f"the lobby database {where} is damaged ({text}); move it aside to start with a new one"
        return f"the lobby database {where} cannot be used: {text}"
    return f"the lobby database at {url.render_as_string(hide_password=True)} cannot be used: {text}"
