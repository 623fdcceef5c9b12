"""A game's values on the wire: that game's JSON (``Rules.encode``), read back with its own types."""

from __future__ import annotations

from typing import Any

from colosseum.core.game import Rules
from colosseum.core.registry import rules as rules_of

#: a game's setup, state or action in that game's JSON (``Rules.encode``)
GameData = bytes


class Codec:
    """A game's values on the wire: ``pack`` one (its JSON), and read each kind back with the
    game's own types.  Raises msgspec.DecodeError (a ValidationError included) for data that
    is not one."""

    def __init__(self, rules: Rules[Any, Any, Any]) -> None:
        self.rules = rules

    @classmethod
    def of(cls, game: str) -> Codec:
        """The codec of the game called ``game`` (ValueError for one this program lacks)."""
        return cls(rules_of(game))

    def pack(self, value: object) -> GameData:
        return self.rules.encode(value)

    def state(self, data: GameData) -> Any:
        return self.rules.decode_state(data)

    def setup(self, data: GameData) -> Any:
        return self.rules.decode_setup(data)

    def action(self, data: GameData) -> Any:
        return self.rules.decode_action(data)

    def actions(self, data: list[GameData]) -> list[Any]:
        return [self.rules.decode_action(a) for a in data]
