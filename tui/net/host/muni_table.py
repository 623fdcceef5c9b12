"""A table holding a Municipium game: the same seats, presence, stand-ins, clock, chat and log
as Colosseum's :class:`~colosseum.tui.net.host.table.Table`, with the game run through
``core.games.MUNICIPIUM``.  Game messages travel in ``protocol.GameMsg`` (``host.muni_wire``):
``MuniGame`` (the game so far, after a join and with every table change), ``MuniUpdate`` (each
action applied) and ``MuniAct`` (a player's action).  ``Joined`` and ``TableChanged`` carry the
table's description only.

Headless, like the rest of the host.  Taking over a bot's seat is not offered at these tables.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, cast

import msgspec

from colosseum.core.errors import RuleError
from colosseum.core.games.municipium import MuniAction, MuniSetup, State
from colosseum.core.games.municipium.rules import RULES as MUNICIPIUM

from . import gamelog_io
from . import muni_wire as W
from . import protocol as P
from .table import Conn, Table, TableMeta, bot_seed, default_bot

if TYPE_CHECKING:
    from .hub import TableServer

log = logging.getLogger("colosseum.net")

KIND = MUNICIPIUM
MUNI_OPTIONS = ("short", "single-chamber")
EVENTS_SENT = 600  # events a joining client gets (its log panel); the game log has them all


class MuniTable(Table):
    """One Municipium game and everyone at it.  ``game`` is the state (``Table.state``, typed for
    Colosseum, stays None); ``actions`` holds Municipium's actions."""

    def __init__(self, server: TableServer, meta: TableMeta) -> None:
        super().__init__(server, meta)
        self.muni_setup: MuniSetup | None = None
        self.game: State | None = None

    # ---------------------------------------------------------------- a new table of this game
    JOINED_HAS_GAME = False

    @staticmethod
    def refusal(msg: P.CreateTable) -> str | None:
        n = len(msg.seats)
        spec = KIND.spec
        if not spec.min_players <= n <= spec.max_players:
            return f"a Municipium table has {spec.min_players} to {spec.max_players} seats"
        if any(k != "human" and KIND.level_of(k) not in (*spec.bot_levels, "random") for k in msg.seats):
            return f"seat kinds are 'human' or a bot: {', '.join((*spec.bot_levels, 'random'))}"
        if msg.variant not in ("", "grand"):  # (the form's default for Colosseum)
            return "Municipium has no variants"
        if any(o not in MUNI_OPTIONS for o in msg.options):
            return "unknown option"
        return None

    @staticmethod
    def meta_fields(msg: P.CreateTable) -> dict[str, Any]:
        return dict(variant="", options=list(msg.options), allow_takeover=False, hints=False)

    # ---------------------------------------------------------------- views
    def info(self) -> P.TableInfo:
        m = self.meta
        names = self.muni_setup.players if self.muni_setup else ()
        seats = [
            P.SeatInfo(
                kind=s.kind,
                name=s.name if s.holder else (names[i] if i < len(names) else ""),
                holder=bool(s.holder),
                present=i in self.present,
                standin=i in self.standin,
            )
            for i, s in enumerate(m.seats)
        ]
        st = self.game
        return P.TableInfo(
            id=m.id,
            name=m.name,
            variant="",
            options=list(m.options),
            status=m.status,
            seats=seats,
            round=st.turn if st else 0,
            phase=st.phase if st else "",
            allow_takeover=False,
            creator=m.creator_name,
            spectators=sum(1 for s in self.conns.values() if s < 0),
            actions=len(self.actions),
            deadline=self.deadline,
            clock_seat=self.clock_seat,
            game=KIND.spec.name,
        )

    def joined(self, seat: int) -> P.Joined:
        # the game itself follows in a GameMsg (``changed``, which the hub calls after a join)
        return P.Joined(table=self.info(), seat=seat, chat=self.chat[-100:])

    def game_message(self, seat: int) -> P.GameMsg | None:
        """The game so far, as the player at ``seat`` may see it (None before it starts)."""
        if self.game is None or self.muni_setup is None:
            return None
        body = W.MuniGame(
            seat=seat,
            setup=msgspec.structs.replace(self.muni_setup, seed=0, secret=""),
            state=KIND.player_view(self.game, seat),
            actions=list(cast(list[MuniAction], self.actions)),  # Municipium's at this table
            events=self.events[-EVENTS_SENT:],
        )
        return P.GameMsg(table=self.id, body=W.encode(body))

    def changed(self) -> None:
        self.update_clock()
        if not self.conns:
            return
        self.broadcast(P.TableChanged(table=self.info()))
        if self.game is not None:
            for conn, seat in list(self.conns.items()):
                msg = self.game_message(seat)
                if msg is not None:
                    conn.send(msg)

    # ---------------------------------------------------------------- seats and bots
    def bot_for(self, seat: int) -> Any:
        kind = self.meta.seats[seat].kind
        name = kind if kind != "human" else default_bot()
        bot = self.bots.get(seat)
        if bot is None or getattr(bot, "name", name) != name:
            bot = KIND.make_bot(name, bot_seed(self.muni_setup, seat))
            self.bots[seat] = bot
        return bot

    def to_act(self) -> int:
        return KIND.to_act(self.game) if self.game is not None else -1

    # ---------------------------------------------------------------- game
    def start(self) -> None:
        m = self.meta
        names, seed, secret = self.seat_the_game()
        self.muni_setup = KIND.spec.make_setup(names, seed=seed, secret=secret, options=tuple(m.options))
        self.game = KIND.new_game(self.muni_setup)
        # gamelog_io writes any game's header (core.gamelog.make_header names Municipium's)
        self.begin_play(self.muni_setup, f"Municipium starts ({', '.join(names)})")  # type: ignore[arg-type]

    def restore(self) -> None:
        loaded = gamelog_io.load(self.log_path)
        setup: MuniSetup = loaded.setup  # type: ignore[assignment]  # a Municipium log's setup
        self.muni_setup = setup
        state = KIND.new_game(setup)
        for a in loaded.actions:
            state, ev = KIND.apply(state, cast(MuniAction, a))
            self.actions.append(a)
            self.events.extend(ev)
        self.game = state
        self.restored(loaded, over=KIND.to_act(state) < 0)

    def commit_muni(self, action: MuniAction) -> None:
        """Apply ``action`` (RuleError: nothing changed), log it durably, then broadcast."""
        assert self.game is not None and self.log is not None
        state, events = KIND.apply(self.game, action)
        over = KIND.to_act(state) < 0
        self.log.append_action(action, final=over)  # the writer takes any game's
        self.game = state
        self.actions.append(action)  # type: ignore[arg-type]  # Municipium's actions at this table
        self.events.extend(events)
        if over:
            self.meta.status = "over"
        self.update_clock()
        if self.conns:
            body = W.MuniUpdate(
                n=len(self.actions),
                actions=[action],
                events=events,
                state=KIND.player_view(state, None),
                deadline=self.deadline,
                clock_seat=self.clock_seat,
            )
            self.broadcast(P.GameMsg(table=self.id, body=W.encode(body)))
        if over:
            self.game_over()

    def history(self) -> P.HistoryInfo:
        st = self.game
        winner = ""
        if st is not None and st.result is not None and 0 <= st.result.winner < st.n:
            winner = st.players[st.result.winner].name
        players = (
            list(self.muni_setup.players) if self.muni_setup else [s.name or f"{s.kind} bot" for s in self.meta.seats]
        )
        return P.HistoryInfo(
            id=self.id,
            name=self.meta.name,
            variant="municipium",
            players=players,
            winner=winner,
            ended=time.time(),
            actions=len(self.actions),
        )

    # ---------------------------------------------------------------- a player's action
    def receive(self, conn: Conn, msg: P.GameMsg) -> None:
        """A ``GameMsg`` from a client: a ``MuniAct`` is checked, applied, logged, then
        acknowledged (``Ack``) or refused (``Error``) with the message's ``ref``."""
        refuse = self.server.refuse
        try:
            body = W.decode(msg.body)
        except msgspec.DecodeError as err:
            refuse(conn, f"not a Municipium message ({err})", code="malformed", ref=msg.ref)
            return
        if not isinstance(body, W.MuniAct):
            refuse(conn, "a client sends actions only", code="malformed", ref=msg.ref)
            return
        why = self.check_muni_act(conn, body)
        if why is not None:
            refuse(conn, why, ref=msg.ref, table=self.id)
            return
        try:
            self.commit_muni(body.action)
        except RuleError as err:
            refuse(conn, err.detail, code="rule", ref=msg.ref, rule=err.rule, table=self.id)
            return
        except OSError as err:  # the move could not be saved, so it did not happen
            log.error("table %s: game log not written: %s", self.id, err)
            refuse(conn, "the server could not save that move; try again", ref=msg.ref, table=self.id)
            return
        conn.send(P.Ack(ref=msg.ref, n=len(self.actions)))
        self.kick()

    def check_muni_act(self, conn: Conn, msg: W.MuniAct) -> str | None:
        seat = self.conns.get(conn)
        if seat is None:
            return "you are not at this table"
        if seat < 0 or self.present.get(seat) is not conn:
            return "spectators cannot act"
        if self.meta.status != "playing" or self.game is None:
            return "the game is not running" if self.meta.status == "waiting" else "the game is over"
        if msg.action.player != seat:
            return f"you hold seat {seat + 1}, not seat {msg.action.player + 1}"
        if msg.at >= 0 and msg.at != len(self.actions):
            return "the game moved on before your action arrived; look again"
        actor = self.to_act()
        if actor != seat:
            return f"it is {self.game.players[actor].name}'s turn, not yours" if actor >= 0 else "nobody is to act"
        return None

    async def _run_bots(self) -> None:
        delay = self.server.bot_delay
        while self.meta.status == "playing" and self.game is not None:
            seat = self.to_act()
            if seat < 0 or not self.controller_is_bot(seat):
                return
            await asyncio.sleep(delay)
            if self.game is None or self.to_act() != seat or not self.controller_is_bot(seat):
                continue
            try:
                action = self.bot_for(seat).act(self.game)
                try:
                    self.commit_muni(action)
                except RuleError:
                    self.commit_muni(KIND.fallback_action(self.game))  # a bot must never stall a table
            except Exception:  # noqa: BLE001 - a bot's bug must stop its table's bots, not the server
                log.exception("table %s: bot for seat %d failed", self.id, seat)
                return


# ------------------------------------------------------------------------------ the hub's part


def table_class(game: str) -> type[Table]:
    """The table type holding ``game`` (a ``TableMeta.game``)."""
    return MuniTable if game == KIND.spec.name else Table
