"""Municipium's static data, loaded from ``core/data/municipium.toml`` and validated.

Institutions, citizen kinds and cards keep the file's order; the engine refers to institutions
and kinds by index (0 Temple … 6 Praetorium; priest, soldier, merchant, advocate) and to cards
by id.  Every record carries a ``source``; records with ``designed = true`` were chosen by this
project (docs/rules.md (Municipium components)) and may be corrected in the data file.
"""

from __future__ import annotations

import tomllib
from collections import deque
from functools import cache
from importlib import resources
from typing import Literal

import msgspec

# The engine knows the effect of each card id; the data decides which deck holds it and how many.
CARD_EFFECTS = (
    "governors_visit",
    "citizens_visit",
    "one_power",
    "all_powers",
    "citizens_invitation",
    "great_family",
    "your_powers",
)
INSTITUTION_IDS = ("temple", "tavern", "baths", "emporium", "basilica", "forum", "praetorium")
KIND_IDS = ("priest", "soldier", "merchant", "advocate")


class MuniCatalogError(ValueError):
    """The Municipium data file is inconsistent."""


class Counts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    favours: int
    favours_source: str
    wreaths: int
    wreaths_source: str
    members: int
    members_source: str
    target: int
    target_source: str
    short_target: int
    short_target_source: str
    temple_spaces: int
    temple_spaces_source: str
    start_governor: str
    start_governor_source: str
    temple_spaces_designed: bool = False


class Family(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    source: str
    designed: bool = False


class CitizenKind(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    letter: str
    colour: str
    count: int
    places: tuple[str, ...]
    source: str
    designed: bool = False


class Institution(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    number: int
    name: str
    japanese: str
    banner: str
    chamber: bool
    power: str
    adjacent: tuple[str, ...]
    source: str
    designed: bool = False


class RouteStep(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"frm": "from"}):
    frm: str
    to: str
    source: str
    designed: bool = False


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    japanese: str
    deck: Literal["common", "family"]
    copies: int
    source: str
    designed: bool = False


class MuniFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    counts: Counts
    families: tuple[Family, ...]
    citizens: tuple[CitizenKind, ...]
    institutions: tuple[Institution, ...]
    route: tuple[RouteStep, ...]
    cards: tuple[Card, ...]


class MuniCatalog:
    """The validated data with index tables the engine uses."""

    def __init__(self, raw: MuniFile) -> None:
        self.raw = raw
        self.counts = raw.counts
        self.kinds = raw.citizens
        self.institutions = raw.institutions
        self.cards = {c.id: c for c in raw.cards}
        inst_index = {r.id: i for i, r in enumerate(raw.institutions)}
        kind_index = {k.id: i for i, k in enumerate(raw.citizens)}
        self.kind_index = kind_index
        self.inst_index = inst_index
        self.kind_total: tuple[int, ...] = tuple(k.count for k in raw.citizens)
        self.adjacent: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(inst_index[a] for a in r.adjacent)) for r in raw.institutions
        )
        self.banner: tuple[int, ...] = tuple(kind_index[r.banner] for r in raw.institutions)
        self.chambers: tuple[int, ...] = tuple(i for i, r in enumerate(raw.institutions) if r.chamber)
        self.places: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(inst_index[p] for p in k.places)) for k in raw.citizens
        )
        nxt = [-1] * len(raw.institutions)
        for step in raw.route:
            nxt[inst_index[step.frm]] = inst_index[step.to]
        self.route: tuple[int, ...] = tuple(nxt)
        self.start_governor = inst_index[raw.counts.start_governor]
        self.common_deck: tuple[str, ...] = tuple(
            c.id for c in raw.cards if c.deck == "common" for _ in range(c.copies)
        )
        self.family_cards: tuple[str, ...] = tuple(c.id for c in raw.cards if c.deck == "family")
        self.distance: tuple[tuple[int, ...], ...] = tuple(self._bfs(i) for i in range(len(raw.institutions)))

    def _bfs(self, start: int) -> tuple[int, ...]:
        dist = [-1] * len(self.adjacent)
        dist[start] = 0
        todo = deque([start])
        while todo:
            i = todo.popleft()
            for j in self.adjacent[i]:
                if dist[j] < 0:
                    dist[j] = dist[i] + 1
                    todo.append(j)
        return tuple(dist)

    def inst_name(self, i: int) -> str:
        return self.institutions[i].name

    def inst_owner(self, i: int) -> str:
        """The institution's name as an owner: "the Baths' chamber", "the Temple's chamber"."""
        name = self.institutions[i].name
        return f"{name}'" if name.endswith("s") else f"{name}'s"

    def kind_name(self, k: int, count: int = 1) -> str:
        name = self.kinds[k].name.lower()
        return name if count == 1 else f"{count} {name}s"

    def a_kind(self, k: int) -> str:
        """'a priest', 'an advocate'."""
        name = self.kind_name(k)
        return ("an " if name[0] in "aeiou" else "a ") + name

    def card_name(self, card: str) -> str:
        return self.cards[card].name


