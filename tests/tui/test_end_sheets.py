"""Where the points came from, as shown (issue 28): the end screen's page per player and the
text export's section, for a seeded 4-player grand game, the classic game with the 2007
auctions, an original-edition game and Municipium; the parts shown add up to each final score."""

from __future__ import annotations

import asyncio
import re

import msgspec
import pytest

from colosseum.core.gamelog import make_header
from colosseum.core.logread import read_log
from colosseum.core.logwriter import LogWriter
from colosseum.core.registry import rules
from colosseum.tui.app import ColosseumApp
from colosseum.tui.export import export_text
from colosseum.tui.scoresheet import RULE
from colosseum.tui.session import LocalSession, Seat

NAMES = ("[/a]", "小明", "Aurelia Maximiliana Cornelia", "Kat", "Becky")
CASES = [
    ("colosseum", {"variant": "grand"}, 4, 11),
    ("colosseum", {"variant": "classic", "options": ("auction-2007",)}, 3, 12),
    ("colosseum", {"variant": "original"}, 5, 13),
    ("municipium", {}, 3, 14),
]
IDS = ["grand", "classic-a07", "original", "municipium"]


def finished(game: str, options: dict, n: int, seed: int):
    r = rules(game)
    setup = r.spec.make_setup(NAMES[:n], seed=seed, **options)
    state, actions = r.new_game(setup), []
    bots = [r.make_bot("normal", seed * 10 + i) for i in range(n)]
    while not r.is_over(state):
        action = bots[r.to_act(state)].act(state)
        state, _ = r.apply(state, action)
        actions.append(action)
    return r, setup, actions, state


def parts_and_total(lines: list[str]) -> tuple[int, int]:
    """The parts listed before the rule, added up, and the total after it."""
    at = lines.index(RULE)
    parts = [int(re.match(r"\s*(-?\d+)  ", line).group(1)) for line in lines[:at]]
    total = int(re.match(r"\s*(-?\d+)  ", lines[at + 1]).group(1))
    return sum(parts), total


@pytest.mark.parametrize(("game", "options", "n", "seed"), CASES, ids=IDS)
def test_the_export_shows_each_players_sheet_and_the_parts_add_up(tmp_path, game, options, n, seed):
    r, setup, actions, state = finished(game, options, n, seed)
    w = LogWriter.create_at(tmp_path / "g.jsonl", make_header(setup, ("human",) * n), actions, end=True, fsync=False)
    w.close()
    text = export_text(read_log(w.path))
    assert "\n== Where the points came from ==\n" in text
    section = text.split("\n== Where the points came from ==\n", 1)[1].splitlines()
    heads = [i for i, line in enumerate(section) if line.startswith("  Where ")]
    assert len(heads) == n
    scores = r.scores(state)
    for seat, at in enumerate(heads):
        name = setup.players[seat]
        assert section[at].startswith(f"  Where {name}'s {scores[seat]} ")
        block = [line[2:] for line in section[at + 1 : heads[seat + 1] if seat + 1 < n else None]]
        got, total = parts_and_total(block)
        assert got == total == scores[seat], (name, block)


async def _pages(session) -> list[list[str]]:
    app = ColosseumApp(session, bot_delay=0, theme="colosseum-dark", auto_dialogs=False)
    out = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            if type(app.screen).__name__ == "EndScreen":
                break
            await pilot.pause(0.05)
        await pilot.pause()
        screen = app.screen
        assert type(screen).__name__ == "EndScreen"
        assert screen.pages == 1 + len(session.setup.players)
        assert "Left/Right" in str(screen.query_one("#end-text").render())
        for page in range(1, screen.pages):
            await pilot.press("right")
            await pilot.pause()
            assert screen.page == page
            body = screen.query_one("#end-body")
            assert body.region.right <= 80 and body.region.bottom <= 23
            out.append(str(screen.query_one("#end-text").render()).splitlines())
        await pilot.press("right")  # the last page stays
        assert screen.page == screen.pages - 1
        await pilot.press(*["left"] * screen.pages)
        await pilot.pause()
        assert screen.page == 0  # the first page stays
    return out


@pytest.mark.parametrize(("game", "options", "n", "seed"), CASES, ids=IDS)
def test_the_end_screen_has_a_page_per_player_whose_parts_add_up(game, options, n, seed):
    from rich.cells import cell_len

    r, setup, actions, state = finished(game, options, n, seed)
    session = LocalSession(setup, (Seat("human"),) * n, actions=actions)
    pages = asyncio.run(_pages(session))
    scores = r.scores(state)
    for seat, lines in enumerate(pages):
        assert lines[0][1:].startswith(f" Where {setup.players[seat]}'s {scores[seat]} ")  # (after the mark)
        got, total = parts_and_total(lines[1:])
        assert got == total == scores[seat], (seat, lines)
        assert all(cell_len(line) <= 74 for line in lines)  # within the body at 80 columns


def test_snapshot_of_a_players_page(snap_compare):
    _r, setup, actions, _state = finished(*CASES[0])
    setup = type(setup)(**{**msgspec.structs.asdict(setup), "players": ("[/a]", "Kat", "Aurelia Maximiliana", "Bo")})
    session = LocalSession(setup, (Seat("human"),) * 4, actions=actions)  # (ASCII names: the glyph test)
    app = ColosseumApp(session, bot_delay=0, theme="colosseum-dark", auto_dialogs=False)

    async def second_page(pilot):
        for _ in range(40):
            if type(pilot.app.screen).__name__ == "EndScreen":
                break
            await pilot.pause(0.05)
        await pilot.pause()
        await pilot.press("right", "right")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=second_page)


def test_the_final_marker_says_where_it_is_not_the_best_performance():
    """The end screen's chart shows each round's performance; the marker keeps the best (G-5.3)
    and Aquilas turned in at the end move it on: the line under the chart says so."""
    from types import SimpleNamespace

    from msgspec.structs import replace

    from colosseum.core.games.colosseum import GameSetup, new_game
    from colosseum.tui.games.colosseum.end import _final

    st = new_game(GameSetup(players=("小明", "[/a]", "Kat"), seed=3))
    players = list(st.players)
    players[0] = replace(players[0], history=(5, 9, 7))
    players[1] = replace(players[1], history=(4, 8, 6))
    st = replace(st, players=tuple(players))
    assert _final(st, SimpleNamespace(seat=0, acclaim=12)) == "小明 12 (best performance 9, +3 at the end)"
    assert _final(st, SimpleNamespace(seat=1, acclaim=8)) == "[/a] 8"
