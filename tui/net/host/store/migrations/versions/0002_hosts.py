"""Several hosts, one lobby: the hosts of a server, each table's lease (one host owns a table
at a time, fenced by a generation), and the tables' logs as rows (the same lines as the files).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hosts",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("address", sa.String(200), nullable=False),  # where the other hosts reach its tables
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),  # its last heartbeat
    )
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("host", sa.String(80), nullable=False),
        sa.Column("gen", sa.Integer, nullable=False),  # +1 at each take-over: a fence
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_table(
        "log_lines",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),  # the line's number in the file form (1: header)
        sa.Column("body", sa.Text, nullable=False),  # the line as written, without its newline
        sa.Column("gen", sa.Integer, nullable=False),  # the lease generation that wrote it
    )


def downgrade() -> None:
    for table in ("log_lines", "leases", "hosts"):
        op.drop_table(table)
