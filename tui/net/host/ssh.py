"""``colosseum serve``: an SSH server (asyncssh) that gives each terminal connection its own
Textual client process on its own pseudo-terminal, all talking to one table server.

    ssh -p 2222 alice@host      ->  lobby, then the game

* Identity: the SSH public key (``key:SHA256:...``), or with ``--password`` the user name
  (``pw:NAME``) after the server password.  The user name is the display name.  Keys not in
  ``--authorized-keys`` are refused unless ``--open``.  The authorized keys file is read at
  each login, so players can be added while the server runs.
* A session without a PTY gets one line of explanation and is closed.
* Each PTY session: ``python -m colosseum.tui.net.client`` on a new pty (TERM, COLORTERM and
  the window size from the SSH request); bytes are copied both ways and window changes are set
  on the pty (TIOCSWINSZ: the kernel signals SIGWINCH to the client).  The client proves its
  identity to the table server with a token minted here.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import hmac
import logging
import os
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

import asyncssh

from .hub import TableServer

log = logging.getLogger("colosseum.net")

NO_PTY_MESSAGE = (
    b"Colosseum is played in a terminal: connect with an interactive ssh (ssh -t) so a "
    b"pseudo-terminal is allocated.\r\n"
)
MAX_SESSIONS_PER_CONNECTION = 2
MAX_SESSIONS_PER_IDENTITY = 4  # client processes per player at once
MAX_CLIENTS = 300  # client processes in all (about 45 MiB each)
MAX_NAME = 24


def default_data_dir() -> Path:
    try:
        import platformdirs

        return Path(platformdirs.user_data_dir("colosseum")) / "server"
    except (ImportError, OSError):  # pragma: no cover
        return Path.home() / ".colosseum" / "server"


def load_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key at ``path``, created (ed25519, mode 0600) if missing; (key, created)."""
    if path.exists():
        return asyncssh.read_private_key(str(path)), False
    path.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="colosseum host key")
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    os.replace(tmp, path)
    try:
        path.with_suffix(".pub").write_bytes(key.export_public_key())
    except OSError:  # pragma: no cover
        pass
    return key, True


def read_authorized_fingerprints(path: Path | None) -> set[str]:
    """SHA256 fingerprints of the keys in an OpenSSH authorized_keys file (options and
    comments allowed; unreadable lines are skipped)."""
    out: set[str] = set()
    if path is None:
        return out
    try:
        text = Path(path).read_text()
    except OSError as exc:
        log.warning("cannot read authorized keys %s: %s", path, exc)
        return out
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        for i in range(len(parts) - 1):
            try:
                key = asyncssh.import_public_key(f"{parts[i]} {parts[i + 1]}")
            except ValueError:  # KeyImportError, or bad base64/text inside the key
                continue
            out.add(key.get_fingerprint())
            break
    return out


def display_name(username: str) -> str:
    name = "".join(ch for ch in username if ch.isprintable() and ch not in "\\/\"'")[:MAX_NAME].strip()
    return name or "player"


class Hub:
    """What every SSH connection shares: the table server and the login policy."""

    def __init__(
        self,
        tables: TableServer,
        *,
        authorized_keys: Path | None,
        open_to_all: bool,
        password: str | None,
        client_cmd: list[str] | None = None,
    ) -> None:
        self.tables = tables
        self.authorized_keys = authorized_keys
        self.open = open_to_all
        self.password = password
        self.client_cmd = client_cmd or [sys.executable, "-m", "colosseum.tui.net.client"]
        self.clients: set[asyncio.subprocess.Process] = set()
        self.per_identity: dict[str, int] = {}
        self.refusals = 0

    def refused(self, what: str, *args: object) -> None:
        self.refusals += 1
        log.warning("refused: " + what, *args)


