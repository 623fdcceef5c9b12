"""Alembic's environment for the lobby's database: run in the server's process, on the
connection the store gives it (``config.attributes["connection"]``); never from a URL here."""

from __future__ import annotations

from alembic import context

from colosseum.tui.net.host.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
