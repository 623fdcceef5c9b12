"""The guided first game (``colosseum tutorial``, issue 28): each kind of decision's note the
first time it comes up, beside its dialog at 80x24 (never over it), ``z`` skips a note and ``Z``
ends them, the log is the one the same game makes without the guide, and the first start offers
the guided game once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.screen import ModalScreen

from colosseum.core.registry import rules as game_rules
from colosseum.tui.app import ColosseumApp
from colosseum.tui.cli import parse_args
from colosseum.tui.screens.confirm import ConfirmScreen
from colosseum.tui.screens.tutorial import TICK, NotePanel, first_start, tutorial_of, tutorial_session
from colosseum.tui.settings import load_settings, settings_path
from colosseum.tui.storage import record_game

SIZE = (80, 24)
PLAYOUTS = 12  # the hint bot's budget in tests: a few playouts a choice (reproducible, quick)


async def until(pilot, cond, what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def round_over(game: str, state) -> bool:
    """The end of round 1: Colosseum's round 2 begins; Municipium's every player has had a turn."""
    if game == "colosseum":
        return state.round > 1
    return state.turn > len(state.players)


def log_lines(path: Path) -> list[dict]:
    """The log's lines without the time it was made and the digests chained from it."""
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = json.loads(raw)
        line.pop("created", None)
        line.pop("h", None)
        out.append(line)
    return out


def dialog_boxes(app) -> list:
    """The regions of the dialog on top (its box; not its one-row key bar)."""
    top = app.screen
    return [w.region for w in top.children if w.display and w.region.height > 1 and not isinstance(w, NotePanel)]


async def play_round_one(game: str, *, guided: bool, press: dict[int, str] | None = None):
    """Play ``game``'s guided game to the end of round 1 at 80x24, the player's decisions the
    normal bot's (sent as its dialog would send them).  ``press``: a key to press at the n-th
    note.  Returns (the log's lines, the kinds whose note was shown, the kinds met)."""
    session = tutorial_session(game)
    path = record_game(session).path
    rules = session.rules
    me = rules.make_bot("normal", 1)
    app = ColosseumApp(session, bot_delay=0)
    guide = app.guide_session(session, playouts=PLAYOUTS) if guided else None
    met: list[str] = []
    notes = 0
    async with app.run_test(size=SIZE) as pilot:
        while not round_over(game, session.state):
            await until(
                pilot,
                lambda: session.waiting_for() == 0 and isinstance(app.screen, ModalScreen),
                f"the player's dialog after {len(session.actions)} actions",
            )
            state = session.state
            kind = tutorial_of(game).kind_of(state)
            first = kind not in met
            if first:
                met.append(kind)
            if guide is not None:
                if first and not guide.off:
                    await until(
                        pilot,
                        lambda kind=kind: (
                            guide.note is not None
                            and guide.note.kind == kind
                            and guide.panel is not None
                            and guide.panel.is_attached
                            and not isinstance(guide.hint, str)
                        ),
                        f"the note of {kind!r} with its hint",
                    )
                    await pilot.pause(2 * TICK)
                    panel = guide.panel
                    said = str(panel.render())
                    assert tutorial_of(game).notes[kind].rule_ids[0] in said and "Why: " in said, said
                    assert panel.screen is app.screen  # on the dialog's screen
                    # beside the decision, never over it, and within the screen
                    where = Region(*guide.placed)
                    assert panel.region == where, (panel.region, where)
                    for box in dialog_boxes(app):
                        assert not where.overlaps(box), (kind, where, box)
                    assert where.x >= 0 and where.y >= 1 and where.right <= SIZE[0] and where.bottom <= SIZE[1] - 1
                    notes += 1
                    key = (press or {}).get(notes)
                    if key:
                        await pilot.press(key)
                        await until(pilot, lambda: guide.panel is None, f"{key!r} hiding the note")
                        assert guide.note is None
            session.submit(me.act(state))
            await pilot.pause()
        await until(pilot, lambda: not session.bot_to_act(), "the bots to stop")  # (a quiet exit)
        shown = list(guide.shown) if guide is not None else []
    return log_lines(path), shown, met


@pytest.mark.long(26)
@pytest.mark.parametrize("game", ["colosseum", "municipium"])
def test_the_guided_game_to_the_end_of_round_one(game):
    guided, shown, met = asyncio.run(play_round_one(game, guided=True, press={2: "z"}))
    assert shown == met  # every kind met had its note, once, in the order met
    assert len(met) >= (10 if game == "colosseum" else 6), met
    plain, _, _ = asyncio.run(play_round_one(game, guided=False))
    assert guided == plain  # the same game: the guide changes nothing, and keeps no hint
    assert not any("hint" in line for line in guided)


