"""The game interface: what everything around a game needs from it, as one typed object.

A game is two objects:

* :class:`GameSpec`, light (importing it loads no engine): the name, the title, the player
  counts, the bot levels offered and the setup type, whose fields are the game's options
  (:mod:`colosseum.core.options`).  Menus, the command line's parser and the lobby's form need
  no more.  It says where the rules and the client part live, as import paths loaded when first
  used.
* :class:`Rules`, the rules as the shell, the server, the game log, the simulator, the search and
  the conformance tests use them: ``new_game``, ``to_act``, ``legal_actions``, ``apply`` (and the
  quiet path a search uses), the result as ranks per seat, what a seat may see, chance for the
  take-back rule, the bots, words for an action, the codecs.  Generic over the game's setup,
  state and action types.

OpenSpiel's games each implement one API and one conformance test runs over all of them; here
``tests/core/test_conformance.py`` does that for every registered game and a toy one.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.events import Event
from colosseum.core.options import OptionSpec, SetupBase, make_setup, option_specs

if TYPE_CHECKING:
    from colosseum.core.gamelog import HintLine

__all__ = ["Bot", "GameSpec", "Rules", "ScoreLine", "ScoreSheet", "load_path", "places"]

SetupT = TypeVar("SetupT", bound=SetupBase)
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class ScoreLine(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a finished game's score sheet: a value per seat.  ``adds``: a part of the
    final score (the parts add up to it); else a figure for interest (coins spent, ...)."""

    label: str
    values: tuple[int, ...]
    adds: bool = True
    notes: tuple[str, ...] = ()  # per seat, a word on where it came from ("Satyricon, round 3")


class ScoreSheet(msgspec.Struct, frozen=True, kw_only=True):
    """Where each player's points came from: the lines that add up to the final scores, then
    the other figures of the game."""

    score_name: str
    lines: tuple[ScoreLine, ...]
    totals: tuple[int, ...]
    #: each seat's score at the end of each round (or turn: ``series_name``) played, from the
    #: first; the last is the end of the game (the final score): no value stands for anything else
    series: tuple[tuple[int, ...], ...] = ()
    series_name: str = "round"
    #: what each seat did that scored, (seat, what, points): Colosseum's performances
    items: tuple[tuple[int, str, int], ...] = ()


@runtime_checkable
class Bot(Protocol):
    """A bot: ``act`` returns the action it takes in a position where its seat is to act."""

    def act(self, state: Any) -> Any: ...


def load_path(path: str) -> Any:
    """The object an import path ``"package.module:attribute"`` names."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True, eq=False)
class GameSpec:
    """What menus need of a game, without its engine; ``rules()`` loads the engine."""

    name: str  # the word in a log header, on the command line and in the protocol
    title: str
    min_players: int
    max_players: int
    default_players: int
    bot_levels: tuple[str, ...]  # offered to players, weakest first
    setup_type: type[SetupBase]
    rules_path: str  # "module:attribute" of the game's Rules
    client_path: str = ""  # "module:attribute" of its client part ("": the shell's plain one)
    default_level: str = "normal"
    default_names: tuple[str, ...] = ("Becky", "Kat", "Laura", "Marcus", "Titus")
    _loaded: dict[str, Any] = field(default_factory=dict, repr=False)

    def rules(self) -> Rules[Any, Any, Any]:
        found = self._loaded.get("rules")
        if found is None:
            found = self._loaded["rules"] = load_path(self.rules_path)
        return found  # type: ignore[no-any-return]

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        return option_specs(self.setup_type)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(range(self.min_players, self.max_players + 1))

    def make_setup(self, players: Sequence[str], *, seed: int, secret: str = "", **options: Any) -> Any:
        """A setup of this game, checked (``options.OptionError``); the player count is the
        rules' to refuse (``new_game``)."""
        return make_setup(self.setup_type, players, seed=seed, secret=secret, **options)


def places(standings: Iterable[Any], seats: int) -> tuple[int, ...]:
    """Each seat's place from a game's final standings (each with ``seat`` and ``rank``): what
    ``Rules.ranks`` answers for a game that ranks its players itself."""
    out = [0] * seats
    for standing in standings:
        out[standing.seat] = standing.rank
    return tuple(out)


