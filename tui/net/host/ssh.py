"""``colosseum serve``: an SSH server (asyncssh) that gives each terminal connection its own
Textual client process on its own pseudo-terminal, all talking to one table server.

    ssh -p 2222 alice@host      ->  lobby, then the game

* Identity: the SSH public key (``key:SHA256:...``), or with a server password the player
  name (``pw:NAME``).  Keys not in ``--authorized-keys`` are refused unless ``--open``.  The
  authorized keys file is read at each login, so players can be added while the server runs.
* Names are normalised (NFKC, no invisible characters; ``names.clean_name``) and unique: the
  first login of a name binds it to the key that used it (trust on first use; with a password
  login, the key the client offered first).  Later logins of that name need that key.
* Password guessing: ``MAX_AUTH_TRIES`` per connection, then the connection is closed; tries
  for one source address or one name wait their turn, with delays that grow with the recent
  failures of either (``AuthGuard``).  Every refusal is logged.
* Resources: SSH connections and sessions per source address, client processes in all, and a
  memory budget for them (the sum of the clients' resident sizes); a refused session gets one
  line saying why.  Spectators and lobby users count: every session is a client process.
* A session without a PTY gets one line of explanation and is closed.
* Each PTY session: ``python -m colosseum.tui.net.client`` on a new pty (TERM, COLORTERM and
  the window size from the SSH request); bytes are copied both ways and window changes are set
  on the pty (TIOCSWINSZ: the kernel signals SIGWINCH to the client).  The client proves its
  identity to the table server with a token minted here.  Its home and data folders are in
  the server's data folder (``DATA/home``), its error log is ``DATA/clients.log``.
* A client that dies without restoring the terminal (killed, crashed): the server still holds
  the channel and sends a terminal reset and one line.  On SIGTERM every session is told the
  server is stopping.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import hmac
import json
import logging
import os
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh

from .hub import TableServer
from .names import clean_name, name_key, name_problem
from .options import MAX_CLIENTS, MAX_SESSIONS_PER_ADDRESS, PASSWORD_ENV, SESSION_MB, add_serve_arguments
from .store import private_dir, write_private

if TYPE_CHECKING:
    from .web import WebGateway

__all__ = ["add_serve_arguments", "cmd_serve", "start_server"]

log = logging.getLogger("colosseum.net")

NO_PTY_MESSAGE = (
    b"Colosseum is played in a terminal: connect with an interactive ssh (ssh -t) so a "
    b"pseudo-terminal is allocated.\r\n"
)
MAX_SESSIONS_PER_CONNECTION = 2
MAX_SESSIONS_PER_IDENTITY = 4  # client processes per player at once
MAX_CONNECTIONS_PER_ADDRESS = 10  # SSH connections from one source address, logged in or not
MAX_NAME = 24  # terminal cells
MAX_AUTH_TRIES = 3  # passwords per connection
MAX_AUTH_WAIT = 20.0  # a try that would wait longer for its turn is refused at once
MAX_NAMES = 50_000  # names bound to keys (names.jsonl)
MAX_COLS, MAX_ROWS = 500, 200  # the largest window a client draws
RESIZE_GAP = 0.1  # window changes closer than this are applied together (a resize flood)
LOG_BURST, LOG_WINDOW = 100, 10.0  # refusals logged one by one, per window of seconds

# What a client leaves on when it dies without a clean exit: mouse tracking, focus events,
# bracketed paste, the kitty keyboard mode, a hidden cursor, no line wrap, the alternate screen.
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l\x1b[<u"
    b"\x1b[0m\x1b[?25h\x1b[?7h\x1b[?1049l\r\n"
)
CRASH_MESSAGE = b"Colosseum: the game client stopped (noted on the server). Connect again.\r\n"
STOPPING_MESSAGE = b"Colosseum: the server is stopping. Your seat is kept; connect again later.\r\n"


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
    write_private(path, key.export_private_key())
    try:
        write_private(path.with_suffix(".pub"), key.export_public_key())
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
    return clean_name(username, MAX_NAME) or "player"


def read_password(args: argparse.Namespace) -> str | None:
    """The server password: ``--password-file``, else ``COLOSSEUM_SERVER_PASSWORD``, else
    ``--password`` (which ``ps`` shows to every user of the machine: warned)."""
    if getattr(args, "password_file", None):
        text = Path(args.password_file).read_text().splitlines()
        pw = text[0].strip() if text else ""
        if not pw:
            raise ValueError(f"{args.password_file} holds no password")
        return pw
    if os.environ.get(PASSWORD_ENV):
        return os.environ[PASSWORD_ENV]
    if getattr(args, "password", None) is not None:
        print(
            "colosseum serve: warning: --password shows the password to every user of this machine (ps); "
            f"use --password-file FILE or {PASSWORD_ENV}",
            file=sys.stderr,
        )
        return str(args.password)
    return None


def memory_available_mb() -> int:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        pass
    return 4096


def rss_mb(pid: int) -> float:
    """Resident size of a process (shared pages counted in full: an upper bound)."""
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


class AuthGuard:
    """Password tries, per source address and per name: each try waits its turn, spaced by a
    delay that doubles with the recent failures of the address or the name (whichever has
    more), up to ``max_delay``.  Failures are forgotten after ``window`` seconds."""

    def __init__(self, *, base: float = 0.5, max_delay: float = 10.0, window: float = 900.0) -> None:
        self.base = base
        self.max_delay = max_delay
        self.window = window
        self.fails: dict[str, tuple[int, float]] = {}
        self.next_ok: dict[str, float] = {}

    def failures(self, key: str, now: float) -> int:
        n, last = self.fails.get(key, (0, 0.0))
        return n if now - last < self.window else 0

    def delay(self, addr: str, user: str, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        f = max(self.failures("a:" + addr, now), self.failures("u:" + user, now))
        return 0.0 if f <= 0 else min(self.base * 2 ** (f - 1), self.max_delay)

    def reserve(self, addr: str, user: str) -> float:
        """Seconds this try must wait for its turn (its turn is booked)."""
        now = time.monotonic()
        self._prune(now)
        ka, ku = "a:" + addr, "u:" + user
        slot = max(now, self.next_ok.get(ka, 0.0), self.next_ok.get(ku, 0.0))
        if slot - now > MAX_AUTH_WAIT:
            return slot - now
        self.next_ok[ka] = self.next_ok[ku] = slot + self.delay(addr, user, now)
        return slot - now

    def failed(self, addr: str, user: str) -> None:
        now = time.monotonic()
        for key in ("a:" + addr, "u:" + user):
            self.fails[key] = (self.failures(key, now) + 1, now)

    def succeeded(self, user: str) -> None:
        self.fails.pop("u:" + user, None)

    def _prune(self, now: float) -> None:
        if len(self.fails) + len(self.next_ok) < 20_000:
            return
        self.fails = {k: v for k, v in self.fails.items() if now - v[1] < self.window}
        self.next_ok = {k: v for k, v in self.next_ok.items() if v > now}


class NameBook:
    """Player names and the key each is bound to: the first login of a name binds it (trust
    on first use).  ``DATA/names.jsonl`` (0600), one line appended per binding, so that a
    binding costs the same however many names there are."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.names: dict[str, dict[str, str]] = {}
        self._cut = False  # the file ends inside a line (a crash): start the next one afresh
        try:
            with open(path, "rb") as f:
                for line in f:
                    self._cut = not line.endswith(b"\n")
                    try:
                        entry = json.loads(line)
                        # keyed anew (the key now folds look-alikes too: an older file's ids differ)
                        key = name_key(str(entry["name"]))
                        self.names.setdefault(key, {"name": str(entry["name"]), "key": str(entry["key"])})
                    except (ValueError, KeyError, TypeError):  # a line cut by a crash
                        continue
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.warning("cannot read %s (%s): names start unbound", path, exc)

    def key_of(self, name: str) -> str:
        return self.names.get(name_key(name), {}).get("key", "")

    def shown(self, name: str) -> str:
        return self.names.get(name_key(name), {}).get("name", "") or name

    def bind(self, name: str, fingerprint: str) -> bool:
        k = name_key(name)
        entry = self.names.get(k)
        if entry is not None and entry.get("key"):
            return entry["key"] == fingerprint
        if len(self.names) >= MAX_NAMES:
            return False
        self.names[k] = {"name": name, "key": fingerprint}
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "ab") as f:
            line = json.dumps({"id": k, "name": name, "key": fingerprint}, ensure_ascii=False).encode() + b"\n"
            f.write(b"\n" + line if self._cut else line)
        self._cut = False
        log.info("name %r bound to key %s", name, fingerprint)
        return True


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
        max_clients: int = MAX_CLIENTS,
        memory_budget_mb: float | None = None,
        per_address: int = MAX_SESSIONS_PER_ADDRESS,
        guard: AuthGuard | None = None,
    ) -> None:
        self.tables = tables
        self.data = tables.data
        self.authorized_keys = authorized_keys
        self.open = open_to_all
        self.password = password
        self.client_cmd = client_cmd or [sys.executable, "-m", "colosseum.tui.net.client"]
        self.clients: set[asyncio.subprocess.Process] = set()
        self.per_identity: dict[str, int] = {}
        self.per_address: dict[str, int] = {}
        self.connections: dict[str, int] = {}
        self.max_clients = max_clients
        self.max_per_address = per_address
        self.memory_budget_mb = memory_budget_mb if memory_budget_mb is not None else memory_available_mb() / 2
        self.guard = guard or AuthGuard()
        self.names = NameBook(self.data / "names.jsonl")
        self.home = self.data / "home"
        private_dir(self.home)
        self.stopping = False
        self.refusals = 0
        self._log_window = 0.0
        self._logged = self._unlogged = 0
        self.password_checks = 0  # passwords compared with the server's
        self.password_turned_away = 0  # tries refused without a comparison (too many failures)

    def stats(self) -> str:
        """Counters for the operator (``kill -USR1``): what the server let through."""
        return (
            f"password checks {self.password_checks}, turned away unchecked {self.password_turned_away}, "
            f"refusals {self.refusals}, sessions {len(self.clients)}, connections {sum(self.connections.values())}, "
            f"client memory {self.memory_used_mb():.0f} MB of {self.memory_budget_mb:.0f}"
        )

    def refused(self, what: str, *args: object) -> None:
        """Log a refusal; a flood is logged as a count (at most ``LOG_BURST`` lines in
        ``LOG_WINDOW`` seconds), so that it cannot fill the disk or drown the rest."""
        self.refusals += 1
        now = time.monotonic()
        if now - self._log_window >= LOG_WINDOW:
            if self._unlogged:
                log.warning("refused: %d more not logged in the last %.0f s", self._unlogged, now - self._log_window)
            self._log_window, self._logged, self._unlogged = now, 0, 0
        if self._logged >= LOG_BURST:
            self._unlogged += 1
            return
        self._logged += 1
        log.warning("refused: " + what, *args)

    def memory_used_mb(self) -> float:
        return sum(rss_mb(p.pid) for p in self.clients)

    def full(self, address: str) -> str:
        """Why one more session may not start ('' if it may)."""
        if self.stopping:
            return "The server is stopping."
        if self.per_address.get(address, 0) >= self.max_per_address:
            return f"Too many sessions from your address ({self.max_per_address}); close one first."
        if len(self.clients) >= self.max_clients:
            return f"The server is full ({len(self.clients)} sessions); try again later."
        if self.memory_used_mb() + SESSION_MB > self.memory_budget_mb:
            return f"The server is full ({len(self.clients)} sessions, its memory budget is used); try again later."
        return ""


