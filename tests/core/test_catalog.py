"""The shipped game data (core/data/*.toml) against docs/rules.md (component figures)."""

from __future__ import annotations

import pytest

from colosseum.core.games.colosseum import CatalogError, load_catalog, match, spectacle_by_key

GRAND, CLASSIC = load_catalog("grand"), load_catalog("classic")


def counts(cat):
    return {cat.codes[k]: n for k, n in enumerate(cat.counts)}


def test_tile_counts_per_mode():
    assert counts(GRAND) == {
        "G": 24,
        "Co": 12,
        "M": 12,
        "H": 12,
        "FE": 12,
        "P": 12,
        "S": 12,
        "L": 12,
        "Sc": 12,
        "D": 12,
        "Ch": 12,
        "E": 12,
        "Bal": 6,
        "Aq": 6,
        "Con": 0,
    }
    assert counts(CLASSIC) == {
        "G": 20,
        "Co": 12,
        "M": 12,
        "H": 12,
        "FE": 12,
        "P": 11,
        "S": 11,
        "L": 10,
        "Sc": 10,
        "D": 10,
        "Ch": 10,
        "E": 10,
        "Bal": 4,
        "Aq": 4,
        "Con": 4,
    }
    assert sum(GRAND.counts) + 4 == 172 and sum(CLASSIC.counts) == 152


def test_starting_tiles_are_the_2007_mix_of_40():
    start = {GRAND.codes[k]: n for k, n in enumerate(GRAND.starting) if n}
    assert start == {
        "G": 10,
        "Co": 5,
        "M": 4,
        "H": 6,
        "FE": 1,
        "P": 1,
        "S": 2,
        "L": 2,
        "Sc": 4,
        "D": 3,
        "Ch": 1,
        "E": 1,
    }
    assert sum(GRAND.starting) == 40 and GRAND.starting == CLASSIC.starting
    assert dict(GRAND.common.starting_tiles) == {"3": 8, "4": 7, "5": 6}


def test_performer_types_and_stars():
    assert [GRAND.codes[k] for k in GRAND.performers] == [
        "G",
        "Co",
        "M",
        "H",
        "FE",
        "P",
        "S",
        "L",
        "Sc",
        "D",
        "Ch",
        "E",
    ]
    assert GRAND.star_types == GRAND.performers
    assert GRAND.holdable == (*GRAND.performers, GRAND.balatro)
    assert CLASSIC.holdable == (*CLASSIC.performers, CLASSIC.balatro, CLASSIC.construction)


def test_track():
    assert GRAND.track_spaces == 36
    assert GRAND.noble_starts == (0, 12, 26, 6, 19, 30)
    assert GRAND.noble_kinds == ("emperor", "consul", "consul", "senator", "senator", "senator")
    assert GRAND.aquila_spaces == frozenset({0, 6, 12, 19, 26, 30})
    assert GRAND.gate_pairs == {
        3: ((8, 9), (21, 22), (32, 33)),
        4: ((3, 4), (14, 15), (23, 24), (32, 33)),
        5: ((2, 3), (8, 9), (15, 16), (23, 24), (32, 33)),
    }


def test_spectacles_sizes_numbers_and_display():
    sizes = {"small": 0, "medium": 0, "large": 0}
    for s in GRAND.spectacles:
        sizes[s.size] += 1
        assert s.gates == {"small": 2, "medium": 3, "large": 4}[s.size]
        assert all(a > b for a, b in zip(s.strip, s.strip[1:], strict=False))
    assert sizes == {"small": 12, "medium": 10, "large": 12}
    assert sorted(GRAND.spectacles[i].number for i in GRAND.display) == list(range(1, 23))


def test_g52_minimum_performers_per_size():
    """G-5.2: small 1, medium requirement - 5, large requirement - 6 (when the strip allows)."""
    for s in GRAND.spectacles:
        least = s.total - s.max_missing
        if s.size == "small":
            assert least == max(1, s.total - (len(s.strip) - 1))
        elif s.size == "medium":
            assert s.max_missing == min(5, len(s.strip) - 1)
        else:
            assert s.max_missing == min(6, len(s.strip) - 1)


