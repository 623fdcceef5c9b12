"""Client processes forked from one preloaded process (``colosseum.tui.net.forkserver``): the
sessions share the pages of Textual, Rich and the games instead of each importing them (issue
24: 33 MiB of memory per session where the target is 30).

``ForkServer.start`` starts the fork server (a clean environment, one end of a socket pair) and
waits until it has imported everything; ``spawn(env, tty)`` hands it a session's terminal and
environment and returns a ``Forked``: what the SSH server needs of a client process (``pid``,
``returncode``, ``wait``), like ``asyncio.subprocess.Process``.  When the fork server cannot
be used (it did not start, or died), ``spawn`` raises OSError and the session's client is
started afresh as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
from typing import Any, Protocol

log = logging.getLogger("colosseum.net")

START_TIMEOUT = 60.0  # seconds the fork server may take to import everything
SPAWN_TIMEOUT = 10.0


class ClientProcess(Protocol):
    """A session's client process: started afresh (``asyncio.subprocess.Process``) or forked."""

    @property
    def pid(self) -> int: ...
    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


def fork_env(env: dict[str, str]) -> dict[str, str]:
    """The fork server's environment: how this program is found, and nothing of a player's."""
    keep = ("PATH", "PYTHONPATH", "COLOSSEUM_GAMES", "COLOSSEUM_NET_TRACE", "LANG", "LC_ALL", "PYTHONUNBUFFERED")
    return {k: v for k, v in env.items() if k in keep}


class Forked:
    """A client process forked by the fork server (whose child it is: it says when it ends)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._ended = asyncio.Event()

    def ended(self, code: int) -> None:
        self.returncode = code
        self._ended.set()

    async def wait(self) -> int:
        await self._ended.wait()
        assert self.returncode is not None
        return self.returncode


class ForkServer:
    def __init__(self, proc: subprocess.Popen[bytes], sock: socket.socket) -> None:
        self.proc = proc
        self.sock = sock
        self.children: dict[int, Forked] = {}
        self._asked: dict[int, asyncio.Future[int]] = {}
        self._ids = 0
        self._ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.alive = True
        sock.setblocking(False)
        asyncio.get_running_loop().add_reader(sock.fileno(), self._read)

    @classmethod
    async def start(cls, env: dict[str, str], log_path: str) -> ForkServer:
        """The fork server, ready (OSError or TimeoutError if it could not start)."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with open(log_path, "ab") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "colosseum.tui.net.forkserver", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                env=env,
                start_new_session=True,  # the server's terminal signals are not its children's
            )
        theirs.close()
        server = cls(proc, mine)
        try:
            pid = await asyncio.wait_for(asyncio.shield(server._ready), START_TIMEOUT)
        except BaseException:
            server.close()
            raise
        log.info("fork server pid %d ready", pid)
        return server

    def _read(self) -> None:
        while True:
            try:
                data = self.sock.recv(1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._gone()
                return
            try:
                msg: dict[str, Any] = json.loads(data)
            except ValueError:
                continue
            if "ready" in msg and not self._ready.done():
                self._ready.set_result(int(msg["ready"]))
            elif "exit" in msg:
                child = self.children.pop(int(msg["exit"]), None)
                if child is not None:
                    child.ended(int(msg["code"]))
            elif "id" in msg:
                fut = self._asked.pop(int(msg["id"]), None)
                if fut is not None and not fut.done():
                    if "pid" in msg:
                        fut.set_result(int(msg["pid"]))
                    else:
                        fut.set_exception(OSError(str(msg.get("error", "the fork server failed"))))

    def _gone(self) -> None:
        """The fork server ended: no new forks; its children cannot be reaped by us, so each
        counts as ended when its process is gone (``Forked.wait`` by polling)."""
        if not self.alive:
            return
        self.alive = False
        log.error("the fork server ended: new sessions start their client afresh")
        with contextlib.suppress(OSError, ValueError):
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        for fut in self._asked.values():
            if not fut.done():
                fut.set_exception(OSError("the fork server ended"))
        if not self._ready.done():
            self._ready.set_exception(OSError("the fork server ended before it was ready"))
        for child in list(self.children.values()):
            asyncio.get_running_loop().create_task(_when_gone(child))
        self.children.clear()

    async def spawn(self, env: dict[str, str], tty: int) -> Forked:
        """A client process on the terminal ``tty`` (the caller closes its copy) with ``env``
        as its whole environment; OSError if the fork server cannot make one."""
        if not self.alive:
            raise OSError("the fork server is not running")
        self._ids += 1
        rid = self._ids
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._asked[rid] = fut
        try:
            socket.send_fds(self.sock, [json.dumps({"id": rid, "env": env}).encode()], [tty])
            pid = await asyncio.wait_for(fut, SPAWN_TIMEOUT)
        except (OSError, TimeoutError) as err:
            self._asked.pop(rid, None)
            raise OSError(f"the fork server did not start a client: {err}") from err
        child = Forked(pid)
        self.children[pid] = child
        return child

    def close(self) -> None:
        """Stop the fork server (its children are the sessions': they end with them)."""
        self.alive = False
        with contextlib.suppress(OSError, ValueError):
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        self.sock.close()
        with contextlib.suppress(OSError):
            self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def _when_gone(child: Forked) -> None:
    while True:
        try:
            os.kill(child.pid, 0)
        except ProcessLookupError:
            child.ended(-9)
            return
        except PermissionError:  # pragma: no cover - the pid was taken by someone else's process
            child.ended(-9)
            return
        await asyncio.sleep(0.5)