class _SSHServer(asyncssh.SSHServer):
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.identity = ""
        self.name = ""
        self.peer = "?"
        self.address = "?"
        self.sessions = 0
        self.pw_tries = 0
        self.offered: list[str] = []  # keys the client offered (for a password login to bind)
        self.bind: tuple[str, str] | None = None  # (name, key) to bind once logged in
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        self.address = str(peer[0]) if peer else "?"
        n = self.hub.connections.get(self.address, 0) + 1
        self.hub.connections[self.address] = n
        if n > MAX_CONNECTIONS_PER_ADDRESS:
            self.hub.refused("too many connections from %s (%d)", self.address, n)
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections from your address"
            )

    def connection_lost(self, exc: Exception | None) -> None:
        left = self.hub.connections.get(self.address, 1) - 1
        if left > 0:
            self.hub.connections[self.address] = left
        else:
            self.hub.connections.pop(self.address, None)

    def begin_auth(self, username: str) -> bool:
        return True

    def auth_completed(self) -> None:
        if self.bind is not None:
            name, key = self.bind
            if not self.hub.names.bind(name, key):
                log.info("name %r not bound (taken or the book is full)", name)

    def _banner(self, text: str) -> None:
        if self.conn is not None:
            try:
                self.conn.send_auth_banner(text + "\r\n")
            except (OSError, asyncssh.Error):  # pragma: no cover - the connection is gone
                pass

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fp = key.get_fingerprint()
        name = display_name(username)
        problem = name_problem(name)
        if problem and not self.hub.names.key_of(name):
            self.hub.refused("name %r refused (%s) from %s", name, problem, self.peer)
            self._banner(f"Choose another name: {problem}.")
            return False
        bound = self.hub.names.key_of(name)
        if self.hub.open or fp in read_authorized_fingerprints(self.hub.authorized_keys):
            if bound and bound != fp:
                self.hub.refused("name %r is bound to another key (%s from %s)", name, fp, self.peer)
                self._banner(f"The name {name} is taken by another player: connect with another name.")
                return False
            self.identity, self.name = f"key:{fp}", self.hub.names.shown(name)
            self.bind = (name, fp)
            return True
        if self.hub.password is not None:
            if bound == fp:  # this name's own key: no password needed
                self.identity, self.name = f"pw:{name_key(name)}", self.hub.names.shown(name)
                self.bind = None
                return True
            if fp not in self.offered and len(self.offered) < 8:
                self.offered.append(fp)
                self.hub.refused("unknown key %s for user %r from %s (a password may follow)", fp, username, self.peer)
            return False
        self.hub.refused("unknown key %s for user %r from %s", fp, username, self.peer)
        return False

    def password_auth_supported(self) -> bool:
        return self.hub.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        name = display_name(username)
        key = name_key(name)
        problem = name_problem(name)
        if problem:
            self.hub.refused("name %r refused (%s) from %s", name, problem, self.peer)
            self._banner(f"Choose another name: {problem}.")
            return False
        self.pw_tries += 1
        if self.pw_tries > MAX_AUTH_TRIES:
            self._close_after_tries()
            return False
        wait = self.hub.guard.reserve(self.address, key)
        if wait > MAX_AUTH_WAIT:
            self.hub.password_turned_away += 1
            self.hub.refused("password for %r from %s: too many recent failures", name, self.peer)
            self._close_after_tries()
            return False
        if wait > 0:
            await asyncio.sleep(wait)
        self.hub.password_checks += 1
        good = self.hub.password is not None and hmac.compare_digest(password.encode(), self.hub.password.encode())
        if not good:
            self.hub.guard.failed(self.address, key)
            self.hub.refused("wrong password for user %r from %s (try %d)", username, self.peer, self.pw_tries)
            if self.pw_tries >= MAX_AUTH_TRIES:
                self._close_after_tries()
            return False
        bound = self.hub.names.key_of(name)
        if bound:
            self.hub.refused("password login as %r from %s: the name is bound to a key", name, self.peer)
            self._banner(
                f"The name {self.hub.names.shown(name)} belongs to the key that first used it: "
                "connect with that key, or choose another name."
            )
            return False
        self.hub.guard.succeeded(key)
        self.identity, self.name = f"pw:{key}", name
        self.bind = (name, self.offered[0]) if self.offered else None
        if not self.offered:
            log.info("password login as %r from %s without a key: the name stays unbound", name, self.peer)
        return True

    def _close_after_tries(self) -> None:
        conn = self.conn
        if conn is None:
            return
        asyncio.get_running_loop().call_soon(
            conn.disconnect, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "too many password tries"
        )


