"""The lobby's memory: players and their keys, finished games and their results, ratings.

A real database (SQLAlchemy 2 Core, async): SQLite in WAL mode in the server's data folder by
default (nothing to install or start), PostgreSQL with ``--database URL`` for a server that
outgrows a file or runs on several hosts; migrations with Alembic.  Game logs stay files (their
digests are here).

Nothing acknowledged is lost when the database is away (PostgreSQL stopped mid-game): a
finished game's record goes to ``pending.jsonl`` in the data folder (synced) and is written when
the database answers again, once (a game's row is keyed by the game's own id).

Modules: ``schema`` (the tables), ``db`` (opening, migrations, errors), ``ratings`` (openskill),
``accounts``, ``records`` (finished games, ratings, leaderboards), ``pending`` (the outbox),
``legacy`` (an older data folder's names and history, imported once).
"""

from __future__ import annotations

from colosseum.tui.net.host.store.db import StoreError
from colosseum.tui.net.host.store.records import FinishedGame, SeatResult
from colosseum.tui.net.host.store.store import Player, Store

__all__ = ["FinishedGame", "Player", "SeatResult", "Store", "StoreError"]
