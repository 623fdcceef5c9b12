"""Following the table: the last move marked, "Since your last turn", offers to a bot's trade
turn, the bot pace keys and the your-turn bell."""

from __future__ import annotations

import asyncio

import pytest
from app_positions import NAMES, play_until
from rich.cells import cell_len
from rich.console import Console

from colosseum.core.games.colosseum import GameSetup, ProposeDeal, Transfer, to_act
from colosseum.core.games.colosseum.summary import Changes, Follow, changes
from colosseum.tui.app import ColosseumApp
from colosseum.tui.games.colosseum.board import BoardPanel, ring_position
from colosseum.tui.games.colosseum.dialogs.base import DecisionDialog
from colosseum.tui.games.colosseum.players import PlayersPanel
from colosseum.tui.session import LocalSession, Seat


def run(coro) -> None:
    asyncio.run(coro)


def session_at(until, kinds: tuple[str, ...], *, seed: int = 3) -> LocalSession:
    n = len(kinds)
    actions = play_until(until, n=n, seed=seed)
    setup = GameSetup(players=NAMES[:n], seed=seed)
    return LocalSession(setup, tuple(Seat(k) for k in kinds), actions=actions)


def reversed_at(text, offset: int) -> bool:
    style = text.get_style_at_offset(Console(), offset)
    return bool(style.reverse)


# ---------------------------------------------------------------------- core


def test_changes_compare_states_only():
    actions = play_until(lambda st: st.phase == "over", n=4)
    setup = GameSetup(players=NAMES[:4], seed=3)
    session = LocalSession(setup, (Seat("human"),) * 4, actions=actions)
    steps = session.follow.steps
    assert len(steps) == len(actions)
    moves = [s for s in steps if s.before.nobles != s.after.nobles]
    assert moves
    c = changes(moves[0].before, moves[0].after)
    assert c.nobles and all(moves[0].after.nobles[i] == sp for i, sp in zip(c.nobles, c.spaces, strict=True))
    performs = [s for s in steps if any(e.kind == "perform" for e in s.events)]
    c = changes(performs[0].before, performs[0].after)
    assert c.performed and c.performed[0][0] == performs[0].actor
    assert c.acclaim[performs[0].actor] > 0


def test_marks_last_until_someone_else_acts():
    actions = play_until(lambda st: st.phase == "over", n=4)
    setup = GameSetup(players=NAMES[:4], seed=3)
    session = LocalSession(setup, (Seat("human"),) * 4)
    follow = Follow(session.state)
    marked = Changes()
    for a in actions:
        before = session.state
        events = session.submit(a)
        follow.record(session.state, events)
        m = follow.marks()
        step = changes(before, session.state)
        if step.empty:  # a bid or a pass: the last move stays marked
            assert m == marked
            continue
        assert m.actor == to_act(before)
        for noble in step.nobles:
            assert noble in m.nobles and session.state.nobles[noble] in m.spaces
        assert set(step.markets) <= set(m.markets) or m.markets
        marked = m


# ---------------------------------------------------------------------- the client


def test_a_bots_noble_move_is_marked_on_the_board_and_players():
    # seat 3 (a bot) is about to move nobles in Phase 4; the others are humans
    session = session_at(
        lambda st: st.phase == "perform" and st.perform is not None and st.perform.stage == "move" and to_act(st) == 3,
        ("human", "human", "human", "greedy"),
    )
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):
                await pilot.pause(0.02)
                if not session.bot_to_act():
                    break
            await pilot.pause()
            board = app.screen.query_one(BoardPanel)
            marks = board.marks
            assert marks.actor == 3 and marks.nobles, "the bot moved nobles"
            lines = board.build_lines()
            for space in marks.spaces:
                col, row = ring_position(space)
                cell = board._cells[(col, row)]
                assert reversed_at(cell, 1), f"noble on {space} carries the last-move style"
            assert any(any(reversed_at(line, x) for x in range(len(line.plain))) for line in lines), (
                "the mark reaches the screen"
            )
            players = app.screen.query_one(PlayersPanel)
            assert players.marks == marks
            row = players.build_lines()[1 + 3]
            if marks.acclaim[3]:  # the changed number itself is marked (no room for a delta at 80)
                assert reversed_at(row, row.plain.index(str(session.state.players[3].acclaim)))

    run(go())