def _set_winsize(fd: int, cols: int, rows: int, xpix: int = 0, ypix: int = 0) -> None:
    # a huge window costs every redraw of its client: as big as a large monitor, no more
    cols = max(1, min(int(cols or 80), MAX_COLS))
    rows = max(1, min(int(rows or 24), MAX_ROWS))
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


async def _run_client(hub: Hub, process: asyncssh.SSHServerProcess[bytes], owner: _SSHServer, term: str) -> None:
    name = owner.name or display_name(process.get_extra_info("username") or "player")
    cols, rows, xpix, ypix = process.get_terminal_size()
    # nothing a remote user does writes outside the data folder: the client's home, data and
    # config folders are there, and it offers no local games nor screenshots
    home = hub.home
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
        "COLOSSEUM_DATA_DIR": str(home / "data"),
        "COLOSSEUM_NET_LOG": str(hub.data / "clients.log"),
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
    size = [cols, rows, xpix, ypix]
    resize: list[asyncio.TimerHandle | None] = [None]
    resize_at = [0.0]

    def apply_size() -> None:
        """The latest window size, to the pty (the kernel tells the client: SIGWINCH)."""
        resize[0] = None
        resize_at[0] = loop.time()
        try:
            _set_winsize(master, *size)
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


async def _stop(proc: asyncio.subprocess.Process) -> None:
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


