"""One mark a player, one cell each: a letter, or in the colour-blind theme a symbol.  Below
the client interface (``client.GameClient.marks``) and every panel, so any layer may ask."""

from __future__ import annotations

from functools import lru_cache

from colosseum.themes import seat_symbols


def player_letters(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """One distinct lower-case letter per player.  Names that begin with a Latin letter get
    it first (so a name without one, e.g. in Japanese, never takes "Aurelia"'s "a"); then each
    other name gets a free letter of the name, else the first free letter of the alphabet."""
    return _player_letters(tuple(names))


def player_marks(
    names: tuple[str, ...] | list[str], theme: str, letters: tuple[str, ...] | None = None
) -> tuple[str, ...]:
    """One one-cell mark per player in ``theme``: the seats' symbols in the theme that has them,
    else ``letters`` (a game's own letters) or ``player_letters(names)``."""
    symbols = seat_symbols(theme)
    if symbols is not None and len(names) <= len(symbols):
        return symbols[: len(names)]
    return letters if letters is not None else player_letters(names)


@lru_cache(maxsize=64)
def _player_letters(names: tuple[str, ...]) -> tuple[str, ...]:
    picks: list[str] = [""] * len(names)
    taken: set[str] = set()
    for i, name in enumerate(names):
        first = name.strip()[:1].lower()
        if first.isascii() and first.isalpha() and first not in taken:
            picks[i] = first
            taken.add(first)
    for i, name in enumerate(names):
        if picks[i]:
            continue
        candidates = [c.lower() for c in name if c.isascii() and c.isalpha()]
        pick = next((c for c in candidates if c not in taken), "")
        if not pick:
            pick = next(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in taken)
        picks[i] = pick
        taken.add(pick)
    return tuple(picks)
