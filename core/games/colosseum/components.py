"""Static game data: tiles, spectacles, the noble track and the rules parameters of each variant.

Loaded from ``core/data/*.toml`` with msgspec and validated on load; anything inconsistent
raises :class:`CatalogError` naming the record.  The catalog is immutable and cached per variant.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import msgspec


class CatalogError(ValueError):
    """The shipped game data is inconsistent."""


# ---------------------------------------------------------------- raw records (file schema)


class TileRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    code: str
    name: str
    short: str
    name_2007: str
    performer: bool
    count: int
    count_classic: int
    starting: int
    star: bool
    star_classic: bool
    source: str
    short_2007: str = ""  # the short name in the original edition; "" = ``short``


class SpectacleRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    size: Literal["small", "medium", "large"]
    requirement: dict[str, int]
    strip: list[int]
    classic: bool
    source: str
    number: int = 0
    number_2007: int = 0
    cost: int = 0
    pile: str = ""
    icon: str = ""


class GatePairs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    players: int
    pairs: list[list[int]]
    source: str


class TrackRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    spaces: int
    emperor: list[int]
    consuls: list[int]
    senators: list[int]
    aquila_spaces: list[int]
    aquila_source: str
    source: str
    gate_pairs: list[GatePairs]


class ComponentsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    track: TrackRecord
    tiles: list[TileRecord]
    spectacles: list[SpectacleRecord]


class VariantRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    source: str
    gifts: int
    tile_count: Literal["count", "count_classic"]
    star_column: Literal["star", "star_classic"]
    small_deal: Literal["piles", "random2", "numbered"]
    spectacles_classic_only: bool
    investments_per_turn: int
    investment_kinds_distinct: bool
    extra_investment_aquilas: int
    construction_for_aquila: bool
    dice: int
    temple_dice: int
    temple_ranges: bool
    skip_occupied: bool
    endgame_aquila_acclaim: int
    # The parameters below were added for the original 2007 edition (O-1..O-30); their
    # defaults are The Grand Spectacle's, so the grand and classic blocks need not name them.
    rounds: int = 0  # O-1: rounds played; 0 = the gifts decide (G-5.4: gifts + 1 rounds)
    spectacles_2007: bool = False  # O-10: only the thirty numbered 2007 programs
    starting_tiles: dict[str, int] = {}  # O-9: per player count; empty = the common figure
    green_markets: bool = False  # O-9: the markets start with starting tiles, one left aside
    start_gates: Literal["choose", "fixed"] = "choose"  # G-1.6 / O-7
    first_player: Literal["random", "first-gate"] = "random"  # G-1.4 / O-8
    next_first: Literal["least-chooses", "clockwise"] = "least-chooses"  # G-6.3 / O-27
    max_extras: int = -1  # C-3 extras per turn, -1 = no limit (D-13) / O-11: 1
    numbering: Literal["", "performed", "purchased"] = ""  # O-12 numbering rule
    upgrades: Literal["promoter-temple", "ticket-loge"] = "promoter-temple"  # G-2 / O-14, O-15
    promoters: int = 0  # supply of promoters / season tickets; 0 = the common figure
    promoter_cost: int = 0  # 0 = the common figure
    temple_cost: int = 0  # 0 = the common figure
    credit: bool = True  # G-3.4 Aquilas count towards bids / O-18: coins only
    aquila_exchange: bool = True  # G-8 / O-11
    aquilas_tradable: bool = True  # G-4 / O-19
    aquila_supply: int = 0  # 0 = unlimited (G-8) / O-2: 18 medals
    one_win_per_phase: bool = False  # A07 always on (O-17)
    gift_timing: Literal["perform", "closing"] = "perform"  # G-5.4 end of Phase 4 / O-24 Phase 5
    tie_break: Literal["stack", "coins-dice"] = "stack"  # G-5.4, G-6.2 / O-24, O-26
    steal_from: Literal["most", "gift"] = "most"  # G-6.2 / O-26: this round's podium winner
    steal_tiles: Literal["holdable", "performers"] = "holdable"  # G-6.2 / O-26: normal tiles
    end_tie: Literal["stack", "shared"] = "stack"  # G-9 / O-29
    terms: dict[str, str] = {}  # words of this edition (promoter -> season ticket ...)
    tile_names: Literal["name", "name_2007"] = "name"  # O-2: the original's tile names (Torch, Cage)


class CommonRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: str
    starting_coins: int
    gates: int
    promoters: int
    gate_cost: int
    promoter_cost: int
    temple_cost: int
    min_opening_bid: int
    aquila_coins: int
    aquila_noble_steps: int
    aquila_acclaim: int
    promoter_acclaim: int
    gift_acclaim: int
    performed_acclaim: int
    star_acclaim: int
    star_minimum: int
    emperor_acclaim: int
    consul_acclaim: int
    senator_acclaim: int
    starting_tiles: dict[str, int]
    gates_needed: dict[str, int]
    min_short: dict[str, int]
    max_deal_proposals: int


class VariantsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    grand: VariantRecord
    classic: VariantRecord
    original: VariantRecord
    common: CommonRecord


# ---------------------------------------------------------------- the engine's view


class Spectacle(msgspec.Struct, frozen=True):
    """One spectacle tile.  ``need`` is the requirement as a count per tile kind index."""

    id: int
    key: str
    name: str
    size: str
    number: int
    cost: int
    pile: str
    icon: str
    need: tuple[int, ...]
    total: int
    strip: tuple[int, ...]
    gates: int
    max_missing: int
    source: str
    req: tuple[tuple[int, int], ...] = ()  # (tile kind, count) for each required type
    number_2007: int = 0  # O-10: program number in the 2007 edition (0: not a 2007 program)

    def acclaim_for_missing(self, missing: int) -> int | None:
        """G-5.3 step 1: the strip value, or None where the strip has no entry (G-5.2)."""
        if 0 <= missing <= self.max_missing:
            return self.strip[missing]
        return None


VARIANTS = ("grand", "classic", "original")

#: The Grand Spectacle's words for what the original 2007 edition names otherwise (O-2).
_TERMS = {
    "promoter": "promoter",
    "promoters": "promoters",
    "temple": "Temple of Fortuna",
    "gift": "gift",
    "gifts": "gifts",
    "aquila": "Aquila",
    "aquilas": "Aquilas",
    "spectacle": "spectacle",
    "spectacles": "spectacles",
    "gate": "gate",
    "gates": "gates",
    "acclaim": "Acclaim",  # the score
    "scoring": "G-5.3",  # the rule that counts a performance's score
    "a gate bought": "a gate",  # an investment's gate (O-13: an arena extension)
    "gate rule": "G-2",  # the rule of that investment
    "star": "Star Performer",  # O-4: a star card
    "stars": "Star Performers",
    "hire phase": "Hire Performers",  # Phase 2's title in the log
    "trade phase": "Trade Performers",  # Phase 3's
    # each phase's short title (the header, a dialog's title): ``queries.phase_title``
    "phase setup": "Setup",
    "phase invest": "Phase 1 Invest",
    "phase hire": "Phase 2 Hire",
    "phase trade": "Phase 3 Trade",
    "phase perform": "Phase 4 Perform",
    "phase closing": "Phase 5 Closing",
    "phase over": "Game over",
    "performer": "performer",  # a tile a spectacle needs (the original's asset tiles)
}
OPTIONS = ("auction-2007",)


def a_word(word: str) -> str:
    """``word`` with its indefinite article, by its first letter ("an Aquila", "a medal", "an
    arena piece", "an Elephant")."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


class Catalog(msgspec.Struct, frozen=True):
    variant: str
    rules: VariantRecord
    common: CommonRecord
    tiles: tuple[TileRecord, ...]
    codes: tuple[str, ...]
    index: dict[str, int]
    performers: tuple[int, ...]  # tile kinds that are performers (the twelve types)
    star_types: tuple[int, ...]  # performer kinds with a Star Performer in this variant
    counts: tuple[int, ...]  # tiles of each kind in this variant
    starting: tuple[int, ...]  # dark-backed starting tiles of each kind
    spectacles: tuple[Spectacle, ...]
    display: tuple[int, ...]  # medium and large spectacles of this variant
    smalls: tuple[int, ...]  # small spectacles of this variant
    track_spaces: int
    noble_starts: tuple[int, ...]  # emperor, consul, consul, senator, senator, senator
    noble_kinds: tuple[str, ...]
    aquila_spaces: frozenset[int]
    gate_pairs: dict[int, tuple[tuple[int, int], ...]]
    # Tile kinds a player can hold, trade (G-4) and have stolen (G-6.2): the performers,
    # balatros and, in the classic game, construction tiles (decision D-11).
    holdable: tuple[int, ...] = ()
    balatro: int = -1  # tile kind index of the balatro (Bal)
    aquila_tile: int = -1  # ... of the Aquila tile (Aq)
    construction: int = -1  # ... of the construction tile (Con)
    spectacle_index: dict[str, int] = {}  # spectacle key -> id
    # Figures a variant may set apart from the common ones (O-14, O-15 for the original).
    promoter_supply: int = 0
    promoter_price: int = 0
    temple_price: int = 0
    starting_per_player: dict[int, int] = {}  # tiles dealt per player count (G-1.8, O-9)
    rounds: int = 0  # rounds in a game (G-5.4: gifts + 1; O-1: 5)

    def term(self, word: str) -> str:
        """The word this edition uses for ``word`` (promoter, temple, gift, aquila, spectacle,
        gate and their plurals): the original 2007 edition has its own names (O-2)."""
        return self.rules.terms.get(word) or _TERMS.get(word, word)

    def term_start(self, word: str) -> str:
        """``term(word)`` to begin a sentence or a heading ("Spectators", "Acclaim")."""
        found = self.term(word)
        return found[:1].upper() + found[1:]

    def a_term(self, word: str) -> str:
        """``term(word)`` with its indefinite article ("a gate", "an arena piece")."""
        return a_word(self.term(word))

    def count_term(self, count: int, word: str) -> str:
        """``count`` and this edition's word for ``word`` (a plural ending in "s"), singular for
        1: "1 Aquila", "2 medals"."""
        return f"{count} {self.term(word[:-1] if count == 1 else word)}"

    def label(self, spec: Spectacle) -> str:
        """``spec``'s name as a player reads it: with its program number where the numbering
        rule applies (O-12: "#14 Satyricon of Momus")."""
        return f"#{spec.number_2007} {spec.name}" if self.rules.numbering else spec.name

    def program_number(self, spec: Spectacle) -> int:
        """The number a player sees on ``spec``: its 2007 program number in a ruleset with the
        numbering rule (O-10, O-12), else its display number (0 for small tiles)."""
        return spec.number_2007 if self.rules.numbering else spec.number

    def name_of(self, kind: int, count: int = 1) -> str:
        name = self.tiles[kind].name
        if count == 1 or name.endswith("s"):
            return name
        if name.endswith(("ch", "sh", "x")):
            return name + "es"  # Torches
        if name.endswith("y") and name[-2:-1] not in "aeiou":
            return name[:-1] + "ies"  # Sceneries
        return name + "s"


def _read(name: str) -> bytes:
    # the data next to this module when it is a file (always, but in a zipped install): reading
    # it directly spares importlib.resources' readers at every start
    beside = Path(__file__).parent / "data" / name
    if beside.is_file():
        return beside.read_bytes()
    from importlib import resources

    return resources.files("colosseum.core.games.colosseum").joinpath("data", name).read_bytes()


class CompiledData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``data/compiled.json``: the two TOML files decoded, for a fast start (TOML parsing costs
    ~40 ms at every launch; JSON well under 1 ms).  The TOML files are the source people edit;
    ``python -m colosseum.core.games.colosseum.components`` rebuilds this file and a test fails when it is stale."""

    components: ComponentsFile
    variants: VariantsFile


COMPILED = "compiled.json"


def _from_toml() -> tuple[ComponentsFile, VariantsFile]:
    try:
        comps = msgspec.toml.decode(_read("components.toml"), type=ComponentsFile)
        variants = msgspec.toml.decode(_read("variants.toml"), type=VariantsFile)
    except msgspec.ValidationError as exc:  # pragma: no cover - shipped data is tested
        raise CatalogError(f"game data: {exc}") from exc
    return comps, variants


def compile_data() -> bytes:
    """The contents ``data/compiled.json`` should have, from the TOML sources."""
    comps, variants = _from_toml()
    return msgspec.json.format(msgspec.json.encode(CompiledData(comps, variants)), indent=1) + b"\n"


@cache
def data_files() -> tuple[ComponentsFile, VariantsFile]:
    try:
        data = msgspec.json.decode(_read(COMPILED), type=CompiledData)
    except (OSError, msgspec.DecodeError):  # no compiled copy: read the sources
        return _from_toml()
    return data.components, data.variants


@cache
def load_catalog(variant: str = "grand") -> Catalog:
    """The validated catalog for ``variant`` ('grand', 'classic' or 'original')."""
    if variant not in VARIANTS:
        raise CatalogError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    comps, variants = data_files()
    rules: VariantRecord = getattr(variants, variant)
    common = variants.common
    tiles = tuple(comps.tiles)
    if rules.tile_names == "name_2007":  # O-2: every word a player reads of a tile is the edition's
        tiles = tuple(msgspec.structs.replace(t, name=t.name_2007, short=t.short_2007 or t.short) for t in tiles)
    codes = tuple(t.code for t in tiles)
    if len(set(codes)) != len(codes):
        raise CatalogError("game data: duplicate tile codes")
    for special in ("Bal", "Aq", "Con"):
        if special not in codes:
            raise CatalogError(f"game data: tile kind {special} missing")
    index = {c: i for i, c in enumerate(codes)}
    performers = tuple(i for i, t in enumerate(tiles) if t.performer)
    counts = tuple(getattr(t, rules.tile_count) for t in tiles)
    starting = tuple(t.starting for t in tiles)
    for t, n, s in zip(tiles, counts, starting, strict=False):
        if n < 0 or s < 0 or s > n:
            raise CatalogError(f"game data: tile {t.code}: bad counts ({n}, starting {s})")
        if not t.source:
            raise CatalogError(f"game data: tile {t.code} has no source")
    star_types = tuple(i for i in performers if getattr(tiles[i], rules.star_column))

    track = comps.track
    n_space = track.spaces
    limits = {"small": 1, "medium": common.min_short["medium"], "large": common.min_short["large"]}
    specs: list[Spectacle] = []
    keys: set[str] = set()
    for rec in comps.spectacles:
        if rec.key in keys:
            raise CatalogError(f"game data: duplicate spectacle {rec.key}")
        keys.add(rec.key)
        if not rec.source:
            raise CatalogError(f"game data: spectacle {rec.key} has no source")
        need = [0] * len(tiles)
        for code, n in rec.requirement.items():
            if code not in index or not tiles[index[code]].performer or n <= 0:
                raise CatalogError(f"game data: spectacle {rec.key}: bad requirement {code}={n}")
            need[index[code]] = n
        total = sum(need)
        if any(a <= b for a, b in zip(rec.strip, rec.strip[1:], strict=False)):
            raise CatalogError(f"game data: spectacle {rec.key}: strip must fall")
        if rec.size == "small":
            max_missing = total - 1  # G-5.2: at least 1 matched performer
        else:
            max_missing = limits[rec.size]
        max_missing = min(max_missing, len(rec.strip) - 1)
        if rec.size != "small" and rec.cost <= 0:
            raise CatalogError(f"game data: spectacle {rec.key} has no cost")
        if rec.size == "small" and rec.pile not in ("A", "B", "C"):
            raise CatalogError(f"game data: small spectacle {rec.key} has no pile")
        specs.append(
            Spectacle(
                id=len(specs),
                key=rec.key,
                name=rec.name,
                size=rec.size,
                number=rec.number,
                cost=rec.cost,
                pile=rec.pile,
                icon=rec.icon,
                need=tuple(need),
                total=total,
                strip=tuple(rec.strip),
                gates=common.gates_needed[rec.size],
                max_missing=max_missing,
                source=rec.source,
                req=tuple((k, n) for k, n in enumerate(need) if n),
                number_2007=rec.number_2007,
            )
        )
    in_variant = [
        s
        for s, rec in zip(specs, comps.spectacles, strict=False)
        if (rec.classic or not rules.spectacles_classic_only) and (rec.number_2007 or not rules.spectacles_2007)
    ]
    if rules.spectacles_2007:
        numbers = sorted(s.number_2007 for s in in_variant)
        if numbers != list(range(1, 31)):
            raise CatalogError(f"game data: the 2007 programs must be numbered 1 to 30, not {numbers}")
    display = tuple(s.id for s in in_variant if s.size != "small")
    smalls = tuple(s.id for s in in_variant if s.size == "small")

    starts = (*track.emperor, *track.consuls, *track.senators)
    if len(starts) != 6 or len(set(starts)) != 6 or not all(0 <= p < n_space for p in starts):
        raise CatalogError("game data: noble start spaces must be six distinct spaces")
    kinds = ("emperor",) * len(track.emperor) + ("consul",) * len(track.consuls) + ("senator",) * len(track.senators)
    pairs: dict[int, tuple[tuple[int, int], ...]] = {}
    for gp in track.gate_pairs:
        ps = []
        for a, b in gp.pairs:
            if (a + 1) % n_space != b:
                raise CatalogError(f"game data: gate pair {a}-{b} is not adjacent")
            ps.append((a, b))
        if len(ps) < gp.players:
            raise CatalogError(f"game data: too few gate pairs for {gp.players} players")
        pairs[gp.players] = tuple(ps)
    return Catalog(
        variant=variant,
        rules=rules,
        common=common,
        tiles=tiles,
        codes=codes,
        index=index,
        performers=performers,
        star_types=star_types,
        counts=counts,
        starting=starting,
        spectacles=tuple(specs),
        display=display,
        smalls=smalls,
        track_spaces=n_space,
        noble_starts=starts,
        noble_kinds=kinds,
        aquila_spaces=frozenset(track.aquila_spaces),
        gate_pairs=pairs,
        holdable=(*performers, index["Bal"]) + ((index["Con"],) if counts[index["Con"]] else ()),
        balatro=index["Bal"],
        aquila_tile=index["Aq"],
        construction=index["Con"],
        spectacle_index={sp.key: sp.id for sp in specs},
        promoter_supply=rules.promoters or common.promoters,
        promoter_price=rules.promoter_cost or common.promoter_cost,
        temple_price=rules.temple_cost or common.temple_cost,
        starting_per_player={int(k): v for k, v in (rules.starting_tiles or common.starting_tiles).items()},
        rounds=rules.rounds or rules.gifts + 1,
    )


if __name__ == "__main__":  # python -m colosseum.core.games.colosseum.components: rebuild data/compiled.json
    from pathlib import Path

    target = Path(__file__).parent / "data" / COMPILED
    target.write_bytes(compile_data())
    print(f"wrote {target}")
