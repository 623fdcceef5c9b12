"""Pilot tests of the decision dialogs: keys in, engine state out.

Positions come from seeded games played by random bots (``dialog_harness.find_position``); the
dialogs run on the real client (``ColosseumApp`` and its game screen, which opens the dialogs
through the dialog director), with seat 0 human and the other seats random bots that play at
once.
"""

from __future__ import annotations

import asyncio

from dialog_harness import board_preview, dialog_app, find_position, make_session, open_first, settle

from colosseum.core.games.colosseum import breakdown, catalog, legal, replay, spectacle_by_key, to_act
from colosseum.core.games.colosseum.actions import (
    AcceptDeal,
    BuildTemple,
    ChooseFirstPlayer,
    CloseDeal,
    EndTurn,
    HirePromoter,
    MoveNoble,
    OpenAuction,
    PassBid,
    Perform,
    PlaceStartGates,
    PlanSpectacle,
    ProposeDeal,
    Raise,
    RejectDeal,
    Retire,
    Roll,
    Steal,
)
from colosseum.core.games.colosseum.engine import noble_step_range, walk
from colosseum.core.games.colosseum.offers import performable
from colosseum.tui.games.colosseum.dialogs import (
    AquilaMoveDialog,
    AuctionDialog,
    DecisionDialog,
    FirstPlayerDialog,
    InvestDialog,
    NobleDialog,
    PerformDialog,
    RetireDialog,
    SetupDialog,
    StealDialog,
    TradeDialog,
    dialog_for,
)
from colosseum.tui.games.colosseum.dialogs.base import ChoiceList

SIZE = (80, 24)


def run(coro):
    return asyncio.run(coro)


def session_at(pred, **kw):
    setup, actions = find_position(pred, **kw)
    return make_session(setup, actions)


def new_game_state(setup, actions):
    return replay(setup, actions)[0]


def mine(session, start):
    """Seat 0's actions since ``start``."""
    return [a for a in session.actions[start:] if a.player == 0]


def footer_keys(screen) -> dict[str, str]:
    """Shown bindings: key -> action (what the footer offers now)."""
    return {key: ab.binding.action for key, ab in screen.active_bindings.items() if ab.binding.show and ab.enabled}


# ---------------------------------------------------------------------- dialog_for


def test_dialog_for_picks_the_dialog_of_each_decision():
    cases = [
        (lambda s: s.phase == "setup", SetupDialog),
        (lambda s: s.phase == "invest", InvestDialog),
        (lambda s: s.phase == "hire" and s.hire.auction is None, AuctionDialog),
        (lambda s: s.phase == "hire" and s.hire.auction is not None and s.hire.active != 0, AuctionDialog),
        (lambda s: s.phase == "trade" and s.trade.deal is None and s.trade.active == 0, TradeDialog),
        (lambda s: s.phase == "trade" and s.trade.deal is not None and s.trade.active != 0, TradeDialog),
        (lambda s: s.phase == "perform" and s.perform.stage == "roll", NobleDialog),
        (lambda s: s.phase == "perform" and s.perform.stage == "after", PerformDialog),
        (lambda s: s.phase == "closing" and s.closing.stage == "retire", RetireDialog),
        (lambda s: s.phase == "closing" and s.closing.stage == "steal", StealDialog),
        (lambda s: s.phase == "closing" and s.closing.stage == "first", FirstPlayerDialog),
    ]
    for pred, cls in cases:
        session = session_at(pred)
        assert type(dialog_for(session, 0)) is cls
        # nobody else is offered a dialog for seat 0's decision
        assert dialog_for(session, 1) is None or isinstance(dialog_for(session, 1), TradeDialog)


def test_dialog_for_offers_the_trade_dialog_to_a_seat_that_may_propose():
    session = session_at(lambda s: s.phase == "trade" and s.trade.deal is None and s.trade.active == 0)
    assert to_act(session.state) == 0
    d = dialog_for(session, 2)
    assert isinstance(d, TradeDialog)
    assert dialog_for(session, 2).key[0] == "propose"


# ---------------------------------------------------------------------- setup


