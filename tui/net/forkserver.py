"""The client processes' fork server: ``python -m colosseum.tui.net.forkserver FD``.

Every SSH session runs a client process (``client``).  Started afresh, each imports Textual,
Rich and the games for itself: about 33 MiB of its own memory (issue 24's load figures; the
target is 30).  Forked from this process, which imported them once and set them aside from the
collector (``gc.freeze``), the sessions share those pages until they write to them: about 8 MiB
less each with a handful of sessions, more with many.

The SSH server (``host.forks``) starts this process with a clean environment and one end of a
socket pair (``FD``).  Each request is a JSON object ``{"id": n, "env": {...}}`` with the
session's pseudo-terminal passed along (SCM_RIGHTS); the answer is ``{"id": n, "pid": p}`` (or
``{"id": n, "error": why}``).  The child makes the terminal its controlling terminal in a new
session, takes it as its standard input, output and error, takes the session's environment as
its whole environment, and runs ``client.main``.  When a child ends this process reaps it and
says ``{"exit": p, "code": c}`` (negative: killed by that signal).  When the server goes away,
so does this process (its children end with their terminals).

Nothing here names a game: the games preloaded are the ones the registry knows.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import importlib
import json
import os
import pkgutil
import select
import signal
import socket
import sys
import termios
import traceback
from typing import Any

#: the shell's and Textual's modules a client at a table needs (besides each game's client part)
SHARED_MODULES = (
    "colosseum.tui.screens.game",
    "colosseum.tui.screens.ending",
    "colosseum.tui.scoresheet",
    "colosseum.tui.settings",
    "colosseum.tui.keymap_ids",
    "colosseum.tui.driver",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.scrollbar",
)


def preload() -> None:
    """Import what every client needs, and each game's rules and client part."""
    from colosseum.core.registry import game_names, spec

    from . import client, lobby  # noqa: F401

    importlib.import_module("colosseum.tui.app")
    # what a client at a table draws with: imported here once, shared by every session, rather
    # than by each session as it sits down or as its game first needs a panel or the end screen
    for module in SHARED_MODULES:
        importlib.import_module(module)
    for name in game_names():
        found = spec(name)
        for path in (found.rules_path, found.client_path):
            if path:
                with contextlib.suppress(Exception):  # a game that cannot load: its sessions import it
                    importlib.import_module(path.partition(":")[0])
        if found.client_path:  # every part of the game's client (its panels, dialogs, end screen)
            _import_package(found.client_path.partition(":")[0].rpartition(".")[0])
    from rich.cells import cell_len

    cell_len("字")  # Rich reads its table of character widths at the first wide character


def _import_package(name: str) -> None:
    """Every module of the package ``name``, as far as each loads."""
    with contextlib.suppress(Exception):
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            with contextlib.suppress(Exception):
                importlib.import_module(info.name)


def _send(sock: socket.socket, msg: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        sock.send(json.dumps(msg).encode())


def _child(sock: socket.socket, wake: tuple[int, int], fd: int, env: dict[str, str]) -> int:
    """In the forked child: the terminal, the environment, then the client."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as a process started afresh
    for w in wake:
        os.close(w)
    sock.close()
    os.setsid()
    fcntl.ioctl(fd, termios.TIOCSCTTY, 0)
    for k in (0, 1, 2):
        os.dup2(fd, k)
    if fd > 2:
        os.close(fd)
    os.environ.clear()
    os.environ.update(env)
    sys.argv = ["colosseum-net-client"]
    from .client import main

    return main([])


def _fork(sock: socket.socket, wake: tuple[int, int], data: bytes, fds: list[int]) -> None:
    try:
        req = json.loads(data)
        rid, env = int(req["id"]), {str(k): str(v) for k, v in req["env"].items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        for fd in fds:
            os.close(fd)
        return
    if len(fds) != 1:
        for fd in fds:
            os.close(fd)
        _send(sock, {"id": rid, "error": "no terminal"})
        return
    try:
        pid = os.fork()
    except OSError as err:
        os.close(fds[0])
        _send(sock, {"id": rid, "error": str(err)})
        return
    if pid == 0:
        code = 1
        try:
            code = _child(sock, wake, fds[0], env)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        except BaseException:  # noqa: BLE001 - the child must end here, never return to the loop
            with contextlib.suppress(BaseException):
                traceback.print_exc()
        finally:
            with contextlib.suppress(BaseException):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)
    os.close(fds[0])
    _send(sock, {"id": rid, "pid": pid})


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send(sock, {"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def serve(sock: socket.socket) -> None:
    wake = os.pipe()
    os.set_blocking(wake[1], False)
    signal.set_wakeup_fd(wake[1])
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's Ctrl+C is the server's to handle
    while True:
        try:
            ready, _, _ = select.select([sock.fileno(), wake[0]], [], [])
        except InterruptedError:  # pragma: no cover - retried by Python itself
            continue
        if wake[0] in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake[0], 512)
        _reap(sock)
        if sock.fileno() in ready:
            try:
                data, fds, _flags, _addr = socket.recv_fds(sock, 1 << 20, 4)
            except OSError:
                return
            if not data:
                return  # the server is gone
            _fork(sock, wake, data, fds)


def main() -> None:
    sock = socket.socket(fileno=int(sys.argv[1]))
    preload()
    gc.collect()
    gc.freeze()  # what every child shares: kept out of the collector's walks (no page copied)
    _send(sock, {"ready": os.getpid()})
    serve(sock)


if __name__ == "__main__":  # pragma: no cover
    main()
