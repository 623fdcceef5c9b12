"""What the server keeps of a table beside its game log: ``TableMeta`` (``DATA/tables/<id>.json``,
then ``DATA/history/``), its seats, the players' names at the start, a finished game's line in
``history.jsonl``, and the options in words.

Files written before protocol version 5 are read as they were: a table named its game's edition
``variant`` and its rules options a list ``options`` (each is the game's setup field of that name:
the options now travel by field name), and a history line said ``variant`` for what is now
``game`` and ``edition`` (a game's name there, "municipium", was the game).  A table file also
may lack ``game`` (Colosseum's, from before there were two games).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from colosseum.core.game import GameSpec, Rules
from colosseum.core.options import DEFAULT_GAME, OptionError, SetupBase, option_specs
from colosseum.core.options import described as described_options
from colosseum.core.registry import game_names, spec

from . import protocol as P
from .clock import TimeBank


class SeatMeta(msgspec.Struct, kw_only=True):
    kind: str  # 'human' or a bot name
    holder: str = ""  # identity of the human holding it
    name: str = ""  # holder's display name


class TableMeta(msgspec.Struct, kw_only=True):
    id: str
    name: str
    game: str = DEFAULT_GAME  # a name of core.registry
    options: dict[str, Any] = {}  # the game's setup options as the creator gave them
    edition: str = ""  # the options in words ("" for the game's defaults)
    allow_takeover: bool = False
    creator: str
    creator_name: str
    hints: bool = False  # players may ask the game's strongest bot (older files: no)
    seats: list[SeatMeta]
    status: str = "waiting"  # waiting, playing, over
    seed: int | None = None
    created: float = 0.0
    rated: bool = False  # asked for by the creator; once started, whether the game counts (D-30)
    started: float = 0.0  # when the game began
    fork_of: str = ""  # a fork: the finished game (its id) this one starts from ...
    fork_at: int = 0  # ... after its first ``fork_at`` actions
    reseed: int | None = None  # a fork's new generator state at the fork point
    rematch_of: str = ""  # a rematch: the finished table it follows
    code: str = ""  # a private table's invitation code (D-78)
    bank: float = 0.0  # a time bank: each seat's seconds for the game (0: the server's clock per decision)
    increment: float = 0.0  # ... and the seconds added per decision (D-77)
    banks: list[float] = []  # each seat's seconds left
    turn_hours: float = 0.0  # a turn-based table: hours for each decision (0: real time)
    turn_deadline: float = 0.0  # when the decision after ``turn_at`` actions runs out
    turn_at: int = -1
    invited: list[str] = []  # who came with the code (identities)


def _legacy_options(game: str, raw: dict[str, Any]) -> dict[str, Any] | None:
    """A table file's options from before version 5 (``variant`` and a list ``options``) by
    the setup fields of those names; None if ``raw`` is of the present shape."""
    variant = raw.pop("variant", None)
    old = raw.get("options")
    if variant is None and not isinstance(old, list):
        return None
    fields = {s.name for s in option_specs(spec(game).setup_type)}
    options: dict[str, Any] = {}
    if variant and "variant" in fields:
        options["variant"] = variant
    if isinstance(old, list) and old and "options" in fields:
        options["options"] = list(old)
    return options


def load_meta(data: bytes) -> TableMeta:
    """A table's description as written by this server or an older one (msgspec errors and
    ValueError for an unknown game)."""
    raw = msgspec.json.decode(data)
    if not isinstance(raw, dict):
        raise msgspec.ValidationError("a table's description is an object")
    game = raw.get("game") or DEFAULT_GAME
    options = _legacy_options(game, raw)
    if options is not None:
        raw["options"] = options
        raw["edition"] = edition_of(spec(game), options)
    return msgspec.convert(raw, TableMeta)


def history_entry(line: bytes) -> P.HistoryInfo:
    """A line of ``history.jsonl``, of this version or an older one (msgspec errors)."""
    raw = msgspec.json.decode(line)
    if not isinstance(raw, dict):
        raise msgspec.ValidationError("a history line is an object")
    variant = raw.pop("variant", None)
    if variant is not None and "game" not in raw:
        if variant in game_names(discover=False):
            raw["game"] = variant
        else:
            raw["game"] = DEFAULT_GAME
            raw["edition"] = edition_of(spec(DEFAULT_GAME), {"variant": variant})
    return msgspec.convert(raw, P.HistoryInfo)


# ------------------------------------------------------------------ the options in words


def setup_text(setup: SetupBase) -> str:
    """A setup's options set away from their defaults, short, for a list of tables: a choice
    by its label ("Original 2007"), anything else with its name ("Starting coins 12")."""
    kinds = {s.label: s.kind for s in option_specs(type(setup))}
    words = [v if kinds.get(label) in ("choice", "flags") else f"{label} {v}" for label, v in described_options(setup)]
    return ", ".join(words)


def edition_of(game: GameSpec, options: dict[str, Any]) -> str:
    """:func:`setup_text` of the options ``options`` of ``game`` ("" if they make no setup)."""
    try:
        setup = game.make_setup(game.default_names[: game.min_players], seed=0, **options)
    except (OptionError, TypeError):
        return ""
    return setup_text(setup)


# ------------------------------------------------------------------ players and bots


#: names the bots at a table play under (as in a local game): a person tells "Kat" from
#: "Laura" at a glance, where "Normal bot" and "Normal bot 2" cut to the same few cells
BOT_NAMES = ("Kat", "Laura", "Marcus", "Titus", "Becky", "Aurelia", "Cassius", "Decima")


def seat_names(seats: list[SeatMeta]) -> list[str]:
    """The players' names for a game starting with ``seats``: each person's own name, each bot
    a name from ``BOT_NAMES`` no person at the table uses (case-insensitively), all unique."""
    taken = {s.name.strip().casefold() for s in seats if s.holder and s.name.strip()}
    pool = [n for n in BOT_NAMES if n.casefold() not in taken]
    names: list[str] = []
    for i, s in enumerate(seats):
        if s.holder:
            base = s.name.strip() or f"Player {i + 1}"
        else:
            base = pool.pop(0) if pool else f"Bot {i + 1}"
        name, k = base, 2
        while name.casefold() in {n.casefold() for n in names}:
            name, k = f"{base} {k}", k + 1
        names.append(name)
    return names


def default_bot(rules: Rules[Any, Any, Any]) -> str:
    """The bot that plays an empty or absent seat: the game's default level."""
    level = rules.spec.default_level
    return level if level in rules.bot_names() else rules.bot_names()[0]


def bot_seed(setup: SetupBase | None, seat: int) -> int:
    """The seed of the bot playing ``seat`` of a game of ``setup`` (None: not begun): from the
    game's secret where it has one, so that not even the bots' tie-breaks can be foreseen."""
    if setup is None:
        return seat
    if setup.secret:
        digest = hashlib.blake2b(f"bot {seat}".encode(), key=bytes.fromhex(setup.secret)[:64], digest_size=8)
        return int.from_bytes(digest.digest(), "little")
    return int(setup.seed) * 31 + seat


def time_bank(meta: TableMeta) -> TimeBank | None:
    """The table's time bank (None: the server's clock per decision); each seat's time left is
    kept in ``meta.banks`` (saved with the table: a restart goes on with it)."""
    if meta.bank <= 0:
        return None
    if len(meta.banks) != len(meta.seats):
        meta.banks = [float(meta.bank)] * len(meta.seats)
    return TimeBank(meta.banks, meta.increment)
