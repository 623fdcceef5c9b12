"""A finished original 2007 game in its own words everywhere a player reads it after the end:
the export (its log, each performance's lines, the ranking, where the points came from), the
result page and the pages after it, the status line and the players table's heads.  A tester
found "Phase 4: Perform a Spectacle.", "builds a gate", "Nobles at your gates", "= 49 Acclaim",
"Best performance: the spectacle" and "Game over: /a wins with 69 Acclaim" in such a game.
The Grand Spectacle's record keeps its words."""

from __future__ import annotations

import re
from functools import cache

from rich.text import Text

from colosseum.core.games.colosseum import GameSetup
from colosseum.core.games.colosseum.components import load_catalog
from colosseum.core.logread import read_log
from colosseum.tui.export import export_text
from colosseum.tui.games.colosseum.common import prompt
from colosseum.tui.games.colosseum.end import result_text
from colosseum.tui.games.colosseum.legend import NARROW, WIDE
from colosseum.tui.games.colosseum.players import edition_headings
from colosseum.tui.scoresheet import seat_lines, sheet_of
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.storage import finish_recording, start_recording

WORDS_2026 = re.compile(r"\b(acclaim|acclaimed|gates?|spectacles?|aquilas?|promoters?|gifts?|temple)\b", re.I)
NAMES = ("小明", "Becky", "Laura", "/a")


def without_names(variant: str, text: str) -> str:
    """``text`` without the names of tiles and spectacles (the "Aquila tile" is a tile's name)."""
    cat = load_catalog(variant)
    for name in sorted({t.name for t in cat.tiles} | {s.name for s in cat.spectacles}, key=len, reverse=True):
        text = text.replace(name, "")
    return text


def wrong_lines(variant: str, text: str) -> list[str]:
    return [line for line in text.splitlines() if WORDS_2026.search(without_names(variant, line))]


@cache
def finished(variant: str) -> tuple[LocalSession, str]:
    """A seeded game of four easy bots played to the end and recorded: the session, the export."""
    import tempfile
    from pathlib import Path

    s = LocalSession(GameSetup(players=NAMES, seed=7, variant=variant), (Seat("easy"),) * 4)
    with tempfile.TemporaryDirectory() as d:
        path = start_recording(s, Path(d) / "g.jsonl")
        while s.step_bot():
            pass
        finish_recording(s)
        return s, export_text(read_log(path))


def test_the_export_of_an_original_game_says_its_words():
    _, text = finished("original")
    assert not wrong_lines("original", text), wrong_lines("original", text)
    for words in (
        "Phase 4: Perform a Program.",
        "Nobles at your arena pieces",
        " spectators; moves the marker",
        "Best performance: the program (#",
        "Best performance: nobles at the arena pieces",
    ):
        assert words in text, words
    assert re.search(r"\n      Spectators +\d+\n", text)


def test_the_export_of_a_grand_game_keeps_its_words():
    _, text = finished("grand")
    for words in (
        "Phase 4: Perform a Spectacle.",
        "Nobles at your gates",
        " Acclaim; moves the marker",
        "Best performance: the spectacle (",
        "Best performance: nobles at the gates",
        "'s gate)",
    ):
        assert words in text, words
    assert re.search(r"\n      Acclaim +\d+\n", text)
    assert not re.search(r"spectators|arena piece|program|medal", text)


def test_the_result_pages_and_the_status_line_of_an_original_game():
    s, _ = finished("original")
    state = s.state
    pages = [result_text(state, "colosseum-dark").plain]
    sheet = sheet_of(s.rules, s.review_timeline())
    assert sheet is not None
    pages += ["\n".join(seat_lines(sheet, NAMES, seat)) for seat in range(4)]
    for page in pages:
        assert not wrong_lines("original", page), wrong_lines("original", page)
    assert "Best performance: nobles at the arena pieces" in pages[1]
    seat, line = prompt(state)
    assert seat == -1 and re.fullmatch(r"game over: .+ (wins|share the win) with \d+ spectators", line), line
    from colosseum.tui.games.colosseum.client import CLIENT

    head = Text()
    CLIENT.header(head, state, -1, width=120, theme="colosseum-dark", dark=True)
    assert "Game over: " in head.plain and not WORDS_2026.search(head.plain), head.plain


def test_the_grand_status_line_says_acclaim():
    s, _ = finished("grand")
    assert re.fullmatch(r"game over: .+ (wins|share the win) with \d+ Acclaim", prompt(s.state)[1])


def test_the_players_table_heads_the_score_column_in_the_editions_word():
    original, grand = load_catalog("original"), load_catalog("grand")
    assert edition_headings(original, WIDE, True)[0][0] == "Spectat"
    assert edition_headings(original, NARROW, False)[0][0] == "Spe"
    assert edition_headings(grand, WIDE, True)[0][0] == "Acclaim"
    assert edition_headings(grand, NARROW, False)[0][0] == "Acc"


def test_the_perform_dialogs_are_headed_in_the_editions_words():
    """The perform dialog and the dialog of noble moves paid with medals (G-5.1, O-28)."""
    from app_positions import human_session, play_until

    from colosseum.core.games.colosseum import to_act
    from colosseum.tui.games.colosseum.dialogs.nobles import AquilaMoveDialog
    from colosseum.tui.games.colosseum.dialogs.perform import PerformDialog

    def after_the_dice(st):
        return st.phase == "perform" and st.perform is not None and st.perform.stage == "after"

    heads = {}
    for variant in ("original", "grand"):
        s = human_session(play_until(after_the_dice, seed=5, variant=variant), seed=5, variant=variant)
        seat = to_act(s.state)
        heads[variant] = (PerformDialog(s, seat).heading, AquilaMoveDialog(s, seat).heading)
    assert heads == {"original": ("Perform a program", "Medal moves"), "grand": ("Perform a spectacle", "Aquila moves")}
