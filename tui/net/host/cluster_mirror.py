"""The database home of a table's log lines on a host of several (``cluster_host``): the
mirror ``LogWriter`` calls after each write to the table's file."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from .cluster_link import ClusterError
from .store import cluster

if TYPE_CHECKING:
    from .cluster_host import ClusterServer

log = logging.getLogger("colosseum.net.cluster")


class LogMirror:
    """The database home of one table's log lines (``LogWriter.mirror``): each write's lines
    appended under the table's lease, committed before the write returns."""

    def __init__(self, server: ClusterServer, table_id: str, next_n: int) -> None:
        self.server = server
        self.table_id = table_id
        self.next_n = next_n

    poisoned = False  # its lines could not be taken back: it writes nothing more here

    def abandon(self) -> None:
        """The game did not start after all: its lines so far taken back (else this host lets
        the table go at its next write, and it goes on from what the database holds)."""
        lease = self.server.leases.get(self.table_id)
        try:
            if lease is None:
                raise ClusterError("no lease", fenced=True)
            self.server.link.call(lambda c: cluster.drop_lines(c, lease))
            self.next_n = 1
        except ClusterError as err:
            log.warning("table %s: its begun log not taken back: %s", self.table_id, err)
            self.poisoned = True

    def __call__(self, data: bytes) -> None:
        lines = data.split(b"\n")[:-1]
        lease = None if self.poisoned else self.server.leases.get(self.table_id)
        if lease is None:
            raise ClusterError(f"table {self.table_id} is not this host's any more", fenced=True)
        first = self.next_n
        try:
            self.server.link.call(lambda c: cluster.append(c, lease, first, lines))
        except ClusterError as err:
            # another host owns it now, or the line may be in the database though the file was
            # cut back: this host lets go (after this refusal) and the table goes on from what
            # the database holds (adopted again, by whichever host is first)
            if err.fenced or err.unknown:
                asyncio.get_running_loop().call_soon(self.server.lose, self.table_id, str(err))
            raise
        self.next_n += len(lines)