def test_setup_places_the_highlighted_pair_and_previews_it():
    async def go():
        session = session_at(lambda s: s.phase == "setup", first_player=1)  # seat 0 chooses first
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            assert isinstance(app.screen, SetupDialog)
            free = [a.space for a in legal(session.state).actions if isinstance(a, PlaceStartGates)]
            await pilot.press("down")
            await settle(pilot)
            pair = next(p for p in catalog(session.state).gate_pairs[4] if p[0] == free[1])
            assert board_preview(app) == frozenset(pair)
            start = len(session.actions)
            await pilot.press("enter")
            await settle(pilot)
            assert mine(session, start)[0] == PlaceStartGates(player=0, space=free[1])
            assert session.state.players[0].gates == pair
            assert not isinstance(app.screen, DecisionDialog)
            assert board_preview(app) == frozenset()

    run(go())


# ---------------------------------------------------------------------- investments


def test_invest_promoter_then_spectacle_by_keys():
    async def go():
        session = session_at(lambda s: s.phase == "invest" and s.round == 1)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, InvestDialog)
            assert footer_keys(dlg).get("p") == "end_turn"
            start = len(session.actions)
            coins = session.state.players[0].coins
            await pilot.press("o")
            await settle(pilot)
            assert mine(session, start) == [HirePromoter(player=0)]
            assert session.state.players[0].promoters == 1
            assert session.state.players[0].coins == coins - 7
            assert app.screen is dlg  # a second investment is still to make
            # the promoter is now shown unavailable, with the engine's reason
            lst = dlg.query_one("#choices")
            prom = next(o for o in lst.options if o.id.startswith("promoter"))
            assert prom.disabled and "different kinds" in str(prom.prompt)
            await pilot.press("s")  # the spectacle list
            await settle(pilot)
            assert dlg.mode == "plan:"
            await pilot.press("escape")  # back to the main list, nothing changed
            await settle(pilot)
            assert dlg.mode == "main" and app.screen is dlg
            await pilot.press("s", "enter")
            await settle(pilot)
            planned = mine(session, start)[1]
            assert isinstance(planned, PlanSpectacle)
            assert spectacle_by_key(catalog(session.state), planned.spectacle).id in session.state.players[0].face_down
            # two investments made: the engine ended the turn, the dialog is gone
            assert not isinstance(app.screen, DecisionDialog)

    run(go())


def test_invest_escape_closes_without_changing_the_game():
    async def go():
        session = session_at(lambda s: s.phase == "invest")
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            before = session.state
            await pilot.press("escape")
            await settle(pilot)
            assert not isinstance(app.screen, DecisionDialog)
            assert session.state is before

    run(go())


def test_invest_temple_and_end_turn():
    async def go():
        session = session_at(lambda s: s.phase == "invest" and not s.players[0].temple)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            start = len(session.actions)
            await pilot.press("t")
            await settle(pilot)
            assert mine(session, start) == [BuildTemple(player=0)]
            await pilot.press("p")
            await settle(pilot)
            assert mine(session, start) == [BuildTemple(player=0), EndTurn(player=0)]
            assert not isinstance(app.screen, DecisionDialog)

    run(go())


# ---------------------------------------------------------------------- auctions


def test_open_an_auction_at_10_by_typing():
    async def go():
        session = session_at(lambda s: s.phase == "hire" and s.hire.auction is None and s.players[0].coins >= 12)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, AuctionDialog)
            keys = footer_keys(dlg)
            assert keys.get("enter") == "bid" and keys.get("p") == "pass_turn"
            market = int(dlg.query_one("#markets").chosen)
            start = len(session.actions)
            await pilot.press("1", "0", "enter")
            await settle(pilot, 10)
            assert mine(session, start)[0] == OpenAuction(player=0, market=market, bid=10)

    run(go())


def test_open_then_raise_with_plus_and_minus():
    async def go():
        session = session_at(lambda s: s.phase == "hire" and s.hire.auction is None and s.players[0].coins >= 12)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            start = len(session.actions)
            low = dlg.amount.low
            await pilot.press("plus", "plus", "plus", "minus", "enter")
            await settle(pilot, 10)
            opened = mine(session, start)[0]
            assert isinstance(opened, OpenAuction) and opened.bid == low + 2

    run(go())


