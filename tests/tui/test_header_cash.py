"""The header keeps the acting player's cash at 80 columns: where the prompt leaves no room for
it (the original's "Phase 2 Acquire" and an auction's prompt), the prompt is cut, not the purse."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.text import Text

from colosseum.core.games.colosseum import GameSetup, to_act
from colosseum.tui.games.colosseum.client import CLIENT, MIN_PROMPT
from colosseum.tui.games.colosseum.common import prompt
from colosseum.tui.session import LocalSession, Seat
from colosseum.tui.widgets.header import cut_line

NAMES = ("小明", "[/a]", "Aurelia Maximiliana Cornelia")


def _auction(variant: str) -> LocalSession:
    s = LocalSession(GameSetup(players=NAMES, seed=5, variant=variant), (Seat("greedy"),) * 3)
    for _ in range(2000):
        st = s.state
        if st.phase == "hire" and st.hire is not None and st.hire.auction is not None:
            return s
        assert s.step_bot()
    raise AssertionError("no auction reached")


def _header(state, width: int) -> str:
    line = Text(" COLOSSEUM [Original] ")  # the title and the edition's tag (HeaderLine)
    CLIENT.header(line, state, to_act(state), width=width, theme="textual-dark", dark=True)
    cut_line(line, width)  # (HeaderLine's)
    return line.plain


@pytest.mark.parametrize("variant", ["original", "grand"])
@pytest.mark.parametrize("width", [80, 100])
def test_the_cash_of_the_player_to_act_stays_and_the_prompt_is_cut(variant, width):
    state = _auction(variant).state
    seat = to_act(state)
    cash = f"${state.players[seat].coins}"
    text = _header(state, width)
    assert cell_len(text) <= width
    assert text.rstrip().endswith(cash), text
    _actor, said = prompt(state)
    if said not in text:  # cut: it says so, and keeps at least MIN_PROMPT cells
        assert "..." in text, text
        cut = text[text.index(" | ") + 3 : text.rindex("...") + 3]
        assert cell_len(cut) >= MIN_PROMPT, text


def test_a_header_too_narrow_for_both_keeps_the_prompt():
    """Below MIN_PROMPT cells of room the purse goes (it is in the players' panel), not the prompt."""
    state = _auction("original").state
    text = _header(state, 50)
    assert cell_len(text) <= 50
    assert "$" not in text.split(" | ", 1)[1], text


@pytest.mark.parametrize(("variant", "short"), [("original", "Me"), ("grand", "Aq")])
def test_the_purse_names_aquilas_in_the_editions_word(variant, short):
    """The original's medals read "Me" in the header, as in the players panel's column."""
    s = LocalSession(GameSetup(players=NAMES, seed=5, variant=variant), (Seat("greedy"),) * 3)
    for _ in range(5000):
        st = s.state
        seat = to_act(st)
        if seat >= 0 and st.players[seat].aquilas:
            break
        assert s.step_bot()
    text = _header(st, 120)
    held = st.players[seat].aquilas
    assert text.rstrip().endswith(f"${st.players[seat].coins} {short}{held}"), text
