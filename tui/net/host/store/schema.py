"""The lobby's database: its tables, as SQLAlchemy Core ``Table`` objects (no ORM).

The same schema on SQLite (the default, a file in the server's data folder) and PostgreSQL
(``--database URL``); Alembic's migrations (``store/migrations``) create and change it.  Game
logs stay files (or, with several hosts, rows of ``log_lines``); here are their digests.

Times are seconds since the epoch (float); options are the setup's options as JSON values.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

#: a person: one or more SSH keys, one name (unique by ``name_key``: case and look-alikes folded)
players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False),
    Column("name_key", String(160), nullable=False, unique=True),
    Column("created", Float, nullable=False),
    Column("blocked", Boolean, nullable=False, default=False),
    Column("blocked_why", String(200), nullable=False, default=""),
)

#: the SSH keys a player logs in with (``SHA256:...`` fingerprints)
keys = Table(
    "keys",
    metadata,
    Column("fingerprint", String(120), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("public_key", Text, nullable=False, default=""),
    Column("added", Float, nullable=False),
)

#: live tables (waiting or playing) and their seats
tables = Table(
    "tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(120), nullable=False),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("creator", Integer, ForeignKey("players.id"), nullable=True),
    Column("status", String(20), nullable=False),  # waiting, playing, over
    Column("created", Float, nullable=False),
    Column("rated", Boolean, nullable=False, default=False),
    Column("code", String(20), nullable=True, unique=True),  # a private table's invitation code
    Column("tempo", String(20), nullable=False, default="live"),  # live (a time bank) or turns (days)
    Column("clock", JSON, nullable=False),  # the time bank or the deadline per move
    Column("meta", JSON, nullable=False),  # the rest of the table's description
)
Index("ix_tables_status", tables.c.status)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(40), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(40), nullable=False),  # "human" or a bot level
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True, index=True),
    Column("name", String(80), nullable=False, default=""),
)

#: finished games: one row each, written once (the id is the game's own: a retry cannot double it)
games = Table(
    "games",
    metadata,
    Column("id", String(80), primary_key=True),
    Column("table_id", String(40), nullable=False),
    Column("table_name", String(120), nullable=False),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("edition", String(200), nullable=False, default=""),
    Column("started", Float, nullable=False),
    Column("ended", Float, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("actions", Integer, nullable=False),
    Column("log", String(500), nullable=False),  # the log's file name in the games folder
    Column("digest", String(40), nullable=False, default=""),  # the log's last digest
)
Index("ix_games_ended", games.c.ended)

results = Table(
    "results",
    metadata,
    Column("game_id", String(80), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=True, index=True),
    Column("name", String(80), nullable=False),
    Column("kind", String(40), nullable=False),  # "human" or the bot's level
    Column("rank", Integer, nullable=False),  # 1 = first; a shared place has one number
    Column("score", Integer, nullable=False),
    Column("left", Boolean, nullable=False, default=False),  # left a rated game: counted last
)

#: each person's rating per game (openskill, Bradley-Terry Full)
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

#: every rated game's change to each person's rating, in the order applied (rebuildable)
rating_history = Table(
    "rating_history",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(80), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(40), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", Float, nullable=False),
)
Index("ix_rating_history_player", rating_history.c.player_id, rating_history.c.game)
Index("ix_rating_history_game_id", rating_history.c.game_id)

#: facts about the store itself (e.g. that an older data folder was imported)
store_meta = Table(
    "store_meta",
    metadata,
    Column("key", String(80), primary_key=True),
    Column("value", Text, nullable=False),
)

# ---------------------------------------------------------------- several hosts (0002)

#: the hosts of one server (several behind one address share the database)
hosts = Table(
    "hosts",
    metadata,
    Column("id", String(80), primary_key=True),
    Column("address", Text, nullable=False),  # a peer address (0004: no length limit)
    Column("started", Float, nullable=False),
    Column("seen", Float, nullable=False),
)

#: which host owns each table, until when, and the generation that fences a host which lost it
leases = Table(
    "leases",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("host", String(80), nullable=False),
    Column("gen", Integer, nullable=False),
    Column("until", Float, nullable=False),
)

#: the tables' logs as rows: the same lines (and digest chain) as the files of a single host
log_lines = Table(
    "log_lines",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("body", Text, nullable=False),
    Column("gen", Integer, nullable=False),
)

#: every live table's description, published by its owner for every host's lobby (0003)
cluster_tables = Table(
    "cluster_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("host", String(80), nullable=False),
    Column("status", String(20), nullable=False),
    Column("meta", Text, nullable=False),
    Column("info", Text, nullable=False),
    Column("updated", Float, nullable=False),
)

#: the finished games of every host, in the order they ended (each host copies the others')
cluster_history = Table(
    "cluster_history",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("id", String(40), nullable=False, unique=True),
    Column("host", String(80), nullable=False),
    Column("entry", Text, nullable=False),
    Column("meta", Text, nullable=False),
)