def test_raise_and_pass_in_a_running_auction():
    pred = lambda s: (  # noqa: E731
        s.phase == "hire"
        and s.hire.auction is not None
        and s.hire.active != 0
        and s.hire.auction.high + 2 <= s.players[0].coins + 6 * s.players[0].aquilas
    )

    async def go():
        session = session_at(pred)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, AuctionDialog)
            keys = footer_keys(dlg)
            assert keys.get("enter") == "raise_bid" and keys.get("p") == "pass_bid"
            high = session.state.hire.auction.high
            start = len(session.actions)
            await pilot.press("plus", "enter")
            await settle(pilot, 10)
            assert mine(session, start)[0] == Raise(player=0, bid=high + 2)
            # the dialog follows the auction while it lasts (bots bid at once here)
            if session.state.phase == "hire" and session.state.hire.auction is not None:
                assert app.screen is dlg

    run(go())


def test_pass_in_a_running_auction():
    pred = lambda s: s.phase == "hire" and s.hire.auction is not None and s.hire.active != 0  # noqa: E731

    async def go():
        session = session_at(pred)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            start = len(session.actions)
            await pilot.press("p")
            await settle(pilot, 10)
            assert mine(session, start)[0] == PassBid(player=0)
            assert not isinstance(app.screen, DecisionDialog)  # out of this auction: decision over

    run(go())


def test_a_rejected_bid_notifies_and_changes_nothing():
    async def go():
        session = session_at(lambda s: s.phase == "hire" and s.hire.auction is None)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            before = session.state
            await pilot.press("9", "9", "9", "enter")
            await settle(pilot)
            assert session.state is before
            assert app.screen is dlg
            notes = list(app._notifications)
            assert notes and notes[-1].severity == "error"
            assert "G-3.4" in notes[-1].message

    run(go())


# ---------------------------------------------------------------------- trades


def _row_of(dlg, item):
    return dlg._rows.index(item)


def test_compose_and_propose_a_deal_then_see_the_answer():
    pred = lambda s: s.phase == "trade" and s.trade.deal is None and s.trade.active == 0  # noqa: E731

    async def go():
        session = session_at(pred)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, TradeDialog)
            st = session.state
            cat = catalog(st)
            partner = dlg.partner
            # something the partner has, and something Kat has
            theirs = next(i for i in dlg._rows if i != "coins" and dlg.holding(partner, i))
            my_item = next(i for i in dlg._rows if i not in (theirs,) and dlg.holding(0, i))
            for _ in range(_row_of(dlg, theirs)):
                await pilot.press("down")
            await pilot.press("plus")  # the partner gives 1
            await pilot.press("right")  # to the "gets" column
            await pilot.press("home")
            for _ in range(_row_of(dlg, my_item)):
                await pilot.press("down")
            await pilot.press("plus")  # the partner gets 1
            await settle(pilot)
            expected = {(partner, 0, theirs, 1), (0, partner, my_item, 1)}
            assert {(t.giver, t.receiver, t.item, t.count) for t in dlg.transfers()} == expected
            assert footer_keys(dlg).get("enter") == "propose"
            start = len(session.actions)
            await pilot.press("enter")
            await settle(pilot, 10)
            proposed = mine(session, start)[0]
            assert isinstance(proposed, ProposeDeal)
            assert {(t.giver, t.receiver, t.item, t.count) for t in proposed.transfers} == expected
            assert app.screen is dlg  # the active player's dialog stays for the answers
            answer = session.actions[start + 1]
            assert answer.player == partner
            deal_text = str(dlg.query_one("#deal").render())
            if isinstance(answer, AcceptDeal):
                assert "accepted" in deal_text
                assert footer_keys(dlg).get("enter") == "close_deal"
                await pilot.press("enter")
                await settle(pilot)
                assert isinstance(session.actions[-1], CloseDeal)
            else:
                assert isinstance(answer, RejectDeal)
                assert dlg.last_answers.get(partner) == "rejected"
                assert "rejected" in str(dlg.query_one("#partners").render())
            assert session.state.trade.deal is None
            await pilot.press("p")
            await settle(pilot)
            assert EndTurn(player=0) in mine(session, start)
            assert not isinstance(app.screen, TradeDialog)
        del cat

    run(go())