class _SSHServer(asyncssh.SSHServer):
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.identity = ""
        self.peer = "?"
        self.sessions = 0

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"

    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fp = key.get_fingerprint()
        if self.hub.open or fp in read_authorized_fingerprints(self.hub.authorized_keys):
            self.identity = f"key:{fp}"
            return True
        self.hub.refused("unknown key %s for user %r from %s", fp, username, self.peer)
        return False

    def password_auth_supported(self) -> bool:
        return self.hub.password is not None

    def validate_password(self, username: str, password: str) -> bool:
        if self.hub.password is not None and hmac.compare_digest(password.encode(), self.hub.password.encode()):
            self.identity = f"pw:{display_name(username)}"
            return True
        self.hub.refused("wrong password for user %r from %s", username, self.peer)
        return False


def _set_winsize(fd: int, cols: int, rows: int, xpix: int = 0, ypix: int = 0) -> None:
    cols = max(1, min(int(cols or 80), 1000))
    rows = max(1, min(int(rows or 24), 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, int(xpix or 0), int(ypix or 0)))


def _make_ctty() -> None:  # runs in the child, after setsid (start_new_session)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


async def handle_process(hub: Hub, process: asyncssh.SSHServerProcess[bytes]) -> None:
    conn = process.get_extra_info("connection")
    owner: _SSHServer = conn.get_owner()
    term = process.get_terminal_type()
    if term is not None:
        term = "".join(ch for ch in term if ch.isalnum() or ch in "._+-")[:64] or "xterm"
    if not term:
        hub.refused("session without a PTY from %s (%s)", owner.peer, owner.identity)
        process.stdout.write(NO_PTY_MESSAGE)
        process.exit(1)
        return
    mine = hub.per_identity.get(owner.identity, 0)
    if (
        owner.sessions >= MAX_SESSIONS_PER_CONNECTION
        or mine >= MAX_SESSIONS_PER_IDENTITY
        or len(hub.clients) >= MAX_CLIENTS
    ):
        hub.refused("too many sessions (%s)", owner.identity)
        process.stdout.write(b"Too many sessions; try again later.\r\n")
        process.exit(1)
        return
    owner.sessions += 1
    hub.per_identity[owner.identity] = mine + 1
    try:
        await _run_client(hub, process, owner, term)
    finally:
        owner.sessions -= 1
        left = hub.per_identity.get(owner.identity, 1) - 1
        if left > 0:
            hub.per_identity[owner.identity] = left
        else:
            hub.per_identity.pop(owner.identity, None)


async def _run_client(hub: Hub, process: asyncssh.SSHServerProcess[bytes], owner: _SSHServer, term: str) -> None:
    name = display_name(process.get_extra_info("username") or "player")
    cols, rows, xpix, ypix = process.get_terminal_size()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": term,
        "COLOSSEUM_NET_ADDRESS": hub.tables.address,
        "COLOSSEUM_NET_TOKEN": hub.tables.token_for(owner.identity, name),
        "PYTHONUNBUFFERED": "1",
    }
    for var in ("PYTHONPATH", "COLOSSEUM_NET_TRACE"):
        if var in os.environ:
            env[var] = os.environ[var]
    client_env = process.env or {}
    for var in ("COLORTERM", "NO_COLOR"):
        if var in client_env:
            env[var] = "".join(ch for ch in str(client_env[var]) if ch.isalnum() or ch in "._-")[:40]
    master, slave = os.openpty()
    _set_winsize(slave, cols, rows, xpix, ypix)
    try:
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

    async def from_ssh() -> None:
        while True:
            try:
                data = await process.stdin.read(65536)
            except asyncssh.TerminalSizeChanged as exc:
                try:
                    _set_winsize(master, exc.width, exc.height, exc.pixwidth, exc.pixheight)
                    os.killpg(proc.pid, signal.SIGWINCH)
                except (OSError, ProcessLookupError):
                    pass
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
            await _stop(proc)
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
        loop.remove_reader(master)
        loop.remove_writer(master)
        os.close(master)
        reader.cancel()
        pty_done.cancel()
        hub.clients.discard(proc)
        code = proc.returncode if proc.returncode is not None and proc.returncode >= 0 else 0
        log.info("client pid %d ended (%s)", proc.pid, proc.returncode)
        try:
            process.exit(code)
        except (OSError, asyncssh.Error):  # the connection is already gone
            pass


