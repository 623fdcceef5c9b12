"""The lobby's first schema: players and their keys, live tables and seats, finished games and
their results, ratings and their history.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("blocked", sa.Boolean, nullable=False),
        sa.Column("blocked_why", sa.String(200), nullable=False),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
    )
    op.create_table(
        "keys",
        sa.Column("fingerprint", sa.String(120), primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE", name="fk_keys_player_id_players"),
            nullable=False,
        ),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("added", sa.Float, nullable=False),
    )
    op.create_index("ix_keys_player_id", "keys", ["player_id"])
    op.create_table(
        "tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("creator", sa.Integer, sa.ForeignKey("players.id", name="fk_tables_creator_players"), nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("code", sa.String(20), nullable=True),
        sa.Column("tempo", sa.String(20), nullable=False),
        sa.Column("clock", sa.JSON, nullable=False),
        sa.Column("meta", sa.JSON, nullable=False),
        sa.UniqueConstraint("code", name="uq_tables_code"),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "table_id",
            sa.String(40),
            sa.ForeignKey("tables.id", ondelete="CASCADE", name="fk_seats_table_id_tables"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column(
            "player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_seats_player_id_players"), nullable=True
        ),
        sa.Column("name", sa.String(80), nullable=False),
    )
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("table_name", sa.String(120), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("edition", sa.String(200), nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("log", sa.String(500), nullable=False),
        sa.Column("digest", sa.String(40), nullable=False),
    )
    op.create_index("ix_games_ended", "games", ["ended"])
    op.create_table(
        "results",
        sa.Column(
            "game_id",
            sa.String(80),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_results_game_id_games"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column(
            "player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_results_player_id_players"), nullable=True
        ),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
    )
    op.create_index("ix_results_player_id", "results", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE", name="fk_ratings_player_id_players"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(80),
            sa.ForeignKey("games.id", ondelete="CASCADE", name="fk_rating_history_game_id_games"),
            nullable=False,
        ),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE", name="fk_rating_history_player_id_players"),
            nullable=False,
        ),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player_id", "game"])
    op.create_index("ix_rating_history_game_id", "rating_history", ["game_id"])
    op.create_table(
        "store_meta",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("store_meta", "rating_history", "ratings", "results", "games", "seats", "tables", "keys", "players"):
        op.drop_table(table)
