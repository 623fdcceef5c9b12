"""Municipium's client part (its ``GameSpec.client_path`` names ``CLIENT``): its panels, dialogs,
rules and help text, end screen and record.  Everything here reads
``colosseum.core.games.municipium`` and acts only through the session's ``submit``; no rule is
decided in the client.  Light: the panels and dialogs load when the shell first asks for them."""

from .client import CLIENT

__all__ = ["CLIENT"]
