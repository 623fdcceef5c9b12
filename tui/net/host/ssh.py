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
* Each PTY session: ``python -m colosseum.tui.net.client`` on a new pty (forked from one process
  that imported it once, ``forks``; started afresh when that cannot be) (TERM, COLORTERM and
  the window size from the SSH request); bytes are copied both ways and window changes are set
  on the pty (TIOCSWINSZ: the kernel signals SIGWINCH to the client).  The client proves its
  identity to the table server with a token minted here.  Its home and data folders are in
  the server's data folder (``DATA/home``), its error log is ``DATA/clients.log``.
* A client that dies without restoring the terminal (killed, crashed): the server still holds
  the channel and sends a terminal reset and one line.  On SIGTERM every session is told the
  server is stopping.

This module starts the server (``start_server``, ``cmd_serve``); the login policy and what the
connections share are in ``ssh_login``, a terminal session's client process in ``ssh_pty``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from .files import default_data_dir, private_dir, write_private
from .forks import ForkServer, fork_env
from .hub import TableServer
from .options import MAX_CLIENTS, MAX_SESSIONS_PER_ADDRESS, SESSION_MB, add_serve_arguments
from .ssh_login import LOGIN_GRACE, AuthGuard, Hub, LoginServer, NameBook, display_name, read_password
from .ssh_pty import (
    CRASH_MESSAGE,
    MAX_SESSIONS_PER_IDENTITY,
    STOPPING_MESSAGE,
    TERMINAL_RESET,
    handle_process,
    stop_client,
)
from .webguard import quiet_accept_errors

if TYPE_CHECKING:
    from .web import WebGateway

__all__ = [
    "CRASH_MESSAGE",
    "SESSION_MB",
    "STOPPING_MESSAGE",
    "TERMINAL_RESET",
    "AuthGuard",
    "NameBook",
    "add_serve_arguments",
    "cmd_serve",
    "default_data_dir",
    "display_name",
    "read_password",
    "start_server",
]

log = logging.getLogger("colosseum.net")


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
        await asyncio.gather(*(stop_client(proc) for proc in list(self.hub.clients)))
        await asyncio.sleep(0.1)  # let the sessions write their last line
        if self.hub.forks is not None:
            self.hub.forks.close()
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
    idle_timeout: float = 1800.0,
    client_cmd: list[str] | None = None,
    max_clients: int = MAX_CLIENTS,
    memory_budget_mb: float | None = None,
    per_address: int = MAX_SESSIONS_PER_ADDRESS,
    guard: AuthGuard | None = None,
    fixed_seeds: bool = False,
    web: str | None = None,
    web_url: str | None = None,
    database: str | None = None,
    forked: bool = True,
    host_id: str | None = None,
    peer_listen: str | None = None,
    peer_tls: bool = False,
) -> SSHGameServer:
    """The server, listening.  The lobby's database is opened first (``database``: a URL, else
    SQLite in the data folder; an older data folder is imported into it once): StoreError, one
    line, when it cannot be used; OSError when an address cannot be listened on."""
    from .store import Store

    data = Path(data) if data else default_data_dir()
    private_dir(data)
    if host_id:
        from .cluster_host import check_arguments

        check_arguments(database, host_id)
    elif peer_listen or peer_tls:
        from .store import StoreError

        raise StoreError("--peer-listen and --peer-tls are for one of several hosts: give --host-id too")
    store = await Store.open(data, database)
    settings: dict[str, Any] = {
        "bot_timeout": bot_timeout,
        "bot_delay": bot_delay,
        "turn_timeout": turn_timeout,
        "idle_timeout": idle_timeout,
        "fixed_seeds": fixed_seeds,
        "store": store,
    }
    if host_id:  # one of several hosts (issue 30)
        from .cluster_host import cluster_server

        tables: TableServer = await cluster_server(data, database, host_id, peer_listen, settings, peer_tls)
    else:
        tables = TableServer(data, **settings)
    try:
        await tables.start()
    except BaseException:
        await store.close()
        raise
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
    try:
        acceptor = await _listen(hub, host, int(port), key)
    except BaseException:
        await tables.close()
        raise
    real_port = acceptor.sockets[0].getsockname()[1] if int(port) == 0 else int(port)
    quiet_accept_errors(asyncio.get_running_loop())  # (out of descriptors: a line a minute, not per try)
    server = SSHGameServer(hub, acceptor, key, real_port)
    if client_cmd is None and forked:  # the usual client: forked from one process (host.forks)
        try:
            env = fork_env({**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONUNBUFFERED": "1"})
            hub.forks = await ForkServer.start(env, str(data / "clients.log"))
        except (OSError, TimeoutError) as err:
            log.error("no fork server (%s): each session's client starts afresh", err)
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
        tables.link_for = server.web.link_for  # ``w`` in the lobby
    return server


async def _listen(hub: Hub, host: str, port: int, key: asyncssh.SSHKey) -> asyncssh.SSHAcceptor:
    async def process_factory(process: asyncssh.SSHServerProcess[bytes]) -> None:
        await handle_process(hub, process)

    return await asyncssh.create_server(
        lambda: LoginServer(hub),
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
        login_timeout=LOGIN_GRACE,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    """``colosseum serve``."""
    os.umask(0o077)  # everything the server and its clients create is the owner's only
    raise_descriptor_limit()
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
    logging.getLogger("alembic").setLevel(logging.WARNING)  # (its setup lines at each start say nothing)
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

    from .store import StoreError

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
                idle_timeout=60 * getattr(args, "idle_minutes", 30.0),
                max_clients=getattr(args, "max_sessions", MAX_CLIENTS),
                memory_budget_mb=getattr(args, "memory_budget", None),
                per_address=getattr(args, "sessions_per_address", MAX_SESSIONS_PER_ADDRESS),
                fixed_seeds=bool(getattr(args, "fixed_seeds", False)),
                web=getattr(args, "web", None),
                web_url=getattr(args, "web_url", None),
                database=getattr(args, "database", None),
                host_id=getattr(args, "host_id", None),
                peer_listen=getattr(args, "peer_listen", None),
                peer_tls=bool(getattr(args, "peer_tls", False)),
            )
        except StoreError as exc:
            print(f"colosseum serve: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"colosseum serve: cannot listen on {args.listen}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(("created host key " if not existed else "host key ") + f"{host_key}", flush=True)
        print(f"host key fingerprint: {srv.host_key.get_fingerprint()}", flush=True)
        host = args.listen.rpartition(":")[0] or "127.0.0.1"
        print(f"listening on {host}:{srv.port}  (ssh -p {srv.port} NAME@{host}); data in {data}", flush=True)
        if srv.web is not None:
            print(f"web pages on {srv.web.public_url}", flush=True)
        if (peer := getattr(srv.tables, "peer_address", None)) is not None:
            print(f"host {args.host_id}: its tables served to the other hosts on {peer}", flush=True)
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


def raise_descriptor_limit() -> int:
    """The open-files limit raised to what the system allows this process (each SSH session
    holds a connection, a pty and a client process's pipes; issue 24: 1,200 idle connections
    under ``ulimit -n 1024`` made accept() fail).  Returns the limit now in effect."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        if soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, ValueError, OSError):  # not on every platform
        return -1
