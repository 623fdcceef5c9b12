"""The SSH side's login policy and what every SSH connection shares (``Hub``): who may log in
(keys, ``--open``, the server password), names bound to keys (``NameBook``: trust on first use),
password guessing slowed per address and per name (``AuthGuard``), and the limits on connections
and client processes (per address, per player, in all, the memory budget).  ``LoginServer`` is
asyncssh's server object of one connection."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh

from .files import private_dir
from .forks import ClientProcess, ForkServer
from .hub import TableServer
from .memory import MemoryMeter
from .names import clean_name, name_key, name_problem
from .options import MAX_CLIENTS, MAX_SESSIONS_PER_ADDRESS, PASSWORD_ENV, SESSION_MB

if TYPE_CHECKING:
    from .store import Store

log = logging.getLogger("colosseum.net")

MAX_CONNECTIONS_PER_ADDRESS = 10  # SSH connections from one source address, logged in or not
#: connections not logged in yet, over all addresses (OpenSSH's MaxStartups): beyond, a new one
#: is closed at once, so a flood of idle connections cannot use up the descriptors; each has
#: LOGIN_GRACE seconds to log in (OpenSSH's LoginGraceTime)
MAX_UNAUTHENTICATED = 100
LOGIN_GRACE = 30
MAX_NAME = 24  # terminal cells
MAX_AUTH_TRIES = 3  # passwords per connection
MAX_AUTH_WAIT = 20.0  # a try that would wait longer for its turn is refused at once
MAX_NAMES = 50_000  # names bound to keys (names.jsonl)
LOG_BURST, LOG_WINDOW = 100, 10.0  # refusals logged one by one, per window of seconds


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


class AuthGuard:
    """Password tries (the server's one password): each try waits its turn.

    * An address's tries are spaced by a delay that doubles with its recent failures, up to
      ``max_delay``; failures are forgotten after ``window`` seconds.
    * Tries from addresses that failed recently ("dirty") share one lane for the whole server,
      one comparison every ``dirty_gap`` seconds, and a name's delay doubles with the failures
      against it: however many addresses a flood comes from, the comparisons stay bounded.
    * An address with no recent failure ("clean") has a lane of its own, one comparison every
      ``clean_gap`` seconds over all clean addresses, untouched by the flood against a name: the
      name's owner, connecting from their own address, gets in within seconds (issue 24: the
      right password from a fresh address was refused in 0.1 s).  An address is clean only
      until its first failure, so a flood can use this lane once per address it has."""

    def __init__(
        self,
        *,
        base: float = 0.5,
        max_delay: float = 10.0,
        window: float = 900.0,
        dirty_gap: float | None = None,
        clean_gap: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base = base
        self.max_delay = max_delay
        self.window = window
        self.dirty_gap = max_delay / 5 if dirty_gap is None else dirty_gap
        self.clean_gap = clean_gap
        self.clock = clock
        self.fails: dict[str, tuple[int, float]] = {}
        self.next_ok: dict[str, float] = {}

    def failures(self, key: str, now: float) -> int:
        n, last = self.fails.get(key, (0, 0.0))
        return n if now - last < self.window else 0

    def _backoff(self, failures: int) -> float:
        return 0.0 if failures <= 0 else min(self.base * 2 ** (failures - 1), self.max_delay)

    def delay(self, addr: str, user: str, now: float | None = None) -> float:
        now = self.clock() if now is None else now
        return self._backoff(max(self.failures("a:" + addr, now), self.failures("u:" + user, now)))

    def reserve(self, addr: str, user: str) -> float:
        """Seconds this try must wait for its turn (its turn is booked unless that is longer
        than ``MAX_AUTH_WAIT``: then the try is to be refused)."""
        now = self.clock()
        self._prune(now)
        ka, ku = "a:" + addr, "u:" + user
        dirty = self.failures(ka, now) > 0
        lane = "lane:dirty" if dirty else "lane:clean"
        keys = (ka, ku, lane) if dirty else (ka, lane)
        slot = max(now, *(self.next_ok.get(k, 0.0) for k in keys))
        if slot - now > MAX_AUTH_WAIT:
            return slot - now
        self.next_ok[ka] = slot + self._backoff(self.failures(ka, now))
        if dirty:
            self.next_ok[ku] = max(self.next_ok.get(ku, 0.0), slot + self._backoff(self.failures(ku, now)))
        self.next_ok[lane] = slot + (self.dirty_gap if dirty else self.clean_gap)
        return slot - now

    def failed(self, addr: str, user: str) -> None:
        now = self.clock()
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
        self.clients: set[ClientProcess] = set()
        self.forks: ForkServer | None = None  # client processes forked from one (host.forks)
        self.memory = MemoryMeter()  # what they use (PSS), measured off the event loop
        self.per_identity: dict[str, int] = {}
        self.per_address: dict[str, int] = {}
        self.connections: dict[str, int] = {}
        self.unauthenticated = 0  # connections not logged in yet
        self.max_clients = max_clients
        self.max_per_address = per_address
        self.memory_budget_mb = memory_budget_mb if memory_budget_mb is not None else memory_available_mb() / 2
        self.guard = guard or AuthGuard()
        self.names = NameBook(self.data / "names.jsonl")
        self.store: Store | None = tables.store  # the lobby's accounts (None: a bare table server)
        self._tasks: set[asyncio.Task[None]] = set()
        self.home = self.data / "home"
        private_dir(self.home)
        self.stopping = False
        self.refusals = 0
        self._log_window = 0.0
        self._logged = self._unlogged = 0
        self.password_checks = 0  # passwords compared with the server's
        self.password_turned_away = 0  # tries refused without a comparison (too many failures)

    def client_env(self, identity: str, name: str, address: str = "") -> dict[str, str]:
        """What every client process of a player gets (over SSH or in a browser), and nothing of
        the server's own environment but PATH and how this program is found: its home, data and
        config folders inside the data folder (it offers no local games nor screenshots), the
        player's own settings folder, the way to the table server with the player's token (which
        carries ``address``, where they connect from: the tables per address are capped)."""
        home = self.home
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_STATE_HOME": str(home / "state"),
            "COLOSSEUM_DATA_DIR": str(home / "data"),
            "COLOSSEUM_NET_LOG": str(self.data / "clients.log"),
            "COLOSSEUM_CONFIG_DIR": str(self.player_config(identity)),  # settings per player
            "COLOSSEUM_NET_ADDRESS": self.tables.address,
            "COLOSSEUM_NET_TOKEN": self.tables.token_for(identity, name, address),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PYTHONUNBUFFERED": "1",
        }
        for var in ("PYTHONPATH", "COLOSSEUM_GAMES", "COLOSSEUM_NET_TRACE"):  # how this program is found
            if var in os.environ:
                env[var] = os.environ[var]
        return env

    def player_config(self, identity: str) -> Path:
        """The settings folder of the player ``identity``: a theme or keys one player picks are
        theirs alone (issue 24: they were written to the folder every session shared).  Inside
        the data folder, named by a digest of the identity."""
        folder = self.home / "players" / hashlib.blake2b(identity.encode(), digest_size=12).hexdigest()
        private_dir(self.home / "players")
        private_dir(folder)
        return folder

    def stats(self) -> str:
        """Counters for the operator (``kill -USR1``): what the server let through."""
        return (
            f"password checks {self.password_checks}, turned away unchecked {self.password_turned_away}, "
            f"refusals {self.refusals}, sessions {len(self.clients)}, connections {sum(self.connections.values())}, "
            f"client memory {self.memory_used_mb():.0f} MB of {self.memory_budget_mb:.0f}, {self.tables.budget.stats()}"
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

    async def blocked(self, *, fingerprint: str = "", name: str = "") -> str:
        """The one line a blocked player is told ('' if the player may come in): the account
        of ``fingerprint`` (a key login), else of ``name`` (a password login).  With the
        database away, nobody is refused for it."""
        from .store import StoreError

        if self.store is None:
            return ""
        try:
            player = (
                await self.store.player_for_key(fingerprint) if fingerprint else await self.store.player_named(name)
            )
        except StoreError as err:
            log.warning("login of %r not checked against the blocked players: %s", name or fingerprint, err)
            return ""
        if player is None or not player.blocked:
            return ""
        return f"This account is blocked{': ' + player.blocked_why if player.blocked_why else ''}."

    def account(self, name: str, fingerprint: str) -> None:
        """Make sure the player of ``fingerprint`` has an account (in the background: a login
        never waits for it; the table's result finds the player by the key anyway)."""
        from .store import StoreError
        from .store.accounts import Refused

        store = self.store
        if store is None:
            return

        async def make() -> None:
            try:
                await store.login(name, fingerprint)
            except (Refused, StoreError) as err:
                log.info("no account made for %r now: %s", name, err)

        task = asyncio.get_running_loop().create_task(make())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def memory_used_mb(self) -> float:
        return self.memory.used(self.clients)

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


class LoginServer(asyncssh.SSHServer):
    """One SSH connection: its peer, who logged in, its sessions."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.identity = ""
        self.name = ""
        self.peer = "?"
        self.address = "?"
        self.sessions = 0
        self.authed = True  # (until the connection is made: nothing to count)
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
        self.hub.unauthenticated += 1
        self.authed = False
        if self.hub.unauthenticated > MAX_UNAUTHENTICATED:
            self.hub.refused("too many connections logging in (%d): %s closed", self.hub.unauthenticated, self.peer)
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections; try again soon"
            )
        elif n > MAX_CONNECTIONS_PER_ADDRESS:
            self.hub.refused("too many connections from %s (%d)", self.address, n)
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections from your address"
            )

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.authed:
            self.authed = True  # (counted once)
            self.hub.unauthenticated -= 1
        left = self.hub.connections.get(self.address, 1) - 1
        if left > 0:
            self.hub.connections[self.address] = left
        else:
            self.hub.connections.pop(self.address, None)

    def begin_auth(self, username: str) -> bool:
        return True

    def auth_completed(self) -> None:
        if not self.authed:
            self.authed = True
            self.hub.unauthenticated -= 1
        if self.bind is not None:
            name, key = self.bind
            if not self.hub.names.bind(name, key):
                log.info("name %r not bound (taken or the book is full)", name)
            else:
                self.hub.account(self.hub.names.shown(name), key)

    def _banner(self, text: str) -> None:
        if self.conn is not None:
            try:
                self.conn.send_auth_banner(text + "\r\n")
            except (OSError, asyncssh.Error):  # pragma: no cover - the connection is gone
                pass

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        from .account import key_login, name_taken

        found = await key_login(self.hub.store, key.get_fingerprint()) if self.hub.password is None else None
        if found is not None and found[2]:  # a key its player added from a session (D-79)
            self.identity, self.name, self.bind = found[0], found[1], None
        elif not self._key_ok(username, key):
            return False
        elif (
            found is None
            and self.hub.password is None
            and await name_taken(self.hub.store, self.name, key.get_fingerprint())
        ):
            self._banner(f"The name {self.name} is taken by another player: connect with another name.")
            self.identity, self.name, self.bind = "", "", None
            return False
        elif found is not None:
            self.name = found[1]  # the account's name (its player may have renamed it)
        why = await self.hub.blocked(fingerprint=key.get_fingerprint())
        if why:
            return self._blocked(why)
        return True

    def _blocked(self, why: str) -> bool:
        self.hub.refused("blocked player %r (%s) from %s", self.name, self.identity[:30], self.peer)
        self._banner(why)
        self.identity, self.name, self.bind = "", "", None
        return False

    def _key_ok(self, username: str, key: asyncssh.SSHKey) -> bool:
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
        why = await self.hub.blocked(name=name)
        if why:
            return self._blocked(why)
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
