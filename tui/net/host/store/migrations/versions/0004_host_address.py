"""A host's peer address has no length limit: a ``tls:`` address carries the certificate's
SHA-256 pin (64 hex digits) beside a host name that may be 253 characters long, which did not fit
in the 200 characters of 0002.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hosts") as batch:
        batch.alter_column("address", existing_type=sa.String(200), type_=sa.Text, existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("hosts") as batch:
        batch.alter_column("address", existing_type=sa.Text, type_=sa.String(200), existing_nullable=False)
