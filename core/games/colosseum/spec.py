"""Colosseum as the registry knows it: its name, player counts, bot levels and setup type
(whose fields are its options).  Light: importing this loads no engine."""

from __future__ import annotations

from colosseum.core.game import GameSpec
from colosseum.core.games.colosseum.model import GameSetup

SPEC = GameSpec(
    name="colosseum",
    title="Colosseum",
    min_players=3,
    max_players=5,
    default_players=4,
    bot_levels=("easy", "normal", "hard", "expert"),
    setup_type=GameSetup,
    rules_path="colosseum.core.games.colosseum.rules:RULES",
    client_path="colosseum.tui.games.colosseum:CLIENT",
)
