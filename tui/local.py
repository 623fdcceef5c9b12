"""Local games: a new game's session made from plain values (the new-game screen, ``colosseum
play``), for any game, and the options a command line or a form gives, checked.

No Textual."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from colosseum.core.options import OptionError, OptionSpec, option_values
from colosseum.core.registry import spec

from .session import LocalSession, Seat

__all__ = ["OptionError", "Rematch", "check_kinds", "make_session", "option_value", "rematch"]


def check_kinds(game: str, kinds: Sequence[str]) -> None:
    """ValueError naming the bots ``game`` has, for a seat given one it has not."""
    known = spec(game).rules().bot_names()
    for k in kinds:
        if k != "human" and k not in known:
            raise ValueError(f"unknown bot {k!r}; choose from {', '.join(known)}")


def make_session(
    game: str | None,
    names: Sequence[str],
    kinds: Sequence[str],
    *,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> LocalSession:
    """A new game of ``game`` in this process; ``kinds`` per seat: "human" or a bot name;
    ``options`` by field name (plain values).  Raises OptionError (one line for a person),
    RuleError (a setup the rules refuse: the player count) or ValueError (an unknown bot)."""
    found = spec(game)
    setup = found.make_setup(names, seed=seed, **dict(options or {}))
    check_kinds(found.name, kinds)
    return LocalSession(setup, tuple(Seat(kind=k) for k in kinds))


def option_value(option: OptionSpec, raw: Any) -> Any:
    """An option's value from what a person gave (a typed word, a list of words for flags):
    OptionError names what is wrong and the valid values."""
    if option.kind == "flags":
        words = [raw] if isinstance(raw, str) else list(raw)
        out: list[str] = []
        for word in words:
            said = str(word).strip().casefold()
            value = next((c.value for c in option.choices if said in (c.value.casefold(), c.label.casefold())), None)
            if value is None:
                raise OptionError(f"{option.label}: choose from {', '.join(c.value for c in option.choices)}")
            if value not in out:
                out.append(value)
        return tuple(out)
    if isinstance(raw, str):
        return option.parse(raw)
    return raw


class Rematch(NamedTuple):
    """A new game like a finished one: ``make_session(*r[:3], seed=r.seed, options=r.options)``."""

    game: str
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    seed: int
    options: dict[str, Any]


def rematch(session: Any, seed: int | None = None) -> Rematch:
    """The game to play again after ``session``'s (a local session): the same game, seats,
    names and bot levels, the same options, a new seed (``seed``, else drawn), and the first
    player rotated: the game's ``seat`` option (if it has one) set to the seat after the one
    that started (``Rules.first_seat`` of the first position when the lot chose it).  A game
    without a ``seat`` option is only reseeded."""
    found = session.spec
    setup = session.setup
    options = option_values(setup)
    n = len(setup.players)
    for option in found.options:
        if option.kind != "seat":
            continue
        first = getattr(setup, option.name)
        if first is None:
            first = session.rules.first_seat(session.rules.new_game(setup))
        if first is not None:
            options[option.name] = (first + 1) % n
        break
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)
    kinds = tuple(s.kind for s in session.seats)
    return Rematch(found.name, tuple(setup.players), kinds, seed, options)


def bot_name(game: str, name: str) -> str:
    """``name`` when ``game`` has that bot, else a level it has (said on the terminal)."""
    known = spec(game).rules().bot_names()
    if name in known:
        return name
    fallback = "random" if "random" in known else known[0]
    print(f"colosseum: bot {name!r} is not available in {spec(game).title}; using {fallback!r}", file=sys.stderr)
    return fallback