def test_answer_a_deal_with_reject():
    pred = lambda s: s.phase == "trade" and s.trade.deal is not None and s.trade.active != 0  # noqa: E731

    async def go():
        session = session_at(pred)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, TradeDialog)
            keys = footer_keys(dlg)
            assert keys.get("enter") == "accept" and keys.get("n") == "reject"
            start = len(session.actions)
            await pilot.press("n")
            await settle(pilot)
            assert mine(session, start)[0] == RejectDeal(player=0)
            assert not isinstance(app.screen, DecisionDialog)

    run(go())


# ---------------------------------------------------------------------- Phase 4


def test_roll_sum_and_move_a_noble_within_the_temple_range():
    pred = lambda s: s.phase == "perform" and s.perform.stage == "roll" and s.players[0].temple  # noqa: E731

    async def go():
        session = session_at(pred)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, NobleDialog)
            start = len(session.actions)
            await pilot.press("enter")
            await settle(pilot)
            assert mine(session, start) == [Roll(player=0)]
            assert session.state.perform.stage == "mode"
            await pilot.press("down", "enter")  # the sum
            await settle(pilot)
            assert session.state.perform.mode == "sum"
            lo, hi = noble_step_range(session.state, -1)
            assert lo == 2 and hi == sum(session.state.perform.dice)  # G-5.1 with the temple
            assert dlg.steps == hi
            await pilot.press("minus")
            await settle(pilot)
            noble = int(dlg.query_one("#choices").chosen.split(":")[1])
            landing = walk(session.state, noble, hi - 1)
            assert board_preview(app) == frozenset({landing})
            state_before = session.state
            await pilot.press("enter")
            await settle(pilot)
            assert mine(session, start)[-1] == MoveNoble(player=0, noble=noble, die=-1, steps=hi - 1)
            assert session.state.nobles[noble] == landing
            assert state_before.perform.stage == "move"
            # the dice part is over: this dialog is gone
            assert not isinstance(app.screen, NobleDialog)

    run(go())


def test_skip_the_performance():
    async def go():
        session = session_at(lambda s: s.phase == "perform" and s.perform.stage == "roll")
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            start = len(session.actions)
            await pilot.press("p")
            await settle(pilot)
            assert mine(session, start) == [EndTurn(player=0)]

    run(go())


def test_perform_spending_one_aquila():
    pred = lambda s: (  # noqa: E731
        s.phase == "perform" and s.perform.stage == "after" and s.players[0].aquilas > 0 and performable(s, 0)
    )

    async def go():
        session = session_at(pred)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, PerformDialog)
            st = session.state
            key = dlg.query_one("#choices").chosen
            spec = spectacle_by_key(catalog(st), key)
            expected = breakdown(st, 0, spec, 1).total
            assert expected == breakdown(st, 0, spec, 0).total + 3
            await pilot.press("plus")
            await settle(pilot)
            assert f"{expected}" in str(dlg.query_one("#breakdown").render())
            start = len(session.actions)
            old = st.players[0]
            await pilot.press("enter")
            await settle(pilot)
            assert mine(session, start)[0] == Perform(player=0, spectacle=key, aquilas=1)
            p = session.state.players[0]
            assert p.acclaim == max(old.acclaim, expected)
            assert p.aquilas == old.aquilas - 1
            assert p.coins == old.coins + expected
            assert not isinstance(app.screen, DecisionDialog)

    run(go())


def test_aquila_move_from_the_perform_dialog():
    pred = lambda s: s.phase == "perform" and s.perform.stage == "after" and s.players[0].aquilas > 0  # noqa: E731

    async def go():
        session = session_at(pred)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            perform = app.screen
            await pilot.press("m")
            await settle(pilot)
            dlg = app.screen
            assert isinstance(dlg, AquilaMoveDialog)
            await pilot.press("minus")  # +1 -> -1 (0 is skipped)
            await settle(pilot)
            assert dlg.steps == -1
            noble = int(dlg.query_one("#choices").chosen)
            dest = walk(session.state, noble, -1)
            aq = session.state.players[0].aquilas
            await pilot.press("enter")
            await settle(pilot)
            assert session.state.nobles[noble] == dest
            assert session.state.players[0].aquilas == aq - 1
            if aq > 1:
                await pilot.press("escape")
                await settle(pilot)
            assert app.screen is perform

    run(go())