def _validate(raw: MuniFile) -> None:
    def bad(msg: str) -> MuniCatalogError:
        return MuniCatalogError(f"municipium.toml: {msg}")

    if tuple(r.id for r in raw.institutions) != INSTITUTION_IDS:
        raise bad(f"institutions must be {INSTITUTION_IDS} in number order")
    if tuple(k.id for k in raw.citizens) != KIND_IDS:
        raise bad(f"citizen kinds must be {KIND_IDS}")
    for i, r in enumerate(raw.institutions):
        if r.number != i:
            raise bad(f"institution {r.id} has number {r.number}, expected {i}")
        if r.banner not in KIND_IDS:
            raise bad(f"institution {r.id}: unknown banner kind {r.banner!r}")
        for a in r.adjacent:
            if a not in INSTITUTION_IDS or a == r.id:
                raise bad(f"institution {r.id}: bad road to {a!r}")
            other = raw.institutions[INSTITUTION_IDS.index(a)]
            if r.id not in other.adjacent:
                raise bad(f"road {r.id}-{a} is not listed at {a}")
    for k in raw.citizens:
        if k.count <= 1:
            raise bad(f"citizen {k.id}: count {k.count}")
        if not k.places or any(p not in INSTITUTION_IDS for p in k.places):
            raise bad(f"citizen {k.id}: bad places {k.places}")
    for r in raw.institutions:
        kind = raw.citizens[KIND_IDS.index(r.banner)]
        if r.id not in kind.places:
            raise bad(f"institution {r.id}: its banner kind {r.banner} may not be placed there")
    chambers = [r.id for r in raw.institutions if r.chamber]
    nxt = {s.frm: s.to for s in raw.route}
    if sorted(nxt) != sorted(chambers) or sorted(nxt.values()) != sorted(chambers):
        raise bad("the governor's route must visit every chamber once")
    seen, here = set(), raw.counts.start_governor
    if here not in chambers:
        raise bad(f"the governor starts at {here!r}, which has no chamber")
    while here not in seen:
        seen.add(here)
        here = nxt[here]
    if len(seen) != len(chambers):
        raise bad("the governor's route is not one cycle")
    if sorted(c.id for c in raw.cards) != sorted(CARD_EFFECTS):
        raise bad(f"cards must be exactly {CARD_EFFECTS}")
    for c in raw.cards:
        if c.copies < 1 or (c.deck == "family" and c.copies != 1):
            raise bad(f"card {c.id}: {c.copies} copies")
    if not any(c.deck == "common" for c in raw.cards):
        raise bad("the common deck is empty")
    n = raw.counts
    if n.temple_spaces < 4 or len(raw.families) < 4 or n.members < 1 or n.wreaths < 0 or n.favours < 6:
        raise bad("counts too small for 4 players")
    if not 1 <= n.short_target <= n.target:
        raise bad("short target out of range")
    records: list[Family | CitizenKind | Institution | RouteStep | Card] = [
        *raw.families,
        *raw.citizens,
        *raw.institutions,
        *raw.route,
        *raw.cards,
    ]
    for rec in records:
        if not rec.source.strip():
            raise bad(f"record {rec!r} has no source")
    # every institution reachable from every other
    cat = MuniCatalog(raw)
    if any(d < 0 for row in cat.distance for d in row):
        raise bad("the road graph is not connected")


def parse_catalog(text: str) -> MuniCatalog:
    """Parse and validate a data file's text (tests use it to try broken data)."""
    try:
        raw = msgspec.convert(tomllib.loads(text), MuniFile)
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as e:
        raise MuniCatalogError(f"municipium.toml: {e}") from e
    _validate(raw)
    return MuniCatalog(raw)


@cache
def load_catalog() -> MuniCatalog:
    text = (
        resources.files("colosseum.core.games.municipium").joinpath("data/municipium.toml").read_text(encoding="utf-8")
    )
    return parse_catalog(text)
