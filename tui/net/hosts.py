"""The client side of several hosts (issue 30): a table served by another host of the server.

The client process talks to the host that started it (lobby and all).  When a table it joins,
watches or comes back to is another host's, its host answers ``Elsewhere`` (that host's peer
address and a token signed with the servers' shared secret): :class:`HostsClient` opens a
second connection there, the same protocol, for that table alone, and closes it when the player
leaves the table.  A single-host server never answers ``Elsewhere``: nothing changes there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from .host import protocol as P
from .host.proto_client import NetError
from .remote import RemoteClient, RemoteSession

__all__ = ["HostUnreachable", "HostsClient"]

#: said at a waiting table whose host went away (the table is found again on another host)
HOST_LOST = "The table's host was lost: finding the table again on another host."


class HostUnreachable(NetError):
    """The host serving a table does not answer (killed, paused, cut off): until its lease runs
    out and another host adopts the table, asking again is all there is to do."""


class HostsClient(RemoteClient):
    """A ``RemoteClient`` that follows a table to the host serving it.  ``follow`` False: a
    connection to another host, for its tables only (it does not follow any further)."""

    def __init__(self, address: str, token: str, *, client: str = "tui", follow: bool = True) -> None:
        self.follow = follow
        self.kind = client
        self.peers: dict[str, HostsClient] = {}  # address -> the connection to that host
        self.peer_of: dict[str, HostsClient] = {}  # table -> the connection serving it
        self.served: set[str] = set()  # (a connection to another host) the tables reached through it
        self._closing = False
        super().__init__(address, token, client=client)

    def _route(self, msg: P._Msg) -> None:
        if isinstance(msg, P.Error) and msg.code == "moved_host":  # the host let the table go
            s = self.sessions.pop(msg.table, None)
            self.served.discard(msg.table)
            if s is not None:
                s._post(None)  # lost here: the game finds the table again on its new host
            else:  # a waiting table: the lobby finds it again on its new host
                for fn in list(self.table_listeners):
                    fn(msg)
            if not self.follow and not self.sessions:
                self.close()
            return
        super()._route(msg)

    def _reader(self) -> None:
        super()._reader()
        if self.follow or self._closing:
            return
        # the other host went away: its games find their tables again themselves (their
        # sessions were told); the lobby does the same for its waiting tables
        for tid in sorted(self.served - set(self.sessions)):
            for fn in list(self.table_listeners):
                fn(P.Error(message=HOST_LOST, code="moved_host", table=tid))

    def _follow(self, msg: P._Msg, table: str, again: Callable[[HostsClient], P.Joined]) -> P.Joined:
        reply = self.request(msg, cast(Any, P.Joined | P.Elsewhere))
        if not isinstance(reply, P.Elsewhere):
            self.peer_of.pop(table, None)
            return cast(P.Joined, reply)
        if not self.follow:
            raise NetError("that table has just moved to another host: try again")
        peer = self.peers.get(reply.address)
        if peer is None or peer.closed.is_set():
            try:
                peer = HostsClient(reply.address, reply.token, client=self.kind, follow=False)
            except (OSError, ValueError) as exc:
                raise HostUnreachable(f"the host serving that table does not answer ({exc})") from None
            peer.table_listeners = self.table_listeners  # (the lobby hears its tables as any other)
            peer.tables = self.tables
            self.peers[reply.address] = peer
        joined = again(peer)
        self.peer_of[joined.table.id] = peer
        peer.served.add(joined.table.id)
        return joined

    def send(self, msg: P._Msg) -> None:
        """A message about a table another host serves goes to that host (the lobby's talk at
        a waiting table, starting it, leaving it)."""
        table = getattr(msg, "table", None)
        peer = self.peer_of.get(table) if isinstance(table, str) and not isinstance(msg, (P.Join, P.Watch)) else None
        if peer is not None:
            peer.send(msg)
        else:
            super().send(msg)

    def join(self, table: str, seat: int) -> P.Joined:
        return self._follow(P.Join(table=table, seat=seat), table, lambda p: p.join(table, seat))

    def watch(self, table: str) -> P.Joined:
        return self._follow(P.Watch(table=table), table, lambda p: p.watch(table))

    def join_code(self, code: str) -> P.Joined:
        return self._follow(P.JoinCode(code=code), "", lambda p: p.join_code(code))

    def session_for(self, joined: P.Joined) -> RemoteSession:
        peer = self.peer_of.get(joined.table.id)
        return peer.session_for(joined) if peer is not None else super().session_for(joined)

    def leave(self, table: str) -> None:
        peer = self.peer_of.pop(table, None)
        if peer is None:
            super().leave(table)
            return
        peer.leave(table)
        peer.served.discard(table)
        if peer not in self.peer_of.values():
            self.peers = {a: p for a, p in self.peers.items() if p is not peer}
            peer.close()

    def close(self) -> None:
        self._closing = True
        for peer in list(self.peers.values()):
            peer.close()
        self.peers.clear()
        super().close()