class Rules(ABC, Generic[SetupT, StateT, ActionT]):
    """A game's rules.  Every method is pure: states are immutable, ``apply`` returns a new one
    or raises ``RuleError`` naming the rule, the state untouched."""

    spec: GameSpec
    setup_type: type[SetupT]
    state_type: type[StateT]
    action_type: Any  # the tagged union of actions (tag "a", "player" first): a type for msgspec

    # ---- playing
    @abstractmethod
    def new_game(self, setup: SetupT) -> StateT:
        """The first position; ``RuleError`` for a setup the rules refuse."""

    @abstractmethod
    def to_act(self, state: StateT) -> int:
        """The seat whose decision the game waits for; -1 when it is over."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> Sequence[ActionT]:
        """Concrete actions the seat to act may take, never empty until the game is over.  A
        game may allow more than it lists (a deal whose terms are free); ``apply`` decides."""

    @abstractmethod
    def apply(self, state: StateT, action: ActionT) -> tuple[StateT, list[Event]]:
        """The position after ``action`` and what happened, in words."""

    def apply_quiet(self, state: StateT, action: ActionT) -> StateT:
        """``apply`` without the words, for an action taken from ``legal_actions`` (a search's
        playouts): the same state, sooner where a game has a faster path."""
        return self.apply(state, action)[0]

    def may_act(self, state: StateT, seat: int, action: ActionT) -> bool:
        """Whether ``seat`` may send ``action`` now: its turn, or an action the rules let any
        seat take at any time (Colosseum's deal proposals).  ``apply`` still checks the rest."""
        return self.to_act(state) == seat

    def fallback_action(self, state: StateT) -> ActionT:
        """What a bot plays when its own action is refused: a bot never stalls the game."""
        return self.legal_actions(state)[0]

    # ---- out of turn (what a table does around people and bots; neutral: nobody acts out of turn)
    def out_of_turn(self, state: StateT, seat: int) -> bool:
        """Whether ``seat`` may now send an action though another seat is to act (Colosseum: a
        deal proposal while no deal is on the table, G-4).  A server's table then holds a bot's
        move while a person at that seat composes one, and gives people a moment before a bot's
        move that only the seat to act could make (ending its trade turn)."""
        return False

    def bot_offer(self, bot: Any, state: StateT, seat: int) -> ActionT | None:
        """An action the bot playing ``seat`` offers out of turn to the person to act now
        (Colosseum: a deal its valuation finds worth it for both); None: nothing to offer."""
        return None

    # ---- the result
    @abstractmethod
    def ranks(self, state: StateT) -> tuple[int, ...] | None:
        """Each seat's place when the game is over (1 the best; seats that share a place share
        its number: 1, 1, 3); None while it goes on."""

    @abstractmethod
    def scores(self, state: StateT) -> tuple[int, ...]:
        """Each seat's score in the game's own terms (Acclaim, decurions), now."""

    def is_over(self, state: StateT) -> bool:
        return self.ranks(state) is not None

    def winners(self, state: StateT) -> tuple[int, ...]:
        """The seats in first place (one, or those sharing the win); () while the game goes on."""
        ranks = self.ranks(state)
        return () if ranks is None else tuple(i for i, r in enumerate(ranks) if r == 1)

    def names(self, state: StateT) -> tuple[str, ...]:
        return tuple(getattr(state, "setup").players)  # noqa: B009 (a state of any game: StateT is unbound)

    # ---- what a seat may see, and chance
    @abstractmethod
    def player_view(self, state: StateT, seat: int | None) -> StateT:
        """``state`` as ``seat`` may see it (None: a spectator): nothing that decides chance to
        come (generator state, seed, secret) and nothing hidden from that seat."""

    @abstractmethod
    def determinised(self, state: StateT, luck: int) -> StateT:
        """``state`` with the chance to come drawn from ``luck`` instead (a bot's playout)."""

    @abstractmethod
    def chance_between(self, before: StateT, after: StateT) -> tuple[str, str]:
        """What chance decided or revealed between two consecutive positions, as (a sentence, a
        word or two for a key bar); ("", "") if nothing.  A take-back never crosses it."""

    # ---- words
    @abstractmethod
    def describe(self, action: ActionT) -> str:
        """``action`` in words, where no event of its own says it ("Becky passes")."""

    def progress(self, state: StateT) -> str:
        """How far the game is, in a word or two ("round 3"), for lists of games."""
        return ""

    #: what the game's score is called ("Acclaim", "decurions")
    score_name: str = "points"

    def score_word(self, state: StateT) -> str:
        """What the score is called in ``state``'s edition (Colosseum's original: "spectators");
        ``score_name`` unless a game's editions differ."""
        return self.score_name

    #: the game's chance in a few words, for the hint's explanation ("the dice and the bag")
    luck_words: str = "the draws"

    def invariants(self, state: StateT, previous: StateT | None) -> list[str]:
        """What is wrong with ``state`` (reached from ``previous``): the game's own checks, for
        ``simulate --check`` and the fuzzers; [] when nothing is."""
        return []

    def record_details(self, state: StateT) -> dict[str, Any]:
        """The game's own figures of a finished game, for ``simulate`` (beside the ranks and
        scores every game has)."""
        return {}

    def score_sheet(
        self, states: Sequence[StateT], actions: Sequence[ActionT], events: Sequence[Sequence[Event]]
    ) -> ScoreSheet | None:
        """Where the points came from, from a whole game: ``states[i]`` after the first ``i``
        actions, ``events[i]`` what action ``i`` caused (``events[0]`` empty).  None for a game
        without one (the end screen then shows the ranks and scores alone)."""
        return None

    def first_seat(self, state: StateT) -> int | None:
        """The seat that starts the game whose first position is ``state`` (the seat a ``seat``
        option chooses, or the lot drew): a rematch starts with the next seat.  None: the game
        has no first player to rotate."""
        return None

    def step_key(self, state: StateT, step: str) -> Any:
        """The viewer's segments: a key that changes where a ``step`` ("round", "phase", "turn")
        begins."""
        return None

    # ---- bots
    @abstractmethod
    def make_bot(self, level: str, seed: int, think: float | None = None) -> Any:
        """A bot of ``level`` (a level of ``spec.bot_levels``, ``random``, or an older name of a
        level); ValueError for one this game has not."""

    def hint(
        self, state: StateT, *, think: float | None = 1.0, playouts: int | None = None, seed: int | None = None
    ) -> HintLine:
        """What the ``hard`` search would do for the seat to act, best first, with why (the share
        of its playouts won, the mean final score).  Within ``think`` seconds (or ``playouts``
        playouts a decision, for a reproducible answer); changes nothing it is given.  ValueError
        when the game is over."""
        from colosseum.core.hint import hint_line

        return hint_line(self, state, think=think, playouts=playouts, seed=seed)

    # ---- what the search (core.search: the hard and expert bots, the hint) asks of a game

    #: what one point of ``scores`` over the best other seat is worth in a playout's result, next
    #: to a win (1.0): a tie-breaker far less noisy than the win itself; counted up to ``margin_clip``
    margin_weight: float = 0.03
    margin_clip: int = 25

    def win_share(self, state: StateT, seat: int) -> float:
        """What a finished game is worth to ``seat`` in a search's playouts: 1 for a win, 1/k for
        a win shared by k seats, else 0."""
        winners = self.winners(state)
        return 1.0 / len(winners) if seat in winners else 0.0

    def candidates(self, state: StateT, first: ActionT, cap: int, policy: Any) -> list[ActionT]:
        """The actions a search compares in ``state``, ``first`` (its policy's choice) first,
        about ``cap`` of them; ``policy`` is the searching bot's own ``normal`` bot, whose
        valuations a game may use to pick them.  This default: the first legal ones."""
        out = [first]
        for action in self.legal_actions(state):
            if len(out) >= cap:
                break
            if action != first:
                out.append(action)
        return out

    def playout_bot(self, seed: int) -> Any:
        """The bot that plays a seat in a search's playouts: the ``normal`` one.  A game may give
        a cheaper one (the same choices, fewer of them: no deal proposals)."""
        return self.make_bot("normal", seed)

    def search_bot(self, level: str, seed: int, think: float | None = None, **options: Any) -> Any:
        """A ``hard`` or ``expert`` bot of this game (core.search)."""
        from colosseum.core.search import SearchBot

        return SearchBot(self, seed, think=think, level=level, **options)

    def action_text(self, state: StateT, action: ActionT) -> str:
        """``action`` in ``state`` in words, as the game's log would tell it (a hint's options).
        Where chance decides what the log would say (a roll, a card turned over), the words of
        ``chance_words``: they never tell the chance to come."""
        # the words under luck of its own, never this position's: the same under every luck
        # sampled, or words that would tell the luck
        said = {self._log_words(self.determinised(state, luck), action) for luck in (1, 2, 3)}
        text = said.pop() if len(said) == 1 else self.chance_words(state, action)
        return self.describe(action) if text is None else text

    def _log_words(self, state: StateT, action: ActionT) -> str | None:
        try:
            _, events = self.apply(state, action)
        except RuleError:
            return None
        seat = getattr(action, "player", None)
        mine = [e.text for e in events if e.seat == seat] or [e.text for e in events[:1]]
        return mine[0].rstrip(".") if mine else self.describe(action)

    def chance_words(self, state: StateT, action: ActionT) -> str:
        """An action whose outcome chance decides, in words that do not tell it ("Becky rolls
        the dice")."""
        return self.describe(action)

    def level_of(self, name: str) -> str:
        """The level a bot name plays at (older names of levels: ``greedy`` is ``normal``)."""
        return {"greedy": "normal"}.get(name, name)

    def bot_names(self) -> tuple[str, ...]:
        """Every bot name ``make_bot`` takes (levels, ``random``, older names)."""
        return (*self.spec.bot_levels, "random", "greedy")

    # ---- codecs (JSON)
    def encode(self, value: Any) -> bytes:
        return msgspec.json.encode(value)

    def decode_state(self, data: bytes | str) -> StateT:
        return msgspec.json.decode(data, type=self.state_type)

    def decode_action(self, data: bytes | str) -> ActionT:
        return msgspec.json.decode(data, type=self.action_type)  # type: ignore[no-any-return]

    def decode_setup(self, data: bytes | str) -> SetupT:
        return msgspec.json.decode(data, type=self.setup_type)

    def action_from_builtins(self, obj: Any) -> ActionT:
        """An action from JSON-like builtins (a dict with ``"a"``); msgspec.ValidationError."""
        return msgspec.convert(obj, self.action_type, strict=True)  # type: ignore[no-any-return]

    def state_from_builtins(self, obj: Any) -> StateT:
        return msgspec.convert(obj, self.state_type, strict=True)
