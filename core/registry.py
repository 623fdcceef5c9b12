"""The games this program can play, found by name.

A game is registered in the ``colosseum.games`` entry-point group with its :class:`GameSpec`
(``"package.module:SPEC"``), so another distribution can ship a game of its own, as Harlequin
finds its adapters.  The games shipped here are declared there too (``pyproject.toml``), and
listed below so that the first screen needs no scan of the installed distributions (reading
the entry points costs more than the start-up may spend; a test checks the two lists agree).
Entry points are read only when a name is not one of these, or when every game is listed.

``register`` adds a game in this process (the tests' toy game).  ``COLOSSEUM_GAMES`` adds
games not installed as a distribution, for a developer trying one (and the processes a test
starts): ``name=package.module:SPEC``, several separated by ``;``.
"""

from __future__ import annotations

from typing import Any

from colosseum.core.game import GameSpec, Rules, load_path
from colosseum.core.options import DEFAULT_GAME

__all__ = ["DEFAULT_GAME", "GROUP", "game_names", "game_of", "register", "rules", "spec", "unregister"]

GROUP = "colosseum.games"
#: the games of this distribution, as in its entry points
BUILTIN: dict[str, str] = {
    "colosseum": "colosseum.core.games.colosseum.spec:SPEC",
    "municipium": "colosseum.core.games.municipium.spec:SPEC",
}

_specs: dict[str, GameSpec] = {}
_registered: dict[str, GameSpec] = {}
_found: dict[str, str] | None = None  # entry points read, when first needed


ENV = "COLOSSEUM_GAMES"


def _entry_points() -> dict[str, str]:
    global _found
    if _found is None:
        from importlib.metadata import entry_points

        try:
            _found = {ep.name: ep.value for ep in entry_points(group=GROUP)}
        except Exception:  # noqa: BLE001 - a broken distribution must not stop the program
            _found = {}
        _found.update(_from_env())
    return _found


def _from_env() -> dict[str, str]:
    import os

    out = {}
    for item in os.environ.get(ENV, "").split(";"):
        name, _, path = item.partition("=")
        if name.strip() and ":" in path:
            out[name.strip()] = path.strip()
    return out


def register(found: GameSpec) -> None:
    """Make ``found`` a game of this process (tests, programs embedding the engine)."""
    _registered[found.name] = found
    _specs.pop(found.name, None)


def unregister(name: str) -> None:
    _registered.pop(name, None)
    _specs.pop(name, None)


def _unknown(name: str | None) -> ValueError:
    return ValueError(f"unknown game {name!r} (this program plays {', '.join(game_names())})")


def spec(name: str | None) -> GameSpec:
    """The game called ``name`` (None: a log from before there were two games, Colosseum's).
    ValueError for a game this program does not know."""
    key = name or DEFAULT_GAME
    found = _registered.get(key) or _specs.get(key)
    if found is not None:
        return found
    path = BUILTIN.get(key) or _from_env().get(key) or _entry_points().get(key)
    if path is None:
        raise _unknown(name)
    try:
        loaded: Any = load_path(path)
    except (ImportError, AttributeError) as err:
        raise ValueError(f"the game {key!r} cannot be loaded: {err}") from None
    if not isinstance(loaded, GameSpec) or loaded.name != key:
        raise ValueError(f"the game {key!r} is registered as {path}, which is not its GameSpec")
    _specs[key] = loaded
    return loaded


def rules(name: str | None) -> Rules[Any, Any, Any]:
    """The rules of the game called ``name`` (its engine is loaded now)."""
    return spec(name).rules()


def game_of(setup: object) -> GameSpec:
    """The game whose setup ``setup`` is (ValueError for none)."""
    name = getattr(type(setup), "game", "")
    found = spec(name) if name else None
    if found is None or type(setup) is not found.setup_type:
        raise ValueError(f"no game has the setup type {type(setup).__name__}")
    return found


def game_names(*, discover: bool = True) -> tuple[str, ...]:
    """Every game's name: this distribution's first, then those registered in this process,
    then (``discover``) those other distributions register."""
    names = list(BUILTIN)
    names += [n for n in _registered if n not in names]
    if discover:
        names += sorted(n for n in _entry_points() if n not in names)
    return tuple(names)
