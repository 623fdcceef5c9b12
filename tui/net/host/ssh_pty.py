"""A terminal session's client process: ``python -m colosseum.tui.net.client`` on a new pty for
each SSH session with a PTY, its bytes copied both ways, window changes set on the pty (coalesced:
a resize flood costs one change per ``RESIZE_GAP``), and a terminal reset and one line when the
client dies without restoring the terminal."""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import signal
import struct
import subprocess
import termios

import asyncssh

from .forks import ClientProcess
from .ssh_login import Hub, LoginServer, display_name

log = logging.getLogger("colosseum.net")

NO_PTY_MESSAGE = (
    b"Colosseum is played in a terminal: connect with an interactive ssh (ssh -t) so a "
    b"pseudo-terminal is allocated.\r\n"
)
MAX_SESSIONS_PER_CONNECTION = 2
MAX_SESSIONS_PER_IDENTITY = 4  # client processes per player at once
MAX_COLS, MAX_ROWS = 500, 200  # the largest window a client draws
RESIZE_GAP = 0.1  # window changes closer than this are applied together (a resize flood)

# What a client leaves on when it dies without a clean exit: mouse tracking, focus events,
# bracketed paste, the kitty keyboard mode, a hidden cursor, no line wrap, the alternate screen.
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l\x1b[<u"
    b"\x1b[0m\x1b[?25h\x1b[?7h\x1b[?1049l\r\n"
)
CRASH_MESSAGE = b"Colosseum: the game client stopped (noted on the server). Connect again.\r\n"
STOPPING_MESSAGE = b"Colosseum: the server is stopping. Your seat is kept; connect again later.\r\n"


def set_winsize(fd: int, cols: int, rows: int, xpix: int = 0, ypix: int = 0) -> None:
    # a huge window costs every redraw of its client: as big as a large monitor, no more
    cols = max(1, min(int(cols or 80), MAX_COLS))
    rows = max(1, min(int(rows or 24), MAX_ROWS))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, int(xpix or 0), int(ypix or 0)))


def _make_ctty() -> None:  # runs in the child, after setsid (start_new_session)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


async def handle_process(hub: Hub, process: asyncssh.SSHServerProcess[bytes]) -> None:
    conn = process.get_extra_info("connection")
    owner: LoginServer = conn.get_owner()
    term = process.get_terminal_type()
    if term is not None:
        term = "".join(ch for ch in term if ch.isalnum() or ch in "._+-")[:64] or "xterm"
    if not term:
        hub.refused("session without a PTY from %s (%s)", owner.peer, owner.identity)
        process.stdout.write(NO_PTY_MESSAGE)
        process.exit(1)
        return
    mine = hub.per_identity.get(owner.identity, 0)
    why = hub.full(owner.address)
    if not why and (owner.sessions >= MAX_SESSIONS_PER_CONNECTION or mine >= MAX_SESSIONS_PER_IDENTITY):
        why = "Too many sessions of yours at once; close one first."
    if why:
        hub.refused("session for %s from %s: %s", owner.identity[:30], owner.peer, why)
        process.stdout.write(f"Colosseum: {why}\r\n".encode())
        process.exit(1)
        return
    owner.sessions += 1
    hub.per_identity[owner.identity] = mine + 1
    hub.per_address[owner.address] = hub.per_address.get(owner.address, 0) + 1
    try:
        await _run_client(hub, process, owner, term)
    finally:
        owner.sessions -= 1
        for book, key in ((hub.per_identity, owner.identity), (hub.per_address, owner.address)):
            left = book.get(key, 1) - 1
            if left > 0:
                book[key] = left
            else:
                book.pop(key, None)


