"""Colosseum in the terminal.  ``colosseum.core`` is the rules engine (no UI);
``colosseum.tui`` the Textual client; ``colosseum.themes`` its themes."""

__version__ = "0.1.0"
