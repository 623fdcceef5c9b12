"""Colosseum's client part (its ``GameSpec.client_path`` names ``CLIENT``).  Light: the panels,
dialogs and texts load when the shell first asks for them."""

from .client import CLIENT

__all__ = ["CLIENT"]