class SSHGameServer:
    """The running server (for ``cmd_serve``, tests and the benchmark)."""

    web: WebGateway | None = None

    def __init__(self, hub: Hub, acceptor: asyncssh.SSHAcceptor, host_key: asyncssh.SSHKey, port: int) -> None:
        self.hub = hub
        self.acceptor = acceptor
        self.host_key = host_key
        self.port = port

    @property
    def tables(self) -> TableServer:
        return self.hub.tables

    async def close(self) -> None:
        """Stop listening, tell every session the server is stopping (their clients end and
        the terminals are reset), then close the tables."""
        self.hub.stopping = True
        self.acceptor.close()
        if self.web is not None:
            await self.web.close()
        await asyncio.gather(*(_stop(proc) for proc in list(self.hub.clients)))
        await asyncio.sleep(0.1)  # let the sessions write their last line
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
    turn_timeout: float = 90.0,
    client_cmd: list[str] | None = None,
    max_clients: int = MAX_CLIENTS,
    memory_budget_mb: float | None = None,
    per_address: int = MAX_SESSIONS_PER_ADDRESS,
    guard: AuthGuard | None = None,
    fixed_seeds: bool = False,
    web: str | None = None,
    web_url: str | None = None,
) -> SSHGameServer:
    data = Path(data) if data else default_data_dir()
    private_dir(data)
    tables = TableServer(
        data, bot_timeout=bot_timeout, bot_delay=bot_delay, turn_timeout=turn_timeout, fixed_seeds=fixed_seeds
    )
    await tables.start()
    key, _created = load_host_key(Path(host_key) if host_key else data / "host_key")
    hub = Hub(
        tables,
        authorized_keys=Path(authorized_keys) if authorized_keys else None,
        open_to_all=open_to_all,
        password=password,
        client_cmd=client_cmd,
        max_clients=max_clients,
        memory_budget_mb=memory_budget_mb,
        per_address=per_address,
        guard=guard,
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
    server = SSHGameServer(hub, acceptor, key, real_port)
    if web:
        from colosseum.tui.net.host.web import WebGateway

        server.web = WebGateway(
            hub, listen=web, public_url=web_url, guests=open_to_all, per_player=MAX_SESSIONS_PER_IDENTITY
        )
        try:
            await server.web.start()
        except OSError:
            acceptor.close()
            await tables.close()
            raise
    return server


def cmd_serve(args: argparse.Namespace) -> int:
    """``colosseum serve``."""
    os.umask(0o077)  # everything the server and its clients create is the owner's only
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    data = Path(args.data) if args.data else default_data_dir()
    private_dir(data)
    from logging.handlers import RotatingFileHandler

    if (data / "server.log").exists():
        os.chmod(data / "server.log", 0o600)  # written by an older version: world-readable

    fh = RotatingFileHandler(data / "server.log", maxBytes=10 << 20, backupCount=3)
    fh.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(fh)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    try:
        password = read_password(args)
    except (OSError, ValueError) as exc:
        print(f"colosseum serve: cannot read the password: {exc}", file=sys.stderr)
        return 2
    if not args.open and not args.authorized_keys and password is None:
        print(
            "colosseum serve: nobody could log in: give --authorized-keys, --password-file or --open", file=sys.stderr
        )
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
                password=password,
                bot_timeout=args.bot_timeout,
                bot_delay=bot_delay,
                turn_timeout=getattr(args, "turn_timeout", 90.0),
                max_clients=getattr(args, "max_sessions", MAX_CLIENTS),
                memory_budget_mb=getattr(args, "memory_budget", None),
                per_address=getattr(args, "sessions_per_address", MAX_SESSIONS_PER_ADDRESS),
                fixed_seeds=bool(getattr(args, "fixed_seeds", False)),
                web=getattr(args, "web", None),
                web_url=getattr(args, "web_url", None),
            )
        except OSError as exc:
            print(f"colosseum serve: cannot listen on {args.listen}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(("created host key " if not existed else "host key ") + f"{host_key}", flush=True)
        print(f"host key fingerprint: {srv.host_key.get_fingerprint()}", flush=True)
        host = args.listen.rpartition(":")[0] or "127.0.0.1"
        print(f"listening on {host}:{srv.port}  (ssh -p {srv.port} NAME@{host}); data in {data}", flush=True)
        if srv.web is not None:
            print(f"web pages on {srv.web.public_url}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        loop.add_signal_handler(signal.SIGUSR1, lambda: log.info("stats: %s", srv.hub.stats()))
        await stop.wait()
        print("stopping", flush=True)
        log.info("stopping: %d sessions are told", len(srv.hub.clients))
        await srv.close()
        return 0

    return asyncio.run(main())
