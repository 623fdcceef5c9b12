"""A player's account from a session (D-79): the lobby's ``a`` shows it, renames it (unique,
the rules of ``names``) and adds another SSH key to it (its public key line pasted, as in an
``authorized_keys`` file).  A key added so logs in as that player from then on: its sessions
are the account's first key's identity (the same seats, settings and results).

Answered from the lobby's store on the server's loop; the database away is one line.
"""

from __future__ import annotations

import logging
from typing import Protocol

import asyncssh

from . import protocol as P
from .conn import Conn
from .store import Store, StoreError
from .store.accounts import Refused

__all__ = ["key_login", "name_taken", "parse_public_key", "reply"]

log = logging.getLogger("colosseum.net")


class _Server(Protocol):
    conns: set[Conn]

    def refuse(self, conn: Conn, why: str) -> None: ...


def parse_public_key(line: str) -> tuple[str, str]:
    """(fingerprint, the key as kept) of a public key line (options and a comment allowed);
    ValueError with one line for a person."""
    if "PRIVATE KEY" in line:
        raise ValueError("that is a private key: paste the public one (the .pub file's line), never the private")
    parts = line.split()
    for i in range(len(parts) - 1):
        try:
            key = asyncssh.import_public_key(f"{parts[i]} {parts[i + 1]}")
        except (asyncssh.KeyImportError, ValueError):
            continue
        return key.get_fingerprint(), f"{parts[i]} {parts[i + 1]}"
    raise ValueError("not an SSH public key line (it looks like: ssh-ed25519 AAAA... you@laptop)")


async def key_login(store: Store | None, fingerprint: str) -> tuple[str, str, bool] | None:
    """(identity, name, added) of the account holding the key ``fingerprint``: the identity is
    the account's first key's, ``added`` True when this key is another one its player added.
    None: no account has it, or the database is away."""
    if store is None:
        return None
    try:
        player = await store.player_for_key(fingerprint)
        if player is None:
            return None
        keys = await store.keys(player.id)
    except StoreError as err:
        log.warning("the key %s not looked up in the accounts: %s", fingerprint, err)
        return None
    first = keys[0] if keys else fingerprint
    return f"key:{first}", player.name, first != fingerprint


async def name_taken(store: Store | None, name: str, fingerprint: str) -> bool:
    """Whether another player's account is called ``name`` (a key of no account may not log in
    under it: the account may have been renamed to it after the server's book of names bound
    it).  False while the database is away."""
    if store is None:
        return False
    try:
        player = await store.player_named(name)
        return player is not None and fingerprint not in await store.keys(player.id)
    except StoreError:
        return False


async def reply(server: _Server, store: Store, conn: Conn, msg: P.Account) -> None:
    """Answer ``msg`` (an ``AccountInfo``), or refuse it in one line."""
    try:
        found = await _answer(server, store, conn, msg)
    except StoreError as err:
        log.warning("the lobby's database is away: %s", err)
        found = "the lobby's database is away just now; try again later"
    except Refused as err:
        found = str(err)
    if isinstance(found, str):
        server.refuse(conn, found)
    elif not conn.closed:
        conn.send(found)


async def _answer(server: _Server, store: Store, conn: Conn, msg: P.Account) -> P.AccountInfo | str:
    if not conn.player.startswith("key:"):
        return "only a player who logs in with an SSH key has an account to change"
    player = await store.player_for_key(conn.player.removeprefix("key:"))
    if player is None:
        return "your account is not there yet; try again in a moment"
    note = ""
    if msg.what == "rename":
        name = await store.rename(player.id, msg.value)
        for other in server.conns:  # every session of this player is called so from now on
            if other.player == conn.player:
                other.name = name
        log.info("player %s (%s) is now called %r", player.id, player.name, name)
        note = f"You are now {name}." if name != player.name else f"You are {name} already."
        player = await store.player(player.id) or player
    elif msg.what == "add_key":
        try:
            fingerprint, public = parse_public_key(msg.value)
        except ValueError as err:
            return str(err)
        await store.add_key(player.id, fingerprint, public)
        log.info("player %s (%s) added the key %s", player.id, player.name, fingerprint)
        note = f"Key {fingerprint} added: it logs you in as {player.name} from now on."
    elif msg.what != "show":
        return f"no such account request {msg.what!r}"
    return P.AccountInfo(name=player.name, keys=await store.keys(player.id), note=note)