async def _stop(proc: asyncio.subprocess.Process) -> None:
    """SIGHUP (the terminal went away: the client leaves cleanly), then SIGKILL."""
    for sig, wait in ((signal.SIGHUP, 2.0), (signal.SIGTERM, 1.0), (signal.SIGKILL, 2.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            await asyncio.wait_for(proc.wait(), wait)
            return
        except TimeoutError:
            continue


class SSHGameServer:
    """The running server (for ``cmd_serve``, tests and the benchmark)."""

    def __init__(self, hub: Hub, acceptor: asyncssh.SSHAcceptor, host_key: asyncssh.SSHKey, port: int) -> None:
        self.hub = hub
        self.acceptor = acceptor
        self.host_key = host_key
        self.port = port

    @property
    def tables(self) -> TableServer:
        return self.hub.tables

    async def close(self) -> None:
        self.acceptor.close()
        for proc in list(self.hub.clients):
            await _stop(proc)
        await self.hub.tables.close()


async def start_server(
    *,
    listen: str = "127.0.0.1:2222",
    data: Path | str | None = None,
    host_key: Path | str | None = None,
    authorized_keys: Path | str | None = None,
    open_to_all: bool = False,
    password: str | None = None,
    bot_timeout: float = 120.0,
    bot_delay: float = 0.5,
    client_cmd: list[str] | None = None,
) -> SSHGameServer:
    data = Path(data) if data else default_data_dir()
    data.mkdir(parents=True, exist_ok=True)
    tables = TableServer(data, bot_timeout=bot_timeout, bot_delay=bot_delay)
    await tables.start()
    key, _created = load_host_key(Path(host_key) if host_key else data / "host_key")
    hub = Hub(
        tables,
        authorized_keys=Path(authorized_keys) if authorized_keys else None,
        open_to_all=open_to_all,
        password=password,
        client_cmd=client_cmd,
    )
    host, _, port = listen.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"

    async def process_factory(process: asyncssh.SSHServerProcess[bytes]) -> None:
        await handle_process(hub, process)

    acceptor = await asyncssh.create_server(
        lambda: _SSHServer(hub),
        host,
        int(port),
        server_host_keys=[key],
        process_factory=process_factory,
        encoding=None,
        line_editor=False,
        rdns_lookup=False,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        keepalive_interval=30,
        keepalive_count_max=4,
        login_timeout=30,
    )
    real_port = acceptor.sockets[0].getsockname()[1] if int(port) == 0 else int(port)
    return SSHGameServer(hub, acceptor, key, real_port)


def cmd_serve(args: argparse.Namespace) -> int:
    """``colosseum serve``."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    data = Path(args.data) if args.data else default_data_dir()
    data.mkdir(parents=True, exist_ok=True)
    from logging.handlers import RotatingFileHandler

    fh = RotatingFileHandler(data / "server.log", maxBytes=10 << 20, backupCount=3)
    fh.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(fh)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    if not args.open and not args.authorized_keys and args.password is None:
        print("colosseum serve: nobody could log in: give --authorized-keys, --password or --open", file=sys.stderr)
        return 2
    host_key = Path(args.host_key) if args.host_key else data / "host_key"
    existed = host_key.exists()
    bot_delay = float(os.environ.get("COLOSSEUM_BOT_DELAY", getattr(args, "bot_delay", 0.5) or 0.5))

    async def main() -> int:
        try:
            srv = await start_server(
                listen=args.listen,
                data=data,
                host_key=host_key,
                authorized_keys=args.authorized_keys,
                open_to_all=args.open,
                password=args.password,
                bot_timeout=args.bot_timeout,
                bot_delay=bot_delay,
            )
        except OSError as exc:
            print(f"colosseum serve: cannot listen on {args.listen}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(("created host key " if not existed else "host key ") + f"{host_key}", flush=True)
        print(f"host key fingerprint: {srv.host_key.get_fingerprint()}", flush=True)
        host = args.listen.rpartition(":")[0] or "127.0.0.1"
        print(f"listening on {host}:{srv.port}  (ssh -p {srv.port} NAME@{host}); data in {data}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        print("stopping", flush=True)
        await srv.close()
        return 0

    return asyncio.run(main())
