"""Finished games, their results and the ratings they change: writing one game (once), the
leaderboard, a player's games and rating history, and rebuilding every rating from the results.

Each function takes a connection in a transaction the store opened; a game is written with its
results and its rating updates in one transaction, so it counts once or not at all.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from colosseum.tui.net.host.store import accounts
from colosseum.tui.net.host.store import schema as S
from colosseum.tui.net.host.store.ratings import Entry, Rating, bot_rating, rate

__all__ = ["FinishedGame", "GameRow", "LeaderRow", "SeatResult"]


class SeatResult(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    name: str
    kind: str  # "human" or the bot's level
    player_id: int | None = None  # the person (None: a bot, or a guest without an account)
    rank: int  # 1 = first; a shared place has one number
    score: int
    left: bool = False  # a person who left before the end (a stand-in finished): counted last
    #: the server's identity of the person (``key:SHA256:...`` or ``pw:NAME``), when the table
    #: did not know the account: the account is found (or made, for a key) when written
    identity: str = ""


class FinishedGame(msgspec.Struct, frozen=True, kw_only=True):
    """What a table hands the store when its game ends (also the outbox's line)."""

    id: str  # the game's own id: writing it twice writes it once
    table_id: str
    table_name: str
    game: str
    options: dict[str, Any] = {}
    edition: str = ""
    started: float
    ended: float
    rated: bool = False
    actions: int
    log: str  # the log's file name in the games folder
    digest: str = ""
    seats: tuple[SeatResult, ...]

    @property
    def people(self) -> list[SeatResult]:
        return [s for s in self.seats if s.kind == "human" and s.player_id is not None]


@dataclass(frozen=True)
class LeaderRow:
    place: int
    player_id: int
    name: str
    rating: Rating


@dataclass(frozen=True)
class GameRow:
    id: str
    table_name: str
    game: str
    edition: str
    ended: float
    rated: bool
    actions: int
    log: str
    seats: list[SeatResult] = field(default_factory=list)


async def exists(conn: AsyncConnection, game_id: str) -> bool:
    found = await conn.execute(select(S.games.c.id).where(S.games.c.id == game_id))
    return found.first() is not None


async def write(conn: AsyncConnection, game: FinishedGame) -> bool:
    """Write ``game`` with its results and, if rated, its rating updates; False if it was
    written before (nothing changes then)."""
    if await exists(conn, game.id):
        return False
    if any(s.identity and s.player_id is None for s in game.seats):
        game = msgspec.structs.replace(game, seats=tuple([await _account_of(conn, s) for s in game.seats]))
    await conn.execute(
        insert(S.games).values(
            id=game.id,
            table_id=game.table_id,
            table_name=game.table_name,
            game=game.game,
            options=game.options,
            edition=game.edition,
            started=game.started,
            ended=game.ended,
            rated=game.rated,
            actions=game.actions,
            log=game.log,
            digest=game.digest,
        )
    )
    await conn.execute(
        insert(S.results),
        [
            dict(
                game_id=game.id,
                seat=s.seat,
                player_id=s.player_id,
                name=s.name,
                kind=s.kind,
                rank=s.rank,
                score=s.score,
                left=s.left,
            )
            for s in game.seats
        ],
    )
    if game.rated and len(game.people) >= 2:
        await apply_ratings(conn, game.id, game.game, game.seats, at=game.ended)
    return True


async def _account_of(conn: AsyncConnection, seat: SeatResult) -> SeatResult:
    """``seat`` with its person's account: the key's (made under the seat's name if the key
    has none), or the name's for a password login; unchanged (a guest) when there is none."""
    if seat.player_id is not None or not seat.identity:
        return seat
    kind, _, ident = seat.identity.partition(":")
    found = None
    if kind == "key":
        found = await accounts.by_key(conn, ident)
        if found is None:
            try:  # (refused before anything is written: the transaction goes on)
                found = await accounts.create(conn, seat.name, ident)
            except accounts.Refused:  # the name is another player's: played as a guest
                found = None
    elif kind == "pw":
        found = await accounts.by_name(conn, seat.name)
    return msgspec.structs.replace(seat, player_id=found.id) if found is not None else seat


async def current(conn: AsyncConnection, player_ids: Sequence[int], game: str, *, lock: bool) -> dict[int, Rating]:
    query = select(S.ratings).where(and_(S.ratings.c.game == game, S.ratings.c.player_id.in_(list(player_ids))))
    if lock and conn.dialect.name == "postgresql":
        query = query.with_for_update()  # two hosts recording games of one player: one after the other
    rows = (await conn.execute(query)).mappings().all()
    return {r["player_id"]: Rating(mu=r["mu"], sigma=r["sigma"], games=r["games"]) for r in rows}


async def apply_ratings(
    conn: AsyncConnection, game_id: str, game: str, seats: Sequence[SeatResult], *, at: float
) -> None:
    people = [s.player_id for s in seats if s.kind == "human" and s.player_id is not None]
    before = await current(conn, people, game, lock=True)
    entries = []
    for s in seats:
        if s.kind == "human" and s.player_id is not None:
            entries.append(Entry(seat=s.seat, rank=s.rank, rating=before.get(s.player_id, Rating()), left=s.left))
        else:  # a bot (or a guest): a fixed anchor at its level's rating
            entries.append(Entry(seat=s.seat, rank=s.rank, rating=bot_rating(s.kind, game), fixed=True, left=s.left))
    after = rate(entries)
    by_seat = {s.seat: s for s in seats}
    for seat, new in after.items():
        pid = by_seat[seat].player_id
        assert pid is not None
        values = dict(mu=new.mu, sigma=new.sigma, games=new.games, updated=at)
        if pid in before:
            await conn.execute(
                update(S.ratings).where(and_(S.ratings.c.player_id == pid, S.ratings.c.game == game)).values(**values)
            )
        else:
            await conn.execute(insert(S.ratings).values(player_id=pid, game=game, **values))
        await conn.execute(
            insert(S.rating_history).values(
                game_id=game_id, player_id=pid, game=game, mu=new.mu, sigma=new.sigma, at=at
            )
        )


async def rebuild(conn: AsyncConnection) -> int:
    """Every rating again from the stored results, in the order the games were first rated
    (then by end): the very same numbers when nothing was changed by hand.  Returns the number
    of rated games replayed."""
    first_seq = (
        select(S.rating_history.c.game_id, func.min(S.rating_history.c.seq).label("seq"))
        .group_by(S.rating_history.c.game_id)
        .subquery()
    )
    rows = (
        await conn.execute(
            select(S.games.c.id, S.games.c.game, S.games.c.ended, first_seq.c.seq)
            .join(first_seq, first_seq.c.game_id == S.games.c.id, isouter=True)
            .where(S.games.c.rated.is_(True))
        )
    ).all()
    big = 1 << 62
    order = sorted(rows, key=lambda r: (r.seq if r.seq is not None else big, r.ended, r.id))
    await conn.execute(delete(S.rating_history))
    await conn.execute(delete(S.ratings))
    count = 0
    for r in order:
        seats = await seat_results(conn, r.id)
        if sum(1 for s in seats if s.kind == "human" and s.player_id is not None) >= 2:
            await apply_ratings(conn, r.id, r.game, seats, at=r.ended)
            count += 1
    return count


async def seat_results(conn: AsyncConnection, game_id: str) -> list[SeatResult]:
    rows = (
        await conn.execute(select(S.results).where(S.results.c.game_id == game_id).order_by(S.results.c.seat))
    ).mappings()
    return [
        SeatResult(
            seat=r["seat"],
            name=r["name"],
            kind=r["kind"],
            player_id=r["player_id"],
            rank=r["rank"],
            score=r["score"],
            left=r["left"],
        )
        for r in rows
    ]


async def leaderboard(conn: AsyncConnection, game: str, offset: int = 0, limit: int = 20) -> list[LeaderRow]:
    """The players of ``game`` by their shown rating (provisional ones too), best first."""
    rows = (
        await conn.execute(
            select(S.ratings, S.players.c.name)
            .join(S.players, S.players.c.id == S.ratings.c.player_id)
            .where(and_(S.ratings.c.game == game, S.players.c.blocked.is_(False)))
        )
    ).mappings()
    ranked = [(Rating(mu=r["mu"], sigma=r["sigma"], games=r["games"]), r["player_id"], r["name"]) for r in rows]
    ranked.sort(key=lambda t: (-t[0].shown, -t[0].mu, t[2].casefold(), t[1]))
    return [
        LeaderRow(place=offset + i + 1, player_id=pid, name=name, rating=rating)
        for i, (rating, pid, name) in enumerate(ranked[offset : offset + limit])
    ]


async def finished(
    conn: AsyncConnection, *, player_id: int | None = None, game: str | None = None, offset: int = 0, limit: int = 20
) -> tuple[list[GameRow], int]:
    """A page of finished games, newest first (a player's, or all), and how many there are."""
    query = select(S.games)
    count = select(func.count()).select_from(S.games)
    if player_id is not None:
        mine = select(S.results.c.game_id).where(S.results.c.player_id == player_id)
        query = query.where(S.games.c.id.in_(mine))
        count = count.where(S.games.c.id.in_(mine))
    if game is not None:
        query = query.where(S.games.c.game == game)
        count = count.where(S.games.c.game == game)
    total = (await conn.execute(count)).scalar_one()
    rows = (
        await conn.execute(query.order_by(S.games.c.ended.desc(), S.games.c.id).offset(offset).limit(limit))
    ).mappings()
    out = []
    for r in rows:
        out.append(
            GameRow(
                id=r["id"],
                table_name=r["table_name"],
                game=r["game"],
                edition=r["edition"],
                ended=r["ended"],
                rated=r["rated"],
                actions=r["actions"],
                log=r["log"],
                seats=await seat_results(conn, r["id"]),
            )
        )
    return out, int(total)


async def history(conn: AsyncConnection, player_id: int, game: str) -> list[tuple[float, Rating]]:
    """A player's rating after each rated game of ``game``, oldest first (for the plot)."""
    rows = (
        await conn.execute(
            select(S.rating_history)
            .where(and_(S.rating_history.c.player_id == player_id, S.rating_history.c.game == game))
            .order_by(S.rating_history.c.seq)
        )
    ).mappings()
    return [(r["at"], Rating(mu=r["mu"], sigma=r["sigma"], games=i + 1)) for i, r in enumerate(rows)]


def now() -> float:
    return time.time()