def test_the_players_table_shows_a_change_in_its_cell():
    session = session_at(lambda st: st.phase == "trade" and st.round == 2, ("human",) * 4)

    async def go():
        for size, delta in (((80, 24), " (-7)"), ((120, 40), "(-7)")):
            app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                players = app.screen.query_one(PlayersPanel)
                seat = 3
                assert players.marks.coins[seat] == -7
                lines = players.build_lines()
                row = lines[1 + seat]
                coins = str(session.state.players[seat].coins)
                cell = coins + delta
                assert cell in row.plain, row.plain
                at = row.plain.index(cell)
                assert reversed_at(row, at), "the changed number is reversed"
                assert row.get_style_at_offset(Console(), at + len(coins) + 1).bold, "its change is bold"
                heading = "$" if size[0] == 80 else "Coins"
                assert lines[0].plain.index(heading) + len(heading) == at + len(cell), "columns line up"
                assert not any(n in lines[-1].plain for n in ("$-7", "-7")), "not repeated beside the stacks"
                assert all(line.cell_len <= players.content_region.width for line in lines)

    run(go())


def test_the_humans_dialog_starts_with_since_your_last_turn():
    setup = GameSetup(players=NAMES[:4], seed=5)
    session = LocalSession(setup, (Seat("human"), Seat("greedy"), Seat("greedy"), Seat("greedy")))
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            seen = 0
            for _ in range(400):
                await pilot.pause(0.02)
                screen = app.screen
                if not isinstance(screen, DecisionDialog):
                    continue
                if session.state.phase == "invest":
                    text = screen.query_one("#since").render()
                    plain = str(text)
                    lines = plain.splitlines()
                    assert lines[0].startswith("Since your last turn")
                    expected = session.follow.since(0, 3)
                    assert len(lines) == 1 + len(expected) >= 2
                    # one line per other player's turn, each naming its player
                    others = [p.name for p in session.state.players[1:]]
                    for line in lines[1:]:
                        assert any(line[2:].startswith(name) for name in others), line
                    seen += 1
                    break
                await pilot.press("enter")  # the starting gates
            assert seen

    run(go())


def test_an_offer_to_a_bots_trade_turn_is_answered_not_lost():
    session = session_at(
        lambda st: st.phase == "trade" and st.trade is not None and st.trade.active == 1 and st.trade.deal is None,
        ("human", "greedy", "greedy", "greedy"),
    )
    session.offer_window = 2.0
    assert session.state.players[0].coins >= 1

    async def go():
        bots = asyncio.create_task(session.run_bots(delay=0.01))
        session.hold("composing")  # the human opened the deal dialog
        await asyncio.sleep(0.3)
        assert session.state.trade is not None and session.state.trade.active == 1, "the bot waits"
        # a gift the bot judges by its own valuation
        session.submit(ProposeDeal(player=0, transfers=(Transfer(0, 1, "coins", 1),)))
        await asyncio.sleep(0.3)
        session.release("composing")
        await asyncio.wait_for(bots, 10)
        texts = [e.text for e in session.events]
        assert any(t.startswith("Kat accepts") or t.startswith("Kat rejects") for t in texts)

    run(go())


def test_an_offer_during_a_bots_trade_turn_through_the_app():
    session = session_at(
        lambda st: st.phase == "trade" and st.trade is not None and st.trade.active == 1 and st.trade.deal is None,
        ("human", "greedy", "greedy", "greedy"),
    )
    session.offer_window = 5.0
    app = ColosseumApp(session, bot_delay=0.05, auto_dialogs=True)

    async def go():
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(50):
                await pilot.pause(0.02)
                if app.screen.check_action("game_key", ("deal",)):
                    break
            await pilot.press("d")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, DecisionDialog) and dialog.seat == 0
            await pilot.pause(0.5)
            assert session.state.trade is not None and session.state.trade.active == 1
            assert dialog.submit(ProposeDeal(player=0, transfers=(Transfer(0, 1, "coins", 1),)))
            for _ in range(100):
                await pilot.pause(0.02)
                if any(e.text.startswith(("Kat accepts", "Kat rejects")) for e in session.events):
                    break
            assert any(e.text.startswith(("Kat accepts", "Kat rejects")) for e in session.events)

    run(go())


def test_the_bell_rings_once_when_a_decision_arrives_after_others_acted():
    setup = GameSetup(players=NAMES[:4], seed=5)
    session = LocalSession(setup, (Seat("human"), Seat("greedy"), Seat("greedy"), Seat("greedy")))
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)
    rings: list[int] = []
    app.bell = lambda: rings.append(session.state.actions)  # type: ignore[method-assign]

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert rings == []  # the game opens on Becky's decision: nobody acted before
            await pilot.press("enter")  # her starting gates; the bots play on to her next decision
            for _ in range(200):
                await pilot.pause(0.02)
                if rings:
                    break
            assert rings and to_act(session.state) == 0
            await pilot.pause(0.1)
            assert len(rings) == 1, "once per decision"
            app.bell_on = False
            await pilot.press("escape")
            before = len(rings)
            session.submit(next(iter([a for a in _legal(session) if type(a).__name__ == "EndTurn"])))
            for _ in range(200):
                await pilot.pause(0.02)
                if to_act(session.state) == 0:
                    break
            assert len(rings) == before, "off with the setting"

    run(go())


