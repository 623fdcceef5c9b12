"""Several hosts, one lobby: every live table's description for every host's lobby (its owner
publishes it; the others list it and send players to the owner), and the finished games (each
host copies the others' into its own history).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cluster_tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("host", sa.String(80), nullable=False),  # the host that published it last (its owner)
        sa.Column("status", sa.String(20), nullable=False),  # waiting or playing
        sa.Column("meta", sa.Text, nullable=False),  # the table's description (JSON, host.meta.TableMeta)
        sa.Column("info", sa.Text, nullable=False),  # what the lobby shows (JSON, protocol.TableInfo)
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "cluster_history",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),  # the order the games ended in
        sa.Column("id", sa.String(40), nullable=False, unique=True),  # the table's id
        sa.Column("host", sa.String(80), nullable=False),
        sa.Column("entry", sa.Text, nullable=False),  # the history line (JSON, protocol.HistoryInfo)
        sa.Column("meta", sa.Text, nullable=False),  # the table's description (JSON, host.meta.TableMeta)
    )


def downgrade() -> None:
    op.drop_table("cluster_history")
    op.drop_table("cluster_tables")