# ---------------------------------------------------------------------- Phase 5


def test_retire_steal_and_first_player():
    cases = [
        (lambda s: s.phase == "closing" and s.closing.stage == "retire", RetireDialog, Retire),
        (lambda s: s.phase == "closing" and s.closing.stage == "steal", StealDialog, Steal),
        (lambda s: s.phase == "closing" and s.closing.stage == "first", FirstPlayerDialog, ChooseFirstPlayer),
    ]

    async def go(pred, cls, action_type):
        session = session_at(pred)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, cls)
            chosen = dlg.query_one("#choices").chosen
            start = len(session.actions)
            await pilot.press("down", "up", "enter")
            await settle(pilot)
            done = mine(session, start)[0]
            assert isinstance(done, action_type)
            assert str(getattr(done, "tile", getattr(done, "first", None))) == chosen
            assert not isinstance(app.screen, DecisionDialog)

    for case in cases:
        run(go(*case))


def test_decline_to_steal():
    async def go():
        session = session_at(lambda s: s.phase == "closing" and s.closing.stage == "steal")
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            start = len(session.actions)
            await pilot.press("n")
            await settle(pilot)
            assert mine(session, start) == [EndTurn(player=0)]

    run(go())


# ---------------------------------------------------------------------- over any screen, hot seat


def test_dialogs_follow_the_game_through_bots():
    """With dialogs opening by themselves (the director), a human seat gets the next dialog
    after the bots have played; dialogs close when their decision is over."""

    async def go():
        session = session_at(lambda s: s.phase == "invest")
        app = dialog_app(session, auto=True)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, InvestDialog)
            await pilot.press("p")
            await settle(pilot, 12)
            seat = to_act(session.state)
            assert seat == 0
            assert isinstance(app.screen, DecisionDialog) and app.screen.decision_open()
            stack = [s for s in app.screen_stack if isinstance(s, DecisionDialog)]
            assert len(stack) == 1

    run(go())


# ---------------------------------------------------------------------- classic extras (C-3, C-5)


def test_classic_extra_investment_paid_with_aquilas():
    from msgspec.structs import replace

    session = session_at(lambda s: s.phase == "invest" and not s.invest.made, variant="classic")
    st = session.state
    p0 = replace(st.players[0], aquilas=2)
    # the regular investment of the turn is made: only extras are left (C-3)
    session._state = replace(st, players=(p0, *st.players[1:]), invest=replace(st.invest, made=("gate",)))
    assert any(getattr(a, "extra", "") == "aquilas" for a in legal(session.state).actions)

    async def go():
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            assert isinstance(dlg, InvestDialog)
            ids = [o.id for o in dlg.query_one("#choices").options if not o.disabled]
            assert "promoter:aquilas" in ids
            text = " ".join(str(o.prompt) for o in dlg.query_one("#choices").options)
            assert "extra, pay 2 Aquilas" in text
            start = len(session.actions)
            await pilot.press("o")
            await settle(pilot)
            assert mine(session, start) == [HirePromoter(player=0, extra="aquilas")]
            assert session.state.players[0].aquilas == 0
            assert app.screen is dlg  # classic: the turn goes on until ended

    run(go())


# ---------------------------------------------------------------------- trade: other roles, hot seat


