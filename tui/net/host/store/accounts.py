"""Accounts: a player is their SSH key(s) and one name.

The first login with a key under a free name makes the account (trust on first use, as the
server did with ``names.jsonl``); later logins with that key are that player whatever user name
the SSH client sends.  A player may add another key and rename (the name rules of
``host.names``; names are unique by ``name_key``).  An operator may block and unblock a player.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from colosseum.tui.net.host.names import clean_name, name_key, name_problem
from colosseum.tui.net.host.store import schema as S

__all__ = ["Player", "Refused"]


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    created: float
    blocked: bool = False
    blocked_why: str = ""


class Refused(Exception):
    """A login, a name or a key this store will not take: ``str(err)`` is one line."""


def _player(row: Row[Any]) -> Player:
    m = row._mapping
    return Player(id=m["id"], name=m["name"], created=m["created"], blocked=m["blocked"], blocked_why=m["blocked_why"])


async def by_key(conn: AsyncConnection, fingerprint: str) -> Player | None:
    row = (
        await conn.execute(
            select(S.players)
            .join(S.keys, S.keys.c.player_id == S.players.c.id)
            .where(S.keys.c.fingerprint == fingerprint)
        )
    ).first()
    return _player(row) if row is not None else None


async def by_name(conn: AsyncConnection, name: str) -> Player | None:
    row = (await conn.execute(select(S.players).where(S.players.c.name_key == name_key(name)))).first()
    return _player(row) if row is not None else None


async def by_id(conn: AsyncConnection, player_id: int) -> Player | None:
    row = (await conn.execute(select(S.players).where(S.players.c.id == player_id))).first()
    return _player(row) if row is not None else None


async def create(
    conn: AsyncConnection, name: str, fingerprint: str, public_key: str = "", *, when: float | None = None
) -> Player:
    """A new account for ``name`` with the key ``fingerprint``; Refused if either is taken."""
    shown = clean_name(name)
    problem = name_problem(shown)
    if problem:
        raise Refused(problem)
    if await by_name(conn, shown) is not None:
        raise Refused(f"the name {shown!r} belongs to another player")
    if await by_key(conn, fingerprint) is not None:
        raise Refused("this key belongs to another player")
    at = time.time() if when is None else when
    try:
        result = await conn.execute(
            insert(S.players)
            .values(name=shown, name_key=name_key(shown), created=at, blocked=False, blocked_why="")
            .returning(S.players.c.id)
        )
        pid = int(result.scalar_one())
        await conn.execute(
            insert(S.keys).values(fingerprint=fingerprint, player_id=pid, public_key=public_key, added=at)
        )
    except IntegrityError:  # another host made it in between
        raise Refused(f"the name {shown!r} or this key was taken just now") from None
    return Player(id=pid, name=shown, created=at)


async def login(conn: AsyncConnection, name: str, fingerprint: str, public_key: str = "") -> Player:
    """The player of ``fingerprint`` (an existing account, whatever ``name`` was typed), or a
    new account for ``name``; Refused when the name is another player's or the player is
    blocked."""
    found = await by_key(conn, fingerprint)
    if found is None:
        found = await create(conn, name, fingerprint, public_key)
    if found.blocked:
        raise Refused("this account is blocked" + (f": {found.blocked_why}" if found.blocked_why else ""))
    return found


async def add_key(conn: AsyncConnection, player_id: int, fingerprint: str, public_key: str = "") -> None:
    owner = await by_key(conn, fingerprint)
    if owner is not None:
        raise Refused("that key is yours already" if owner.id == player_id else "that key belongs to another player")
    await conn.execute(
        insert(S.keys).values(fingerprint=fingerprint, player_id=player_id, public_key=public_key, added=time.time())
    )


async def keys_of(conn: AsyncConnection, player_id: int) -> list[str]:
    rows = await conn.execute(
        select(S.keys.c.fingerprint).where(S.keys.c.player_id == player_id).order_by(S.keys.c.added)
    )
    return [r[0] for r in rows]


async def rename(conn: AsyncConnection, player_id: int, name: str) -> str:
    """Rename the player; the name as kept.  Refused if it is empty or another player's."""
    shown = clean_name(name)
    problem = name_problem(shown)
    if problem:
        raise Refused(problem)
    other = await by_name(conn, shown)
    if other is not None and other.id != player_id:
        raise Refused(f"the name {shown!r} belongs to another player")
    await conn.execute(
        update(S.players).where(S.players.c.id == player_id).values(name=shown, name_key=name_key(shown))
    )
    return shown


async def set_blocked(conn: AsyncConnection, name: str, blocked: bool, why: str = "") -> Player:
    found = await by_name(conn, name)
    if found is None:
        raise Refused(f"no player is called {clean_name(name)!r}")
    await conn.execute(
        update(S.players).where(S.players.c.id == found.id).values(blocked=blocked, blocked_why=why if blocked else "")
    )
    return Player(
        id=found.id, name=found.name, created=found.created, blocked=blocked, blocked_why=why if blocked else ""
    )


async def listing(
    conn: AsyncConnection, *, blocked_only: bool = False, offset: int = 0, limit: int = 50
) -> tuple[list[Player], int]:
    query = select(S.players)
    count = select(func.count()).select_from(S.players)
    if blocked_only:
        query = query.where(S.players.c.blocked.is_(True))
        count = count.where(S.players.c.blocked.is_(True))
    rows = await conn.execute(query.order_by(S.players.c.name_key).offset(offset).limit(limit))
    return [_player(r) for r in rows], int((await conn.execute(count)).scalar_one())
