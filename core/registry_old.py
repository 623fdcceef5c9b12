"""The games this engine plays, behind one small interface: :class:`GameKind`.

What the code around a game needs from it, and nothing more (each piece is used: the log reader
and writer, the session, the saved-games listing, the new-game screen, the viewer, a table):

* ``name`` (``"colosseum"``, ``"municipium"``: the word in a log header and on the command
  line), ``title``, the player counts, the ``variants`` and ``options`` a setup may name;
* ``make_setup`` (players, seed, variant, options -> the game's setup) and ``new_game``;
* ``apply(state, action) -> (state, events)``, ``to_act(state)`` (the seat whose decision the
  game waits for, -1 when over), ``legal(state)`` (in the game's own shape: Colosseum's
  ``Choices`` has bid ranges, Municipium's is a tuple of actions), ``is_over``, ``winners``;
* the types behind the JSON: ``setup_type``, ``action_type`` (a tagged union, tag ``"a"``,
  every action naming its ``player``), ``state_type``; :meth:`GameKind.decode_action` etc.;
* the bots: ``bot_levels`` (offered to players, weakest first), ``level_of`` (an old name's
  level), ``make_bot(name, seed)``;
* ``player_view(state)``: what a player may see (no generator state, no seed).

Both games' events are :class:`colosseum.core.games.colosseum.model.Event`.  Colosseum's functions are wrapped as
they are: nothing of its behaviour or its logs changes.  A log names its game in the header
(``"game":"municipium"``); a header without it is Colosseum's (every log written before there
were two games).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from colosseum.core.events import Event

__all__ = [
    "COLOSSEUM",
    "DEFAULT_GAME",
    "GAMES",
    "MUNICIPIUM",
    "GameKind",
    "GameOutline",
    "game_kind",
    "game_names",
    "game_outline",
]

DEFAULT_GAME = "colosseum"  # the game of a log header without a "game" field


@dataclass(frozen=True, eq=False)
class GameKind:
    """One game: its rules, its data types and its bots, as the rest of the program uses them."""

    name: str
    title: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]  # the first is the default ("" where the game has none)
    options: tuple[str, ...]
    setup_type: type[Any]
    action_type: Any  # the tagged union of actions (a type for msgspec)
    state_type: type[Any]
    make_setup: Callable[[Sequence[str], int, str, Sequence[str]], Any]
    new_game: Callable[[Any], Any]
    apply: Callable[[Any, Any], tuple[Any, list[Event]]]
    to_act: Callable[[Any], int]
    legal: Callable[[Any], Any]
    winners: Callable[[Any], tuple[int, ...]]  # () while the game goes on
    bot_levels: tuple[str, ...]
    level_of: Callable[[str], str]
    make_bot: Callable[[str, int], Any]
    player_view: Callable[[Any], Any]
    # The segments a viewer steps by ("turn", "phase", "round"): a key that changes at a segment's
    # start; None where the game uses the log timeline's own (Colosseum's rounds and phases).
    step_key: Callable[[Any, str], Any] | None = None
    _codecs: dict[str, Any] = field(default_factory=dict, repr=False)

    def is_over(self, state: Any) -> bool:
        return bool(state.phase == "over")

    def _codec(self, key: str, make: Callable[[], Any]) -> Any:
        found = self._codecs.get(key)
        if found is None:
            found = self._codecs[key] = make()
        return found

    def decode_setup(self, data: bytes | str) -> Any:
        import msgspec

        return self._codec("setup", lambda: msgspec.json.Decoder(self.setup_type)).decode(data)

    def decode_action(self, data: bytes | str) -> Any:
        import msgspec

        return self._codec("action", lambda: msgspec.json.Decoder(self.action_type)).decode(data)

    def decode_state(self, data: bytes | str) -> Any:
        import msgspec

        return self._codec("state", lambda: msgspec.json.Decoder(self.state_type)).decode(data)

    def action_from_builtins(self, obj: Any) -> Any:
        """An action from JSON-like builtins (a dict with ``"a"``); msgspec.ValidationError."""
        import msgspec

        return msgspec.convert(obj, self.action_type)

    def setup_from_builtins(self, obj: Any) -> Any:
        import msgspec

        return msgspec.convert(obj, self.setup_type)

    @staticmethod
    def encode(value: Any) -> bytes:
        """A setup, action or state as JSON."""
        import msgspec

        return msgspec.json.encode(value)


# ------------------------------------------------------------------------------ Colosseum


def _colosseum() -> GameKind:
    from colosseum.core.games.colosseum import bots
    from colosseum.core.games.colosseum.actions import Action
    from colosseum.core.games.colosseum.components import OPTIONS, VARIANTS
    from colosseum.core.games.colosseum.engine import apply, new_game, to_act
    from colosseum.core.games.colosseum.model import GameSetup, State
    from colosseum.core.games.colosseum.offers import legal
    from colosseum.core.games.colosseum.view import player_view

    def make_setup(players: Sequence[str], seed: int, variant: str, options: Sequence[str]) -> GameSetup:
        return GameSetup(players=tuple(players), seed=seed, variant=variant or VARIANTS[0], options=tuple(options))

    def winners(state: State) -> tuple[int, ...]:
        r = state.result
        if r is None:
            return ()
        return r.shared or (r.winner,)

    def make_bot(name: str, seed: int) -> Any:
        return bots.make_bot(name, seed)

    return GameKind(
        name="colosseum",
        title="Colosseum",
        min_players=3,
        max_players=5,
        variants=VARIANTS,
        options=OPTIONS,
        setup_type=GameSetup,
        action_type=Action,
        state_type=State,
        make_setup=make_setup,
        new_game=new_game,
        apply=apply,
        to_act=to_act,
        legal=legal,
        winners=winners,
        bot_levels=bots.LEVELS,
        level_of=bots.level_of,
        make_bot=make_bot,
        player_view=player_view,
    )


# ------------------------------------------------------------------------------ Municipium


def _municipium() -> GameKind:
    from colosseum.core.games import municipium as m
    from colosseum.core.games.municipium import bots

    def make_setup(players: Sequence[str], seed: int, variant: str, options: Sequence[str]) -> m.MuniSetup:
        if variant:
            raise ValueError(f"Municipium has no variant {variant!r}")
        return m.MuniSetup(players=tuple(players), seed=seed, options=tuple(options))

    def winners(state: m.State) -> tuple[int, ...]:
        # M-11.2: the tie-breaks end at the Temple order, so there is always one winner
        return () if state.result is None else (state.result.winner,)

    def level_of(name: str) -> str:
        # the shared level names: greedy is "normal", as in Colosseum
        return {"greedy": "normal"}.get(name, name)

    def player_view(state: m.State) -> m.State:
        import msgspec

        # the deck order and the bag's next draws come from ``rng``; the seed (or secret) would replay them
        return msgspec.structs.replace(state, rng=0, setup=msgspec.structs.replace(state.setup, seed=0, secret=""))

    def step_key(state: m.State, step: str) -> Any:
        if step == "round":  # a round of Municipium is one player's turn (in the placement: one placement)
            if state.phase == "place":
                return ("place", state.placed)
            return state.turn if state.phase != "over" else -1
        if step == "phase":
            return (state.turn, state.phase)
        if step == "turn":
            return (state.turn, state.phase, m.to_act(state))
        raise ValueError(f"unknown step {step!r}")

    return GameKind(
        name="municipium",
        title="Municipium",
        min_players=2,
        max_players=4,
        variants=("",),
        options=m.OPTIONS,
        setup_type=m.MuniSetup,
        action_type=m.MuniAction,
        state_type=m.State,
        make_setup=make_setup,
        new_game=m.new_game,
        apply=m.apply,
        to_act=m.to_act,
        legal=m.legal,
        winners=winners,
        bot_levels=("normal",),
        level_of=level_of,
        make_bot=lambda name, seed: bots.make_bot(name, seed),
        player_view=player_view,
        step_key=step_key,
    )


# Each game's engine is loaded when that game or a log of it is first used (``game_kind``, or the
# names COLOSSEUM / MUNICIPIUM / GAMES read from this module): the new-game screen comes up without
# loading either (it asks only ``game_outline``), and a Colosseum game starts without Municipium's.
_NAMES = ("colosseum", "municipium")
_MAKERS: dict[str, Callable[[], GameKind]] = {"colosseum": _colosseum, "municipium": _municipium}
_loaded: dict[str, GameKind] = {}

if TYPE_CHECKING:
    COLOSSEUM: GameKind
    MUNICIPIUM: GameKind
    GAMES: dict[str, GameKind]
else:

    def __getattr__(name: str) -> Any:
        if name == "COLOSSEUM":
            return game_kind("colosseum")
        if name == "MUNICIPIUM":
            return game_kind("municipium")
        if name == "GAMES":
            return {n: game_kind(n) for n in _NAMES}
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def game_names() -> tuple[str, ...]:
    return _NAMES


def game_kind(name: str | None) -> GameKind:
    """The game called ``name`` (None: a log from before there were two games, Colosseum's).
    ValueError for a game this program does not know."""
    key = name or DEFAULT_GAME
    found = _loaded.get(key)
    if found is None:
        make = _MAKERS.get(key)
        if make is None:
            raise ValueError(f"unknown game {name!r} (this program plays {', '.join(_NAMES)})")
        found = _loaded[key] = make()
    return found


@dataclass(frozen=True)
class GameOutline:
    """What a menu shows of a game before one is set up: the same values as its :class:`GameKind`
    (a test checks), spelled here so that showing them loads no engine."""

    name: str
    title: str
    min_players: int
    max_players: int
    bot_levels: tuple[str, ...]


_OUTLINES = {
    "colosseum": GameOutline("colosseum", "Colosseum", 3, 5, ("easy", "normal", "hard")),
    "municipium": GameOutline("municipium", "Municipium", 2, 4, ("normal",)),
}


def game_outline(name: str | None) -> GameOutline:
    """The outline of the game called ``name`` (as :func:`game_kind`); ValueError if unknown."""
    found = _OUTLINES.get(name or DEFAULT_GAME)
    if found is None:
        raise ValueError(f"unknown game {name!r} (this program plays {', '.join(_NAMES)})")
    return found
