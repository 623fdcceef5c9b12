"""The lobby's requests of a table server connection (``RemoteClient``'s): each sends one
message and waits for its answer."""

from __future__ import annotations

from typing import Any, TypeVar

from colosseum.core.errors import RuleError

from .host import protocol as P

_Reply = TypeVar("_Reply", bound=P._Msg)

REPLY_TIMEOUT = 15.0  # seconds a request waits for its answer


class ServerSaid(RuleError):
    """A refusal that is no rule of the game (the connection lost, the server silent, its disk
    or database): a ``RuleError`` for the game's screens, said without a rule code (a player
    read "G-0: the server did not answer" as noise)."""

    def __init__(self, message: str) -> None:
        super().__init__("G-0", message)

    def __str__(self) -> str:
        return self.detail


def refusal(reply: P.Error) -> RuleError:
    """The server's ``Error`` as a RuleError: the rule's code when it names one."""
    return RuleError(reply.rule, reply.message) if reply.rule else ServerSaid(reply.message)


class LobbyRequests:
    """Listing, making, joining and watching tables; the leaderboard, profiles, web links."""

    tables: dict[str, P.TableInfo]
    last_held: list[tuple[str, int]]

    def request(self, msg: P._Msg, want: type[_Reply], timeout: float = REPLY_TIMEOUT) -> _Reply:
        raise NotImplementedError  # (RemoteClient's)

    def list_tables(self) -> list[P.TableInfo]:
        """The first page of the live tables."""
        return self.list_page().tables

    def list_page(
        self, offset: int = 0, *, history: bool = False, limit: int = P.PAGE_MAX, mine: bool = False
    ) -> P.Tables:
        """A page of the live tables (waiting first), or of the finished games (newest first;
        ``mine``: those this player played)."""
        reply = self.request(P.ListTables(offset=offset, limit=limit, history=history, mine=mine), P.Tables)
        if not history:
            for t in reply.tables:
                self.tables[t.id] = t
            self.last_held = [(t, s) for t, s in reply.held]
        return reply

    def create_table(self, **kw: Any) -> P.Joined:
        """``kw``: the fields of ``protocol.CreateTable``."""
        return self.request(P.CreateTable(**kw), P.Joined)

    def join(self, table: str, seat: int) -> P.Joined:
        return self.request(P.Join(table=table, seat=seat), P.Joined)

    def watch(self, table: str) -> P.Joined:
        return self.request(P.Watch(table=table), P.Joined)

    def join_code(self, code: str) -> P.Joined:
        return self.request(P.JoinCode(code=code), P.Joined)

    def fork(self, game: str, at: int, seats: list[str], sit: int) -> P.Joined:
        """A new table from position ``at`` of finished game ``game``."""
        return self.request(P.ForkGame(game=game, at=at, seats=seats, sit=sit), P.Joined)

    def leaderboard(self, game: str, offset: int = 0, limit: int = 20) -> P.Leaders:
        return self.request(P.Leaderboard(game=game, offset=offset, limit=limit), P.Leaders)

    def profile(self, name: str, game: str) -> P.PlayerProfile:
        return self.request(P.Profile(name=name, game=game), P.PlayerProfile)

    def web_link(self) -> P.WebLink:
        """A one-time link signing a browser in as this player (NetError: no web pages)."""
        return self.request(P.WebLinkRequest(), P.WebLink)
