"""Municipium as the registry knows it: its name, player counts, bot levels and setup type
(whose fields are its options).  Light: importing this loads no engine."""

from __future__ import annotations

from colosseum.core.game import GameSpec
from colosseum.core.games.municipium.model import MuniSetup

SPEC = GameSpec(
    name="municipium",
    title="Municipium",
    min_players=2,
    max_players=4,
    default_players=3,
    bot_levels=("easy", "normal", "hard", "expert"),
    setup_type=MuniSetup,
    rules_path="colosseum.core.games.municipium.rules:RULES",
    client_path="colosseum.tui.games.municipium:CLIENT",
    default_names=("Becky", "Kat", "Laura", "Marcus"),
)
