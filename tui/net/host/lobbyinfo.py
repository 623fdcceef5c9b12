"""What the lobby asks of the store: a game's leaderboard (``L``) and a player's profile in a
game (games, wins, rating, recent games), answered from the lobby's database.

Each answer is made on the server's event loop while the table server goes on serving (the
store is asynchronous); the database being away is one line for the asker.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol, cast

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from . import protocol as P
from .conn import Conn
from .store import Store, StoreError
from .store import schema as S
from .store.ratings import PROVISIONAL_GAMES

__all__ = ["RECENT", "answer", "reply"]

RECENT = 8  # recent games in a profile
HISTORY = 30  # ratings after the last rated games in a profile
MAX_ROWS = 50  # leaderboard rows in one answer


log = logging.getLogger("colosseum.net")


class _Server(Protocol):
    def refuse(self, conn: Conn, why: str) -> None: ...


async def reply(server: _Server, store: Store, conn: Conn, msg: P.Leaderboard | P.Profile | P.Account) -> None:
    """Send ``conn`` the answer to ``msg`` (or the refusal: the database away, no such player)."""
    if isinstance(msg, P.Account):
        from .account import reply as account_reply

        await account_reply(cast(Any, server), store, conn, msg)
        return
    try:
        found = await answer(store, msg)
    except StoreError as err:
        log.warning("the lobby's database is away: %s", err)
        found = "the lobby's database is away just now; try again later"
    if isinstance(found, str):
        server.refuse(conn, found)
    elif not conn.closed:
        conn.send(found)


async def answer(store: Store, msg: P.Leaderboard | P.Profile) -> P.Leaders | P.PlayerProfile | str:
    """The answer to ``msg``, or why there is none (one line).  StoreError: the database is
    away (the caller says so)."""
    if isinstance(msg, P.Leaderboard):
        return await leaders(store, msg.game, max(0, msg.offset), max(1, min(msg.limit, MAX_ROWS)))
    return await profile(store, msg.name, msg.game)


async def leaders(store: Store, game: str, offset: int, limit: int) -> P.Leaders:
    rows = await store.leaderboard(game, offset, limit)

    async def count(conn: AsyncConnection) -> int:
        found = await conn.execute(
            select(func.count())
            .select_from(S.ratings.join(S.players, S.players.c.id == S.ratings.c.player_id))
            .where(and_(S.ratings.c.game == game, S.players.c.blocked.is_(False)))
        )
        return int(found.scalar_one())

    total = await store.read(count)
    return P.Leaders(
        game=game,
        rows=[
            P.LeaderRow(
                place=r.place,
                name=r.name,
                rating=r.rating.shown,
                games=r.rating.games,
                provisional=r.rating.provisional,
            )
            for r in rows
        ],
        total=total,
        offset=offset,
    )


async def profile(store: Store, name: str, game: str) -> P.PlayerProfile | str:
    player = await store.player_named(name)
    if player is None:
        return f"no player is called {name}"
    rating = await store.rating(player.id, game)

    async def tally(conn: AsyncConnection) -> tuple[int, int]:
        mine = (
            select(S.results.c.rank, S.results.c.left)
            .join(S.games, S.games.c.id == S.results.c.game_id)
            .where(and_(S.results.c.player_id == player.id, S.games.c.game == game))
            .subquery()
        )
        played = (await conn.execute(select(func.count()).select_from(mine))).scalar_one()
        # a first place a bot finished for a person who left is not theirs
        won = and_(mine.c.rank == 1, mine.c.left.is_(False))
        wins = (await conn.execute(select(func.count()).select_from(mine).where(won))).scalar_one()
        return int(played), int(wins)

    played, wins = await store.read(tally)
    history = [r.shown for _at, r in (await store.rating_history(player.id, game))[-HISTORY:]]
    games, _total = await store.finished(player_id=player.id, game=game, limit=RECENT)
    recent = []
    for g in games:
        own = next((s for s in g.seats if s.player_id == player.id), None)
        recent.append(
            P.GameLine(
                id=g.id,
                name=g.table_name,
                ended=g.ended,
                place=own.rank if own is not None else 0,
                players=[s.name for s in g.seats],
                rated=g.rated,
                left=own.left if own is not None else False,
            )
        )
    return P.PlayerProfile(
        name=player.name,
        game=game,
        rating=rating.shown,
        rated_games=rating.games,
        provisional=rating.games < PROVISIONAL_GAMES,
        played=played,
        wins=wins,
        recent=recent,
        history=history,
    )
