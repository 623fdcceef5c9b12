"""A rematch at a finished table (``m`` on the end screen, as in a local game: D-46, D-76).

A player of the finished game asks; every other person who played it accepts or declines (a
bot's seat accepts).  When all have accepted, a new table starts with the same seats, people,
bot levels and options, new chance (a new secret), and the first player rotated through the
game's ``seat`` option (``Rules.first_seat`` tells who the lot chose); each player's client then
sits at their seat there.  Someone who declines, or has left the finished table, ends the
offer: everyone at the table is told in one line.  The offer lives as long as the finished
table does (in memory while anyone is at it).
"""

from __future__ import annotations

import logging
import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from colosseum.core.options import option_specs

from . import protocol as P
from .conn import Conn
from .invites import new_code
from .limits import unmake
from .meta import SeatMeta, TableMeta, edition_of
from .table import Table

if TYPE_CHECKING:
    from .hub import TableServer

__all__ = ["rematch", "rematch_gone", "rotated_options"]

log = logging.getLogger("colosseum.net")


@dataclass
class Offer:
    answers: list[str] = field(default_factory=list)  # per seat: "asked", "yes", "no", "left", ""


_offers: weakref.WeakKeyDictionary[Any, Offer] = weakref.WeakKeyDictionary()


def rotated_options(table: Table) -> dict[str, Any]:
    """The finished game's options with the first player moved on by one seat (its ``seat``
    option, if the game has one; else the options as they were)."""
    options = dict(table.meta.options)
    setup, rules = table.setup, table.rules
    if setup is None:
        return options
    n = len(setup.players)
    for spec in option_specs(type(setup)):
        if spec.kind != "seat":
            continue
        first = getattr(setup, spec.name, None)
        if first is None:
            first = rules.first_seat(rules.new_game(setup))
        if first is not None:
            options[spec.name] = (int(first) + 1) % n
        break
    return options


def _people(table: Table) -> list[int]:
    return [i for i, s in enumerate(table.meta.seats) if s.kind == "human" and s.holder]


def _say(table: Table, offer: Offer | None, note: str = "", new_table: str = "") -> None:
    answers = offer.answers if offer is not None else ["" for _ in table.meta.seats]
    table.broadcast(P.RematchState(table=table.id, answers=list(answers), new_table=new_table, note=note))


def rematch(server: TableServer, conn: Conn, msg: P.Rematch) -> None:
    """``conn`` asks for a rematch at a finished table, or answers one."""
    t = server.tables.get(msg.table)
    if t is None or t.meta.status != "over":
        server.refuse(conn, "a rematch is asked at a finished table")
        return
    seat = t.seats.seat_of(conn)
    if seat is None or seat < 0 or seat not in _people(t):
        server.refuse(conn, "only the players of this game can ask for a rematch")
        return
    offer = _offers.get(t)
    name = t.meta.seats[seat].name
    if offer is None:
        if not msg.accept:
            return
        offer = _offers[t] = Offer(answers=["" if i in _people(t) else "yes" for i in range(len(t.meta.seats))])
        offer.answers[seat] = "asked"
        gone = [t.meta.seats[i].name for i in _people(t) if i not in t.seats.present]
        if gone:
            del _offers[t]
            _say(t, None, f"{gone[0]} has left the table: no rematch.")
            return
        log.info("table %s: %s asks for a rematch", t.id, name)
    elif not msg.accept:
        del _offers[t]
        offer.answers[seat] = "no"
        _say(t, offer, f"{name} declines the rematch.")
        return
    elif offer.answers[seat]:
        return  # asked or accepted already (a second m): nothing new to say
    else:
        offer.answers[seat] = "yes"
    if any(not a for a in offer.answers):
        _say(t, offer, f"{name} asks for a rematch." if offer.answers[seat] == "asked" else f"{name} accepts.")
        return
    del _offers[t]
    made = _new_table(server, conn, t)
    if isinstance(made, str):
        _say(t, offer, f"No rematch: {made}")
        return
    _say(t, offer, f"Everyone accepted: the rematch starts at table {made.id}.", new_table=made.id)


def rematch_gone(table: Table) -> None:
    """Someone left a finished table: an open offer ends (told to those still there)."""
    offer = _offers.get(table)
    if offer is None:
        return
    gone = [table.meta.seats[i].name for i in _people(table) if i not in table.seats.present]
    if gone:
        del _offers[table]
        _say(table, offer, f"{gone[0]} has left the table: no rematch.")


def _new_table(server: TableServer, conn: Conn, old: Table) -> Table | str:
    """The rematch's table, started at once with every person's seat held for them (each
    client sits there next; until then they are away, as after a restart)."""
    m = old.meta
    options = rotated_options(old)
    kinds = [s.kind for s in m.seats]
    ask = P.CreateTable(seats=kinds, game=m.game, options=options, sit=-1, rated=m.rated, hints=m.hints)
    why = server.create_refusal(conn, ask)
    if why:
        return why
    meta = TableMeta(
        id=server.new_id(),
        name=m.name,
        game=m.game,
        options=options,
        edition=edition_of(old.spec, options),
        allow_takeover=m.allow_takeover,
        hints=m.hints,
        creator=m.creator,
        creator_name=m.creator_name,
        seats=[SeatMeta(kind=s.kind, holder=s.holder, name=s.name) for s in m.seats],
        seed=None if m.seed is None else m.seed + 1,  # (a server with --fixed-seeds: tests)
        created=time.time(),
        rated=m.rated,
        rematch_of=m.id,
        code=new_code(server.tables.values()) if m.code else "",
        invited=list(m.invited),
        bank=m.bank,
        increment=m.increment,
        turn_hours=m.turn_hours,
    )
    t = server.make_table(meta)
    t.origin = conn.address  # counted against the asker's address, as a table they made
    server.tables[meta.id] = t
    try:  # made whole or not at all, as every new table (limits.begin)
        server.save_meta(t.meta)
        t.start()
    except OSError as err:
        return unmake(server, t, err)
    for seat in t.seats.away():
        t.arm_timer(seat)
    log.info("table %s: the rematch of %s", meta.id, m.id)
    return t
