"""Screens of the client: new game, main game, end, help and rules."""
