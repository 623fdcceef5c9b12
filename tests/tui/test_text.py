"""Text by terminal cells, readable slugs of any name, one letter per player."""

from __future__ import annotations

from rich.cells import cell_len

from colosseum.tui.games.colosseum.common import player_letters
from colosseum.tui.text import fit, pad, slug

NAMES = ["ベッキー", "Aurelia Maximiliana Cornelia", "小明"]


def test_fit_and_pad_count_cells():
    for name in NAMES:
        for width in range(1, 12):
            assert cell_len(fit(name, width)) <= width
            assert cell_len(pad(name, width)) == width
            assert cell_len(pad(name, width, ">")) == width
    assert fit("Kat", 5) == "Kat"
    assert fit("ベッキー", 5) == "ベッ~"
    assert fit("Aurelia Maximiliana Cornelia", 14) == "Aurelia Maxim~"
    assert fit("Aurelia Maximiliana Cornelia", 20) == "Aurelia Maximilia..."


def test_slug_keeps_a_readable_form_of_any_name():
    assert slug("ベッキー") == "ベッキー"
    assert slug("小明") == "小明"
    assert slug("Aurelia Maximiliana") == "aurelia-maximiliana"
    assert slug("../..") == "player"
    assert "/" not in slug("a/b") and "\\" not in slug("a\\b")


def test_letters_are_unique_and_latin_names_keep_their_initial():
    assert player_letters(NAMES) == ("b", "a", "c")
    letters = player_letters(["小明", "小红", "Mia", "Ma"])
    assert len(set(letters)) == 4 and letters[2] == "m"