def test_a_deal_without_the_active_player_is_rejected_with_a_notification():
    async def go():
        pred = lambda s: s.phase == "trade" and s.trade.deal is None and s.trade.active != 0  # noqa: E731
        setup, actions = find_position(pred, actor=None)
        active = new_game_state(setup, actions).trade.active
        # the active player is a local human too, so nothing moves while seat 0 composes
        session = make_session(setup, actions, humans=(0, active))
        assert isinstance(dialog_for(session, 0), TradeDialog)  # seat 0 is not to act but may propose
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("1", "d")  # view seat 0's board, propose a deal out of turn
            await settle(pilot)
            dlg = app.screen
            assert isinstance(dlg, TradeDialog) and dlg.key[0] == "propose"
            # offer something to a player who is not the active one
            other = next(s for s in dlg.partners if s != active)
            while dlg.partner != other:
                await pilot.press("tab")
            item = next((i for i in dlg._rows if dlg.holding(0, i)), None)
            assert item is not None
            for _ in range(dlg._rows.index(item)):
                await pilot.press("down")
            await pilot.press("right", "plus")
            await settle(pilot)
            assert dlg.transfers()
            assert "active player" in str(dlg.query_one("#deal").render())
            before = session.state
            await pilot.press("enter")
            await settle(pilot)
            assert session.state is before
            notes = list(app._notifications)
            assert notes and notes[-1].severity == "error" and "G-4" in notes[-1].message
            assert app.screen is dlg

    run(go())


def test_hot_seat_deal_between_two_humans():
    """Kat (active) proposes to Becky, also human: Becky's answer dialog takes the screen from
    Kat's (one dialog at a time), Becky accepts, Kat's comes back and she closes the deal."""
    pred = lambda s: (  # noqa: E731
        s.phase == "trade" and s.trade.deal is None and s.trade.active == 0 and s.players[0].coins >= 1
    )

    async def go():
        setup, actions = find_position(pred)
        session = make_session(setup, actions, humans=(0, 1))
        app = dialog_app(session)  # the dialogs hand over between local seats
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            kat = app.screen
            assert isinstance(kat, TradeDialog) and kat.partner == 1
            coins = kat._rows.index("coins")
            for _ in range(coins):
                await pilot.press("down")
            await pilot.press("right", "plus", "enter")  # Becky gets 1 coin
            await settle(pilot)
            becky = app.screen
            assert isinstance(becky, TradeDialog) and becky.seat == 1 and becky.key[0] == "answer"
            assert "pending" in str(becky.query_one("#deal").render())
            assert [type(s).__name__ for s in app.screen_stack] == ["GameScreen", "TradeDialog"]
            await pilot.press("enter")  # accept
            await settle(pilot)
            kat = app.screen
            assert isinstance(kat, TradeDialog) and kat.seat == 0
            assert "accepted" in str(kat.query_one("#deal").render())
            c0, c1 = session.state.players[0].coins, session.state.players[1].coins
            await pilot.press("enter")  # close
            await settle(pilot)
            assert isinstance(session.actions[-1], CloseDeal)
            assert session.state.players[0].coins == c0 - 1
            assert session.state.players[1].coins == c1 + 1
            assert app.screen is kat and session.state.trade.deal is None

    run(go())


# ---------------------------------------------------------------------- a whole game by keys


def _keys_for(dlg, session) -> list[str]:
    """A simple player at the keyboard: what to press in the dialog on top."""
    st = session.state
    if isinstance(dlg, SetupDialog):
        return ["enter"]
    if isinstance(dlg, InvestDialog):
        return ["o"] if dlg._offered("promoter") and not st.invest.made else ["p"]
    if isinstance(dlg, AuctionDialog):
        if st.hire.auction is None and dlg.can_bid() and st.hire.auctions == 0:
            return ["enter"]  # open at the minimum
        return ["p"]
    if isinstance(dlg, TradeDialog):
        if dlg.can_accept():
            return ["n"]
        if dlg.can_close_deal():
            return ["enter"]
        if dlg.can_withdraw():
            return ["w"]
        return ["p"]
    if isinstance(dlg, NobleDialog):
        return ["enter"]
    if isinstance(dlg, PerformDialog):
        return ["enter"] if dlg.can_perform() else ["p"]
    if isinstance(dlg, AquilaMoveDialog):
        return ["escape"]
    return ["enter"]  # retire, steal, first player


