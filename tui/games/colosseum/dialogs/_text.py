"""Plain-text facts for the dialogs, read from the State and the engine's own queries.

Nothing here decides a rule: availability always comes from ``legal(state)`` (or from the
engine rejecting a hypothetical action); these helpers only describe.  ASCII only: no emoji
and no ambiguous-width characters.
"""

from __future__ import annotations

from colosseum.core.games.colosseum import RuleError, State, apply, catalog, match, queries
from colosseum.core.games.colosseum.components import Catalog, Spectacle
from colosseum.core.games.colosseum.engine import MARKET_NAMES, gate_owner

NOBLE_TITLES = ("Emperor", "Consul", "Consul", "Senator", "Senator", "Senator")


def name(state: State, seat: int) -> str:
    return state.players[seat].name if 0 <= seat < state.n else "nobody"


def market_name(market: int) -> str:
    return MARKET_NAMES[market]


def short(cat: Catalog, kind: int) -> str:
    return cat.tiles[kind].short


def lot_text(state: State, market: int) -> str:
    cat = catalog(state)
    return " ".join(short(cat, k) for k in state.markets[market]) or "empty"


def need_text(cat: Catalog, spec: Spectacle) -> str:
    return " ".join(f"{n}{short(cat, k)}" for k, n in enumerate(spec.need) if n)


def coins(n: int) -> str:
    return f"${n}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def noble_title(state: State, noble: int) -> str:
    """'Emperor', 'Consul 1', 'Senator 3' ..."""
    cat = catalog(state)
    kind = cat.noble_kinds[noble]
    same = [i for i, k in enumerate(cat.noble_kinds) if k == kind]
    title = kind.capitalize()
    return title if len(same) == 1 else f"{title} {same.index(noble) + 1}"


def space_text(state: State, space: int, seat: int = -1) -> str:
    """'space 5 (your gate, Aquila)', in the edition's words ('your arena piece, medal')."""
    cat = catalog(state)
    notes = []
    owner = gate_owner(state, space)
    if owner >= 0:
        gate = cat.term("gate")
        notes.append(f"your {gate}" if owner == seat else f"{name(state, owner)}'s {gate}")
    if space in cat.aquila_spaces:
        notes.append(cat.term("aquila"))
    return f"space {space}" + (f" ({', '.join(notes)})" if notes else "")


def progress(cat: Catalog, tiles: tuple[int, ...], spec: Spectacle) -> tuple[int, int]:
    """(matched, total) performers of ``spec`` with ``tiles`` (G-5.2 matching, engine's match)."""
    m = match(cat, tiles, spec)
    return m.matched, spec.total


def playable(spec: Spectacle, cat: Catalog, tiles: tuple[int, ...]) -> bool:
    """The strip has an entry for this many missing performers (gates not considered)."""
    return spec.acclaim_for_missing(match(cat, tiles, spec).missing) is not None


def my_spectacles(state: State, seat: int) -> list[int]:
    p = state.players[seat]
    return [*p.face_down, *p.face_up]


def with_tiles(tiles: tuple[int, ...], gained: dict[int, int]) -> tuple[int, ...]:
    out = list(tiles)
    for k, n in gained.items():
        out[k] += n
    return tuple(out)


def stars_after(state: State, deltas: dict[int, dict[int, int]]) -> tuple[int, ...] | None:
    """Star Performer holders if each seat's tiles changed by ``deltas`` ({seat: {kind: +-n}}),
    as the engine rechecks them (G-7); None if that cannot be worked out."""
    try:
        return queries.stars_after(state, deltas)
    except (IndexError, KeyError):  # a seat or tile kind out of range: describe no star change
        return None


def star_changes(state: State, seat: int, deltas: dict[int, dict[int, int]]) -> tuple[list[int], list[int]]:
    """(kinds whose star ``seat`` would take, kinds whose star it would lose)."""
    after = stars_after(state, deltas)
    if after is None:
        return [], []
    won = [k for k, h in enumerate(after) if h == seat and state.stars[k] != seat]
    lost = [k for k, h in enumerate(after) if h != seat and state.stars[k] == seat]
    return won, lost


def stars_won(state: State, seat: int, gained: dict[int, int]) -> list[int]:
    """Tile kinds whose Star Performer ``seat`` would take if it gained ``gained``."""
    return star_changes(state, seat, {seat: gained})[0]


def lot_effects(state: State, seat: int, market: int) -> list[str]:
    """What winning ``market`` would do for ``seat``: spectacles it helps, stars, Aquilas."""
    cat = catalog(state)
    p = state.players[seat]
    gained: dict[int, int] = {}
    aquilas = 0
    for k in state.markets[market]:
        if k == cat.aquila_tile:
            aquilas += 1
        else:
            gained[k] = gained.get(k, 0) + 1
    after = with_tiles(p.tiles, gained)
    lines = []
    for sid in my_spectacles(state, seat):
        spec = cat.spectacles[sid]
        m0, total = progress(cat, p.tiles, spec)
        m1, _ = progress(cat, after, spec)
        if m1 > m0:
            note = ""
            if not playable(spec, cat, p.tiles) and playable(spec, cat, after):
                note = ", enough to perform"
            elif m1 == total:
                note = ", complete"
            lines.append(f"{spec.name} {m0}/{total} -> {m1}/{total}{note}")
    for k in stars_won(state, seat, gained):
        lines.append(f"wins the {cat.tiles[k].name} {cat.term('star')}")
    if aquilas:
        lines.append(f"+{cat.count_term(aquilas, 'aquilas')}")
    return lines


def gate_nobles_acclaim(state: State, seat: int) -> int | None:
    """G-5.3 step 4 for ``seat`` in ``state`` (the engine's breakdown line), or None if the
    seat owns no spectacle to ask about."""
    from colosseum.core.games.colosseum import breakdown

    specs = my_spectacles(state, seat)
    if not specs:
        return None
    lines = breakdown(state, seat, catalog(state).spectacles[specs[0]]).lines
    return next((v for label, v in lines if label.startswith("Nobles")), None)


def after(state: State, action) -> State | None:
    """The state after ``action`` (None if the engine rejects it); nothing changes."""
    try:
        return apply(state, action)[0]
    except RuleError:
        return None


def rule_error(state: State, action) -> str | None:
    """The engine's reason for rejecting ``action`` in ``state`` (None if it would be accepted).
    ``apply`` is pure: nothing changes."""
    try:
        apply(state, action)
    except RuleError as err:
        return err.detail
    return None