async def _run_client(hub: Hub, process: asyncssh.SSHServerProcess[bytes], owner: LoginServer, term: str) -> None:
    name = owner.name or display_name(process.get_extra_info("username") or "player")
    cols, rows, xpix, ypix = process.get_terminal_size()
    env = hub.client_env(owner.identity, name, owner.address)
    env["TERM"] = term
    client_env = process.env or {}
    for var in ("COLORTERM", "NO_COLOR"):
        if var in client_env:
            env[var] = "".join(ch for ch in str(client_env[var]) if ch.isalnum() or ch in "._-")[:40]
    word, _, invitation = (process.command or "").strip().partition(" ")
    if word == "join" and invitation.strip():  # ``ssh -t ... join CODE``: straight to a private table
        env["COLOSSEUM_NET_JOIN"] = "".join(ch for ch in invitation if ch.isalnum())[:20]
    master, slave = os.openpty()
    set_winsize(slave, cols, rows, xpix, ypix)
    proc: ClientProcess | None = None
    if hub.forks is not None and hub.forks.alive:  # forked: the sessions share their imports
        try:
            proc = await hub.forks.spawn(env, slave)
        except OSError as err:
            log.warning("client not forked (%s): started afresh", err)
    try:
        if proc is None:
            proc = await asyncio.create_subprocess_exec(
                *hub.client_cmd,
                stdin=slave,
                stdout=slave,
                stderr=slave,  # Textual draws on stderr
                env=env,
                start_new_session=True,
                preexec_fn=_make_ctty,
                close_fds=True,
            )
    except (OSError, ValueError, subprocess.SubprocessError):  # no exec, bad env, preexec_fn failed
        log.exception("could not start a client")
        os.close(master)
        os.close(slave)
        process.exit(1)
        return
    os.close(slave)
    hub.clients.add(proc)
    log.info(
        "client pid %d for %s (%s) from %s, %s %dx%d", proc.pid, name, owner.identity[:30], owner.peer, term, cols, rows
    )
    loop = asyncio.get_running_loop()
    os.set_blocking(master, False)
    done = asyncio.Event()
    pending = bytearray()

    def from_pty() -> None:
        try:
            data = os.read(master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(master)
            done.set()
            return
        try:
            process.stdout.write(data)
        except (OSError, asyncssh.Error):  # the SSH channel is closed or the connection lost
            done.set()

    def flush_pending() -> None:
        try:
            n = os.write(master, pending)
            del pending[:n]
        except BlockingIOError:
            return
        except OSError:
            pending.clear()
        if not pending:
            loop.remove_writer(master)

    def to_pty(data: bytes) -> None:
        if pending:
            pending.extend(data)
            return
        try:
            n = os.write(master, data)
        except BlockingIOError:
            n = 0
        except OSError:
            return
        if n < len(data):
            pending.extend(data[n:])
            loop.add_writer(master, flush_pending)

    loop.add_reader(master, from_pty)
    size = [cols, rows, xpix, ypix]
    resize: list[asyncio.TimerHandle | None] = [None]
    resize_at = [0.0]

    def apply_size() -> None:
        """The latest window size, to the pty (the kernel tells the client: SIGWINCH)."""
        resize[0] = None
        resize_at[0] = loop.time()
        try:
            set_winsize(master, *size)
            os.killpg(proc.pid, signal.SIGWINCH)
        except (OSError, ProcessLookupError):
            pass

    async def from_ssh() -> None:
        while True:
            try:
                data = await process.stdin.read(65536)
            except asyncssh.TerminalSizeChanged as exc:
                size[:] = [exc.width, exc.height, exc.pixwidth, exc.pixheight]
                if resize[0] is None:
                    wait = max(0.0, resize_at[0] + RESIZE_GAP - loop.time())
                    resize[0] = loop.call_later(wait, apply_size)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (OSError, asyncssh.Error):  # the SSH channel is closed or the connection lost
                return
            if not data:
                return
            if len(pending) > (1 << 20):
                continue  # the client does not read: drop typing rather than grow
            to_pty(data)

    reader = loop.create_task(from_ssh())
    waiter = loop.create_task(proc.wait())
    pty_done = loop.create_task(done.wait())
    try:
        await asyncio.wait({reader, waiter, pty_done}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if proc.returncode is None:
            await stop_client(proc)
        # let the last frame out
        for _ in range(20):
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            try:
                process.stdout.write(data)
            except (OSError, asyncssh.Error):
                break
        if resize[0] is not None:
            resize[0].cancel()
        loop.remove_reader(master)
        loop.remove_writer(master)
        os.close(master)
        reader.cancel()
        pty_done.cancel()
        hub.clients.discard(proc)
        rc = proc.returncode
        code = rc if rc is not None and rc >= 0 else 0
        log.info("client pid %d ended (%s)", proc.pid, rc)
        note = b""
        if hub.stopping:
            note = (TERMINAL_RESET if rc != 0 else b"\r\n") + STOPPING_MESSAGE
        elif rc is None or rc != 0:
            # killed or crashed: it may have left the terminal in its alternate screen with
            # mouse tracking on and no cursor; the channel is still ours
            note = TERMINAL_RESET + CRASH_MESSAGE
            code = 1
            if rc is not None and rc < 0 and rc != -signal.SIGHUP:
                log.warning("client pid %d of %s was killed by signal %d", proc.pid, name, -rc)
        try:
            if note:
                process.stdout.write(note)
            process.exit(code)
        except (OSError, asyncssh.Error):  # the connection is already gone
            pass


async def stop_client(proc: ClientProcess) -> None:
    """SIGHUP (the terminal went away: the client leaves cleanly), then SIGKILL."""
    for sig, wait in ((signal.SIGHUP, 2.0), (signal.SIGTERM, 1.0), (signal.SIGKILL, 2.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass  # the client has exited already: it is reaped below
        try:
            await asyncio.wait_for(proc.wait(), wait)
            return
        except TimeoutError:
            continue