def test_a_whole_game_through_the_dialogs():
    """Seat 0 plays a complete 3-player game with keys only; the dialogs follow the game
    (the director opens the next one) and the game reaches its end."""

    async def go():
        from colosseum.core.games.colosseum import GameSetup

        setup = GameSetup(players=("Kat", "Becky", "Laura"), seed=11)
        session = make_session(setup, [])
        app = dialog_app(session, auto=True)
        performed = 0
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            for _ in range(600):
                if session.state.phase == "over":
                    break
                dlg = app.screen
                if not isinstance(dlg, DecisionDialog):  # bots still playing
                    await settle(pilot, 10)
                    dlg = app.screen
                assert isinstance(dlg, DecisionDialog), f"no dialog at {session.state.phase}"
                assert dlg.decision_open()
                assert list_keys_work(dlg), f"{type(dlg).__name__}: the focus is off its list"
                before = session.state.actions
                if isinstance(dlg, PerformDialog) and dlg.can_perform():
                    performed += 1
                await pilot.press(*_keys_for(dlg, session))
                await settle(pilot, 4)
                if session.state.actions == before and app.screen is dlg:
                    raise AssertionError(f"stuck in {type(dlg).__name__} at {session.state.phase}")
            assert session.state.phase == "over"
            assert session.state.result is not None
            assert not list(app._notifications)  # no rejected action on the way
        assert performed >= 1

    run(go())


def test_exchange_aquilas_for_coins():
    session = session_at(lambda s: s.phase == "invest" and s.players[0].aquilas > 0)

    async def go():
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            p = session.state.players[0]
            await pilot.press("x")
            await settle(pilot)
            assert dlg.mode == "exchange"
            start = len(session.actions)
            await pilot.press("enter")
            await settle(pilot)
            assert [type(a).__name__ for a in mine(session, start)] == ["ExchangeAquilas"]
            q = session.state.players[0]
            assert (q.aquilas, q.coins) == (p.aquilas - 1, p.coins + 6)
            assert dlg.mode == "main" and app.screen is dlg

    run(go())


def test_hot_seat_auction_keeps_the_openers_dialog_and_hands_over():
    """Kat opens an auction; Becky (also human) must answer: her dialog opens on top; Kat's
    stays underneath, waiting, with no bid keys; when Becky passes Kat's dialog is back."""
    pred = lambda s: (  # noqa: E731
        s.phase == "hire"
        and s.hire.auction is None
        and s.hire.active == 0
        and s.players[1].pillar
        and s.players[1].coins > 8
    )

    async def go():
        setup, actions = find_position(pred)
        session = make_session(setup, actions, humans=(0, 1))
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            kat = app.screen
            assert isinstance(kat, AuctionDialog)
            await pilot.press("enter")  # open at the minimum
            await settle(pilot, 10)
            if to_act(session.state) != 1:
                raise AssertionError("position does not reach Becky")
            becky = app.screen
            assert isinstance(becky, AuctionDialog) and becky.seat == 1
            assert kat.decision_open() and not kat.my_turn()
            assert "enter" not in footer_keys(kat) and "p" not in footer_keys(kat)
            assert footer_keys(becky).get("enter") == "raise_bid"
            await pilot.press("p")
            await settle(pilot, 10)
            assert PassBid(player=1) in session.actions
            assert app.screen is kat or not kat.decision_open()

    run(go())


def test_help_key_over_a_dialog():
    async def go():
        session = session_at(lambda s: s.phase == "invest")
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            dlg = app.screen
            await pilot.press("question_mark")
            await settle(pilot)
            help_screen = app.screen
            assert type(help_screen).__name__ == "HelpScreen" and help_screen.below is dlg
            assert "end turn" in str(help_screen.query_one("#help-text").render())  # the dialog's keys
            await pilot.press("escape")
            await settle(pilot)
            assert app.screen is dlg

    run(go())


# ---------------------------------------------------------------------- focus after a state change


def list_keys_work(dlg) -> bool:
    """The focus is on a shown list of ``dlg`` (so Up/Down move its cursor), or it has none."""
    shown = [w for w in dlg.query(ChoiceList) if dlg._shown(w)]
    return not shown or (dlg.focused in shown)


async def arrows_move(pilot, lst) -> bool:
    """Down (or Up at the end) moves the highlight of ``lst``."""
    before = lst.highlighted
    await pilot.press("down")
    await settle(pilot, 2)
    if lst.highlighted == before:
        await pilot.press("up")
        await settle(pilot, 2)
    return lst.highlighted != before


