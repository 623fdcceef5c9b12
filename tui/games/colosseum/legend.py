"""Colosseum's legend (``k``, and in the help): every code and symbol its panels show, in the
edition's words: the tile codes, the arena's marks, the impresarios' column heads (narrow and
wide), a player's board.  The codes come from the same places the panels take them (the
catalog's tiles, ``players.edition_headings``), so the legend says what is on screen."""

from __future__ import annotations

from typing import Any

from colosseum.core.games.colosseum.components import Catalog, load_catalog

from .common import a_word, player_letters

Rows = list[tuple[str, str]]

#: the impresarios' columns, narrow and wide (as ``players.PlayersPanel`` lays them out)
NARROW = (("Acc", 4), ("$", 4), ("Aq", 3), ("St", 3), ("Pr", 3), ("G", 2), ("T", 2), ("g", 2))
WIDE = (("Acclaim", 8), ("Coins", 6), ("Aq", 4), ("Stars", 6), ("Prom", 5), ("Gates", 6), ("Tmp", 4), ("Gift", 5))


def _tiles(cat: Catalog) -> Rows:
    term = cat.term
    rows: Rows = []
    kinds = [k for k in cat.holdable if k >= 0]
    if cat.aquila_tile >= 0:
        kinds.append(cat.aquila_tile)
    for k in kinds:
        tile = cat.tiles[k]
        name = cat.name_of(k)
        if k == cat.balatro:
            what = f"{name} ({'joker' if cat.rules.terms else 'wild'}): fills any gap of a {term('spectacle')}"
        elif k == cat.aquila_tile:
            what = f"{name}: {a_word(term('aquila'))} as soon as won"
        elif k == cat.construction:
            what = f"construction tile: {a_word(term('aquila'))} at any time, or pays an extra investment"
        else:
            star = f" (has {a_word(term('star'))})" if k in cat.star_types else ""
            what = f"{name}{star}"
        rows.append((tile.short, what))
    return rows


def _arena(cat: Catalog, variant: str, names: tuple[str, ...]) -> Rows:
    term = cat.term
    gate = term("gate")
    letters = player_letters(names or ("Becky", "Kat", "Laura", "Marcus"))
    whose = f"{letters[0]} for {names[0]}" if names else "b for Becky"
    rows: Rows = [
        ("0-35", "the noble track, clockwise from the top-left corner"),
        (".", "a free space"),
        (
            " ".join(letters),
            f"a player's letter ({whose}; a symbol in the colour-blind theme): their {gate} on that space",
        ),
        ("E C S", f"a noble: the emperor (7 at your {term('gates')}), a consul (5), a senator (3)"),
        ("*", f"{a_word(term('aquila'))} space: a noble a die moves there earns one"),
    ]
    if not cat.rules.skip_occupied:
        rows.append(("+", "more nobles share the space: the first line inside the ring names them (12 E+S)"))
    rows += [
        ("A-E", "the markets, three tiles each"),
        (">", "the market being auctioned, with the high bid and the bidder's mark"),
    ]
    if variant != "original":
        rows.append(("|b|", "a pillar: that player won the market's lot"))
    rows += [
        ("bag", f"tiles left in the bag; {term('promoters')} and {term('gifts')} left in the supply"),
        (f"{term('temple').split(' of ')[0].lower()}s", f"who has built the {term('temple')}"),
        ("highlight", "where the last move ended (and, dimmer, where it left); a dialog's choice"),
    ]
    return rows


def _columns(cat: Catalog) -> Rows:
    from .players import edition_headings

    term = cat.term
    meanings = (
        f"{term('acclaim')}: where the marker stands (the best single performance)",
        "coins (in brackets: the last move's change)",
        f"{term('aquilas')}",
        f"{cat.term_start('stars')} held",
        f"{term('promoters')}",
        f"{term('gates')} built",
        f"the {term('temple')} built (T) or not (-)",
        f"{term('gifts')}",
    )
    narrow = edition_headings(cat, NARROW, False)
    wide = edition_headings(cat, WIDE, True)
    rows: Rows = [(f"{n} / {w}" if n != w else n, m) for (n, _), (w, _), m in zip(narrow, wide, meanings, strict=True)]
    rows += [
        (">", "the player to act"),
        ("F", "the first player of the round"),
        ("(+9)", "what the last move changed"),
        (
            "Stacks",
            f"the {'score' if cat.rules.terms else 'Acclaim'} markers on each space, the bottom of the stack first",
        ),
    ]
    return rows


def _board(cat: Catalog) -> Rows:
    term = cat.term
    return [
        ("Gla 2", f"tiles held of a type; * after it: its {term('star')}"),
        ("have", "performers matched / needed"),
        ("miss", "performers missing after matching (balatros fill gaps)"),
        ("now", f"the {term('acclaim')} it would score now; -- it cannot be performed yet"),
        ("up", "performed before (face up)"),
        ("3g 4g", f"{term('gates')} it needs"),
        ("~", "a name cut to fit"),
    ]


def legend(setup: Any) -> list[tuple[str, Rows]]:
    variant = str(getattr(setup, "variant", "grand")) if setup is not None else "grand"
    cat = load_catalog(variant)
    return [
        ("Tiles", _tiles(cat)),
        ("Arena", _arena(cat, variant, tuple(getattr(setup, "players", ()) or ()))),
        ("Impresarios: the columns", _columns(cat)),
        (f"A player's board ({cat.term_start('spectacles')})", _board(cat)),
    ]