def _legal(session):
    from colosseum.core.games.colosseum import legal

    return legal(session.state).actions


def test_step_and_rush_keys_pace_the_bots():
    # Phase 1 with three bots to invest before the human
    session = session_at(
        lambda st: st.phase == "invest" and st.invest is not None and not st.invest.made and st.turn == 0,
        ("greedy", "greedy", "greedy", "human"),
    )
    assert to_act(session.state) != 3
    app = ColosseumApp(session, bot_delay=0.05, auto_dialogs=False)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("full_stop")  # stepping: one bot move per press
            await pilot.pause(0.3)
            n = session.state.actions
            await pilot.pause(0.3)
            assert session.state.actions == n
            await pilot.press("full_stop")
            await pilot.pause(0.3)
            assert session.state.actions == n + 1
            await pilot.press("g")  # on to my decision, no delay
            for _ in range(100):
                await pilot.pause(0.02)
                if to_act(session.state) == 3:
                    break
            assert to_act(session.state) == 3
            assert not session.stepping and not session.rushing

    run(go())


def test_the_viewer_marks_the_move_it_shows():
    from colosseum.tui.viewer import ViewerScreen

    actions = play_until(lambda st: st.phase == "over", n=4)
    setup = GameSetup(players=NAMES[:4], seed=3)
    session = LocalSession(setup, (Seat("human"),) * 4, actions=actions)
    steps = session.follow.steps
    i = next(k for k, s in enumerate(steps) if s.before.nobles != s.after.nobles) + 1
    viewer = ViewerScreen(setup, actions, i)
    m = viewer.marks()
    assert m.actor == actions[i - 1].player
    assert m.nobles and m.spaces == tuple(steps[i - 1].after.nobles[k] for k in m.nobles)
    assert ViewerScreen(setup, actions, 0).marks().empty


def test_chat_that_names_you_rings():
    from colosseum.core.games.colosseum import Event

    session = session_at(lambda st: st.phase == "invest", ("human", "greedy", "greedy", "greedy"))
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=False)
    rings: list[str] = []
    app.bell = lambda: rings.append("ding")  # type: ignore[method-assign]

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):
                await pilot.pause(0.02)
                if not session.bot_to_act():
                    break
            await pilot.pause()
            rings.clear()  # (the decision bell when the bots reached Becky)
            screen = app.game_screen()
            assert screen is not None
            screen._on_game_event(session.state, [Event(kind="chat", text="Kat: nice lot", seat=1)])
            assert rings == []
            me = session.state.players[0].name
            screen._on_game_event(session.state, [Event(kind="chat", text=f"Kat: {me.lower()}, a lion for 5?", seat=1)])
            assert rings == ["ding"]
            app.bell_on = False
            screen._on_game_event(session.state, [Event(kind="chat", text=f"Kat: {me}?", seat=1)])
            assert rings == ["ding"]

    run(go())


@pytest.mark.parametrize("size", [(80, 24), (100, 40)])
def test_since_your_last_turn_is_cut_in_ascii_on_a_short_screen_and_wrapped_on_a_tall_one(size):
    """A line longer than the dialog ends in "..." at 80x24 ("…" is two cells in some East
    Asian terminals: the dialog's border moved); on a tall screen it wraps, nothing cut."""
    names = ("小明", "Aurelia Maximiliana Cornelia", "[/a]", "Kat")
    setup = GameSetup(players=names, seed=5)
    session = LocalSession(setup, (Seat("human"), Seat("greedy"), Seat("greedy"), Seat("greedy")))
    app = ColosseumApp(session, bot_delay=0, auto_dialogs=True)

    async def go():
        async with app.run_test(size=size) as pilot:
            for _ in range(400):
                await pilot.pause(0.02)
                screen = app.screen
                if isinstance(screen, DecisionDialog) and session.state.phase == "invest":
                    break
                if isinstance(screen, DecisionDialog):
                    await pilot.press("enter")  # the starting gates
            since = app.screen.query_one("#since")
            plain = since.render().plain  # (Text when cut, Textual's Content when wrapped)
            width = since.content_size.width
            lines = plain.split("\n")
            assert "…" not in plain
            aurelia = [line for line in lines if "Aurelia" in line]
            assert aurelia
            if size[1] < 32:
                assert all(cell_len(line) <= width for line in lines)
                assert any(a.endswith("...") for a in aurelia), aurelia
            else:
                assert any("Aurelia Maximiliana Cornelia hires" in a for a in aurelia), aurelia
                assert since.styles.text_wrap != "nowrap"

    run(go())
