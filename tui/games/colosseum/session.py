"""What only Colosseum adds to a local session (:class:`~colosseum.tui.session.SessionHooks`):
its follow record (the marks of the last move, the summaries of the turns since one's own), the
bots' deal offers to a person's trade turn (G-4: anyone may propose to the active player), the
window before a bot ends its trade turn, and holds that apply while no deal is on the table.
No Textual here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from colosseum.core.games.colosseum import State, may_propose, to_act
from colosseum.core.games.colosseum.actions import EndTurn, ProposeDeal
from colosseum.tui.session import FollowRecord, SessionHooks

if TYPE_CHECKING:
    from colosseum.core.game import Rules
    from colosseum.tui.session import LocalSession


class ColosseumHooks(SessionHooks):
    def __init__(self) -> None:
        self._offer_memo: dict[tuple[int, int], ProposeDeal | None] = {}

    def follow(self, rules: Rules[Any, Any, Any], state: State) -> FollowRecord:
        from colosseum.core.games.colosseum.summary import Follow

        return Follow(state)

    def event_place(self, session: LocalSession, state: State) -> tuple[int, str]:
        return state.round, state.phase

    # ------------------------------------------------------------------ bots' offers to people
    def bot_offer(self, session: LocalSession) -> ProposeDeal | None:
        """A deal a bot proposes to the local person whose trade turn it is (G-4: anyone may
        propose to the active player): each bot at most once a trade turn, clockwise from the
        active player, only a deal the bot's own valuation finds worth it for both sides."""
        st: State = session.state
        t = st.trade
        if st.phase != "trade" or t is None or t.deal is not None:
            return None
        if session.seats[t.active].is_bot or to_act(st) != t.active or not may_propose(st, t.active):
            return None
        spoken = self._offered_this_turn(session)
        bots = session.bots
        for k in range(1, st.n):
            seat = (t.active + k) % st.n
            bot = bots.get(seat)
            if bot is None or seat in spoken:
                continue
            key = (len(session.actions), seat)
            if key not in self._offer_memo:  # the valuation runs once per position
                from colosseum.core.games.colosseum.bots import deal_offer

                self._offer_memo = {kk: v for kk, v in self._offer_memo.items() if kk[0] == key[0]}
                self._offer_memo[key] = deal_offer(bot, st, seat)
            offer = self._offer_memo[key]
            if offer is not None:
                return offer
            # nothing worth offering now: this bot is asked again after the next change
        return None

    @staticmethod
    def _offered_this_turn(session: LocalSession) -> set[int]:
        """Bots that proposed a deal in this trade turn already (read from the actions, so an
        undo forgets the offers it took back)."""
        st: State = session.state
        assert st.trade is not None
        states, actions, bots = session.states, session.actions, session.bots
        out: set[int] = set()
        for i in range(len(actions) - 1, -1, -1):
            before: State = states[i]
            if before.phase != "trade" or before.round != st.round or before.trade is None:
                break
            if before.trade.active != st.trade.active:
                break
            a = actions[i]
            if isinstance(a, ProposeDeal) and a.player in bots:
                out.add(a.player)
        return out

    # ------------------------------------------------------------------ pace
    def window_before(self, session: LocalSession, action: Any) -> bool:
        """A bot ending its trade turn while a person here could still propose a deal to it."""
        st: State = session.state
        if not isinstance(action, EndTurn) or st.phase != "trade":
            return False
        return any(may_propose(st, seat) for seat in session.local_seats() if seat != to_act(st))

    def hold_applies(self, session: LocalSession) -> bool:
        """In Phase 3 with no deal on the table (once one is proposed, the bots answer it)."""
        st: State = session.state
        return st.phase == "trade" and st.trade is not None and st.trade.deal is None