def remote_others(setup, actions):
    """Seat 0 plays here; the others are people elsewhere (no bots, no hot seat): the test
    makes their moves with ``session.submit``, as a networked game would."""
    session = make_session(setup, actions, humans=tuple(range(len(setup.players))))
    session.local_seats = lambda: (0,)  # type: ignore[method-assign]
    return session


def test_arrows_work_in_the_trade_grid_after_a_rejected_deal():
    """Kat proposes, Becky rejects: the grid is back and Up/Down move its row cursor again
    (the pending deal had hidden it)."""
    pred = lambda s: (  # noqa: E731
        s.phase == "trade" and s.trade.deal is None and s.trade.active == 0 and s.players[0].coins >= 1
    )

    async def go():
        setup, actions = find_position(pred)
        session = remote_others(setup, actions)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            kat = app.screen
            assert isinstance(kat, TradeDialog) and kat.partner == 1
            for _ in range(kat._rows.index("coins")):
                await pilot.press("down")
            await pilot.press("right", "plus", "enter")
            await settle(pilot)
            assert session.state.trade.deal is not None
            session.submit(RejectDeal(player=1))
            await settle(pilot)
            assert app.screen is kat and session.state.trade.deal is None
            grid = kat.query_one("#grid", ChoiceList)
            assert list_keys_work(kat) and kat.focused is grid
            assert await arrows_move(pilot, grid)

    run(go())


def test_arrows_work_in_the_markets_after_an_auction_is_lost():
    """Kat opens an auction, Becky outbids her and Kat passes: the markets list is back for
    Kat's next choice and Up/Down move it again (the running auction had hidden it)."""
    pred = lambda s: (  # noqa: E731
        s.phase == "hire"
        and s.hire.auction is None
        and s.hire.active == 0
        and s.players[1].pillar
        and s.players[1].coins > 12
        and sum(1 for lot in s.markets if len(lot) >= 3) >= 3
    )

    async def go():
        setup, actions = find_position(pred)
        session = remote_others(setup, actions)
        app = dialog_app(session)
        async with app.run_test(size=SIZE) as pilot:
            await open_first(pilot)
            kat = app.screen
            assert isinstance(kat, AuctionDialog)
            await pilot.press("enter")  # open at the minimum
            await settle(pilot)
            for _ in range(20):  # the others raise once, then pass; Kat passes
                st = session.state
                if st.hire.auction is None:
                    break
                seat = to_act(st)
                if seat == 0:
                    await pilot.press("p")
                else:
                    bids = legal(st).bids
                    raised = any(a.player == seat and isinstance(a, Raise) for a in session.actions[-8:])
                    if bids and not raised:
                        session.submit(Raise(player=seat, bid=bids[0].low))
                    else:
                        session.submit(PassBid(player=seat))
                await settle(pilot)
            await settle(pilot)
            assert app.screen is kat and kat.decision_open() and kat.running is None
            markets = kat.query_one("#markets", ChoiceList)
            assert markets.display and list_keys_work(kat) and kat.focused is markets
            assert await arrows_move(pilot, markets)

    run(go())


def test_escape_the_instant_a_dialog_opens_closes_it_without_a_crash():
    """Escape pressed before Textual has composed the dialog just pushed (a key already on
    its way as it opens): the dialog leaves the stack, the game screen stays, and ``a`` opens
    the decision again (before, its mount looked for widgets never mounted and the client
    failed)."""
    from colosseum.tui.games.colosseum.dialogs import dialog_for as colosseum_dialog_for

    session = session_at(lambda s: s.phase == "setup")
    app = dialog_app(session)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.game_screen()
            dialog = colosseum_dialog_for(session, 0)
            screen.push_dialog(dialog)
            dialog.action_close()  # in the same tick: nothing composed yet
            await settle(pilot)
            assert app.screen is screen
            await pilot.press("a")
            await settle(pilot)
            assert isinstance(app.screen, SetupDialog)
            assert "starting gates" in str(app.screen.query_one("#prompt").render())

    run(go())