def test_o_ends_the_notes_for_the_rest_of_the_game():
    async def go():
        session = tutorial_session("colosseum")
        app = ColosseumApp(session, bot_delay=0)
        guide = app.guide_session(session, playouts=PLAYOUTS)
        me = session.rules.make_bot("normal", 1)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: guide.note is not None, "the first note")
            await pilot.press("Z")
            await until(pilot, lambda: guide.off and guide.note is None, "the notes off")
            for _ in range(30):  # the next decisions, new kinds among them: no note
                await until(
                    pilot, lambda: session.waiting_for() == 0 and isinstance(app.screen, ModalScreen), "a dialog"
                )
                await pilot.pause(0.25)
                assert guide.note is None and guide.panel is None
                session.submit(me.act(session.state))
            await until(pilot, lambda: not session.bot_to_act(), "the bots to stop")
            assert guide.shown == ["start_gates"]

    asyncio.run(go())


def test_k_and_o_are_no_keys_without_a_note():
    """Without a note on screen the guide's keys do nothing (and are no binding's elsewhere)."""

    async def go():
        session = tutorial_session("colosseum")
        app = ColosseumApp(session, bot_delay=0)  # not guided
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert not app.check_action("tutorial", ("skip",))
            assert not app.check_action("tutorial", ("off",))

    asyncio.run(go())


def test_every_note_fits_and_cites_a_rule_that_exists():
    from rich.console import Console

    from colosseum.tui.screens.tutorial import note_text

    docs = Path(__file__).resolve().parents[2] / "docs"
    text = (docs / "rules.md").read_text(encoding="utf-8") + (docs / "decisions.md").read_text(encoding="utf-8")
    console = Console(width=80)
    for game in ("colosseum", "municipium"):
        tutorial = tutorial_of(game)
        assert tutorial is not None
        for kind, note in tutorial.notes.items():
            assert note.kind == kind and note.title and note.what and note.rule and note.rule_ids
            for rule_id in note.rule_ids:
                assert f"**{rule_id}" in text or f"### {rule_id}" in text or f"| {rule_id} |" in text, rule_id
            # the words before the hint take at most 5 of the 9 lines a note has at 80x24
            lines = note_text(note, "", "hard", "Acclaim").wrap(console, 36)
            assert len(lines) <= 6, (kind, len(lines))


@pytest.mark.parametrize("game", ["colosseum", "municipium"])
def test_every_decision_of_a_whole_game_has_a_note(game):
    """Every position a seat decides in has a kind with a note (bots play a whole game)."""
    tutorial = tutorial_of(game)
    rules = game_rules(game)
    session = tutorial_session(game)
    state = session.state
    bots = [rules.make_bot("normal", seat) for seat in range(tutorial.players)]
    while not rules.is_over(state):
        assert tutorial.note(state) is not None, (tutorial.kind_of(state), rules.progress(state))
        state = rules.apply(state, bots[rules.to_act(state)].act(state))[0]
    assert tutorial.kind_of(state) == ""


def test_the_first_start_offers_the_guided_game_once():
    assert first_start()

    async def go(answer: str):
        app = ColosseumApp(None, record=True)
        app.offer_tutorial = True
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(50):
                await pilot.pause(0.02)
                if isinstance(app.screen, ConfirmScreen):
                    break
            offered = isinstance(app.screen, ConfirmScreen)
            if offered:
                await pilot.press(answer)
                await pilot.pause(0.2)
            guided = app.guide is not None and app.game_screen() is not None
        return offered, guided

    assert asyncio.run(go("y")) == (True, True)
    assert load_settings().tutorial_offered and settings_path().exists()
    assert not first_start()
    assert asyncio.run(go("y")) == (False, False)  # not offered again


def test_no_offer_once_a_game_was_saved_or_when_declined():
    record_game(tutorial_session("colosseum"))
    assert not first_start()


def test_declining_the_offer_keeps_the_new_game_screen():
    async def go():
        app = ColosseumApp(None, record=False)
        app.offer_tutorial = True
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
            await pilot.press("n")
            await pilot.pause()
            return type(app.screen).__name__, app.guide

    assert asyncio.run(go()) == ("NewGameScreen", None)
    assert load_settings().tutorial_offered


def test_the_command_line():
    args = parse_args(["tutorial", "--game", "municipium", "--bot-delay", "0"])
    assert (args.command, args.game, args.bot_delay) == ("tutorial", "municipium", 0)
    session = tutorial_session(args.game, "小明")
    assert session.rules.names(session.state)[0] == "小明"
    assert [s.kind for s in session.seats] == ["human", "easy", "easy"]