def test_rulebook_checks():
    """components.md: Satyricon with 2Co 1P 1FE 1D is 3 short and scores 9; Neptune's Fury
    requires 13 and may be performed with 7."""
    sat = spectacle_by_key(GRAND, "satyricon-of-momus")
    tiles = [0] * len(GRAND.tiles)
    for code, n in {"Co": 2, "P": 1, "FE": 1, "D": 1}.items():
        tiles[GRAND.index[code]] = n
    m = match(GRAND, tuple(tiles), sat)
    assert (m.missing, sat.acclaim_for_missing(m.missing)) == (3, 9)
    assert (sat.cost, sat.number) == (14, 4)
    nf = spectacle_by_key(GRAND, "neptunes-fury")
    assert nf.total == 13 and nf.total - nf.max_missing == 7 and nf.cost == 35
    assert nf.acclaim_for_missing(7) is None


def test_every_record_has_a_source_and_designed_figures_say_so():
    designed = {s.key for s in GRAND.spectacles if s.source.startswith("designed")}
    assert designed == {"ships-of-triton", "pugnae-bestiae", "hannibals-crossing", "games-of-trajan"}
    assert all(s.source for s in GRAND.spectacles) and all(t.source for t in GRAND.tiles)
    # the 2007 small programs: their contents are sourced, their piles and icons are not
    for s in GRAND.spectacles:
        if s.size == "small" and s.source.startswith("2007"):
            assert "designed" in s.source and ("icon" in s.source) == bool(s.icon), s.key
    # 2007 names: the special tiles are only a picture in 004 (O-3), so a name for them is designed
    aq = GRAND.tiles[GRAND.aquila_tile]
    assert aq.name_2007 != "Season ticket" and "2007 name designed" in aq.source


def test_starting_gate_pairs_are_designed():
    from colosseum.core.games.colosseum.components import data_files

    comps, _ = data_files()
    assert all(gp.source.startswith("designed") for gp in comps.track.gate_pairs)


def test_classic_spectacles():
    """C-1 takes out only the two small tiles it names: all twelve large tiles stay."""
    keys = {CLASSIC.spectacles[i].key for i in CLASSIC.smalls + CLASSIC.display}
    assert len(CLASSIC.smalls) == 10 and len(CLASSIC.display) == 22
    assert "hannibals-crossing" in keys and "games-of-trajan" in keys
    assert not keys & {"ships-of-triton", "pugnae-bestiae"}


def test_original_programs_are_the_thirty_numbered_2007_programs():
    """O-10: programs #1-30 by their 2007 number; the four designed tiles are not used."""
    orig = load_catalog("original")
    numbers = sorted(orig.spectacles[i].number_2007 for i in orig.smalls + orig.display)
    assert numbers == list(range(1, 31))
    assert {orig.spectacles[i].number_2007 for i in orig.smalls} == set(range(1, 11))
    for i in orig.display:
        spec = orig.spectacles[i]
        assert spec.number_2007 == spec.number + 10  # medium/large tile n is program #(n+10)
        assert (spec.size == "medium") == (spec.number_2007 <= 20)
    sat = spectacle_by_key(orig, "satyricon-of-momus")
    assert orig.program_number(sat) == 14 and orig.label(sat) == "#14 Satyricon of Momus"
    assert GRAND.program_number(sat) == 4 and GRAND.label(sat) == "Satyricon of Momus"


def test_unknown_variant():
    with pytest.raises(CatalogError):
        load_catalog("deluxe")


def test_compiled_data_matches_the_toml_sources():
    """core/data/compiled.json (read at start-up) is the TOML files decoded; after editing a TOML
    file run `python -m colosseum.core.games.colosseum.components` to rebuild it."""
    from importlib import resources

    from colosseum.core.games.colosseum.components import COMPILED, compile_data

    shipped = resources.files("colosseum.core.games.colosseum").joinpath("data", COMPILED).read_bytes()
    assert shipped == compile_data(), (
        "core/data/compiled.json is stale: run python -m colosseum.core.games.colosseum.components"
    )
