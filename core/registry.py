"""The games this program can play, found by name.

A game is registered in the ``colosseum.games`` entry-point group with its :class:`GameSpec`
(``"package.module:SPEC"``), so another distribution can ship a game of its own, as Harlequin
finds its adapters.  The games shipped here are declared there too (``pyproject.toml``), and
listed below so that the first screen needs no scan of the installed distributions (reading
the entry points costs more than the start-up may spend; a test checks the two lists agree).
Entry points are read only when a name is not one of these, or when every game is listed.

``register`` adds a game in this process (the tests' toy game); nothing else changes a game.
"""

from __future__ import annotations

from typing import Any

from colosseum.core.game import GameSpec, Rules, load_path

__all__ = ["DEFAULT_GAME", "GROUP", "game_names", "register", "rules", "spec", "unregister"]

GROUP = "colosseum.games"
#: the games of this distribution, as in its entry points
BUILTIN: dict[str, str] = {
    "colosseum": "colosseum.core.games.colosseum.spec:SPEC",
    "municipium": "colosseum.core.games.municipium.spec:SPEC",
}
#: the game of a log header that names none (every log from before there were two games)
DEFAULT_GAME = "colosseum"

_specs: dict[str, GameSpec] = {}
_registered: dict[str, GameSpec] = {}
_found: dict[str, str] | None = None  # entry points read, when first needed


def _entry_points() -> dict[str, str]:
    global _found
    if _found is None:
        from importlib.metadata import entry_points

        try:
            _found = {ep.name: ep.value for ep in entry_points(group=GROUP)}
        except Exception:  # noqa: BLE001 - a broken distribution must not stop the program
            _found = {}
    return _found


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
    path = BUILTIN.get(key) or _entry_points().get(key)
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


def game_names(*, discover: bool = True) -> tuple[str, ...]:
    """Every game's name: this distribution's first, then those registered in this process,
    then (``discover``) those other distributions register."""
    names = list(BUILTIN)
    names += [n for n in _registered if n not in names]
    if discover:
        names += sorted(n for n in _entry_points() if n not in names)
    return tuple(names)
