"""Play in a browser: ``colosseum serve --web HOST:PORT``, beside the SSH listener, in the same
process.

The very same client runs for a browser as for an SSH session (``python -m
colosseum.tui.net.client``, with the same token to the table server), under Textual's web
driver; the page is ``textual-serve``'s terminal script (pinned) with a page of our own, and the
packets between the client process and the page are framed as ``textual-serve`` frames them.
What ``textual-serve`` lacks for a public server is here:

* **Login.** A player is still their SSH key: ``w`` in the SSH lobby shows a one-time link
  (valid ``LINK_MINUTES``, single use) that signs the browser in as that player: a signed,
  HttpOnly, SameSite=Strict cookie (Secure behind https) that expires after ``COOKIE_DAYS``.
  On an ``--open`` server a guest may also sign in by name (a name bound to a key is refused).
* **Limits.** Sessions per address and per player, the client processes' memory budget and the
  total as for SSH (the hub's own checks); a websocket whose ``Origin`` is not this server's
  page is refused; a request without a valid cookie gets the sign-in page (and no websocket).
* **A clean environment.** The client process gets only what it needs (no variable of the
  server's own: a secret in the server's environment stays there).
* **No external resource.** The page, its script and its fonts come from this server.

TLS is a reverse proxy's (``tui/net/README.md`` has an nginx example); ``--web-url`` is the
public address the page and the cookie use.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from colosseum.tui.net.host.forks import ClientProcess
from colosseum.tui.net.host.webguard import ConnectionGuard
from colosseum.tui.net.host.weblink import LINK_MINUTES, Signer, link_path

if TYPE_CHECKING:
    from colosseum.tui.net.host.hub import TableServer


class Hub(Protocol):
    """What the gateway uses of the SSH server's hub (``host.ssh.Hub``): the table server, the
    limits every session shares, the client command, the log of refusals."""

    tables: TableServer
    data: Path
    home: Path
    client_cmd: list[str]
    clients: set[ClientProcess]
    per_identity: dict[str, int]
    per_address: dict[str, int]
    names: Any

    def full(self, address: str) -> str: ...

    def client_env(self, identity: str, name: str, address: str = "") -> dict[str, str]: ...

    def refused(self, what: str, *args: object) -> None: ...

    async def blocked(self, *, fingerprint: str = "", name: str = "") -> str: ...


__all__ = ["WebGateway", "WebIdentity"]

log = logging.getLogger("colosseum.web")

COOKIE_DAYS = 14
COOKIE = "colosseum_session"
MAX_FRAME = 1 << 20  # a client packet larger than this ends the session
MAX_INPUT = 64 << 10  # a browser message larger than this is dropped


@dataclass(frozen=True)
class WebIdentity:
    identity: str  # the same identity an SSH login gives (key:..., or guest:...)
    name: str


class WebGateway:
    """The web server of one ``colosseum serve``: pages, the sign-in link, the websocket."""

    def __init__(
        self,
        hub: Hub,
        *,
        listen: str = "127.0.0.1:8080",
        public_url: str | None = None,
        guests: bool = False,
        per_player: int = 4,
    ) -> None:
        self.hub = hub
        self.per_player = per_player  # client processes one player may hold (SSH's limit too)
        host, _, port = listen.rpartition(":")
        self.host = host.strip("[]") or "127.0.0.1"
        self.port = int(port)
        self.public_url = (public_url or f"http://{self.host}:{self.port}").rstrip("/")
        self.guests = guests
        self.guard = ConnectionGuard()  # connections per address, and 30 s to send a request
        self.signer = Signer(hub.tables.secret)
        self.used: dict[str, float] = {}  # one-time links spent: nonce -> expiry
        self.sessions: set[asyncio.subprocess.Process] = set()
        self._runner: web.AppRunner | None = None
        self.static = Path(str(resources.files("textual_serve") / "static"))

    # ------------------------------------------------------------------ links and cookies
    def link_for(self, identity: str, name: str) -> str:
        """A one-time link that signs a browser in as this player (``w`` in the SSH lobby)."""
        return self.public_url + link_path(self.signer.link_token(identity, name))

    def _spend(self, payload: dict[str, Any]) -> bool:
        """Whether a link's nonce is unused; marks it used."""
        now = time.time()
        for nonce, until in list(self.used.items()):
            if until < now:
                del self.used[nonce]
        nonce = str(payload.get("j", ""))
        if not nonce or nonce in self.used:
            return False
        self.used[nonce] = float(payload.get("e", now))
        return True

    def who(self, request: web.Request) -> WebIdentity | None:
        payload = self.signer.check(request.cookies.get(COOKIE, ""))
        if payload is None or "j" in payload:  # (a link's token is not a cookie)
            return None
        identity, name = str(payload.get("i", "")), str(payload.get("n", ""))
        if not identity or not name:
            return None
        return WebIdentity(identity, name)

    def _sign_in(self, response: web.StreamResponse, identity: str, name: str) -> None:
        value = self.signer.sign({"i": identity, "n": name, "e": time.time() + COOKIE_DAYS * 86400})
        response.set_cookie(
            COOKIE,
            value,
            max_age=COOKIE_DAYS * 86400,
            httponly=True,
            samesite="Strict",
            secure=self.public_url.startswith("https://"),
            path="/",
        )

    # ------------------------------------------------------------------ pages
    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=64 << 10, middlewares=[self.guard.middleware])
        app.add_routes(
            [
                web.get("/", self.index),
                web.get("/login/{token}", self.login),
                web.post("/guest", self.guest),
                web.get("/ws", self.websocket),
                web.get("/static/js/textual.js", self.script),
                web.static("/static", self.static, show_index=False),
            ]
        )
        return app

    async def index(self, request: web.Request) -> web.StreamResponse:
        if self.who(request) is None:
            return web.Response(text=signin_page(self.guests), content_type="text/html", headers=_NO_CACHE)
        ws = self.public_url.replace("https://", "wss://").replace("http://", "ws://") + "/ws"
        return web.Response(text=game_page(ws), content_type="text/html", headers=_NO_CACHE)

    async def script(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=page_script(self.static), content_type="application/javascript")

    async def login(self, request: web.Request) -> web.StreamResponse:
        payload = self.signer.check(request.match_info["token"])
        me = self.who(request)
        if payload is not None and me is not None and str(payload.get("i", "")) == me.identity:
            # this browser is signed in as the link's player already (a used link opened again,
            # in a second tab): to the game, not "that link is not valid"
            return web.Response(status=303, headers={"Location": "/", **_NO_CACHE})
        if payload is None or "j" not in payload or not self._spend(payload):
            self.hub.refused("web login link refused (forged, expired or used) from %s", _peer(request))
            return web.Response(
                status=403,
                text=signin_page(self.guests, "That link is not valid (used, expired or wrong)."),
                content_type="text/html",
            )
        response = web.Response(status=303, headers={"Location": "/", **_NO_CACHE})
        self._sign_in(response, str(payload["i"]), str(payload["n"]))
        log.info("web sign-in for %s from %s", str(payload["n"])[:40], _peer(request))
        return response

    async def guest(self, request: web.Request) -> web.StreamResponse:
        from colosseum.tui.net.host.names import clean_name, name_key, name_problem

        if not self.guests:
            raise web.HTTPForbidden(text="this server lets in known players only")
        form = await request.post()
        name = clean_name(str(form.get("name", "")))
        problem = name_problem(name) if name else "a name, please"
        if problem:
            return web.Response(
                status=400, text=signin_page(True, f"Choose another name: {problem}."), content_type="text/html"
            )
        from .account import name_taken

        # this host's book of names, and the lobby's accounts (every host's, with several)
        if self.hub.names.key_of(name) or await name_taken(self.hub.tables.store, name, ""):
            return web.Response(
                status=409,
                text=signin_page(True, f"{name} is a player's name: choose another."),
                content_type="text/html",
            )
        response = web.Response(status=303, headers={"Location": "/", **_NO_CACHE})
        self._sign_in(response, f"guest:{name_key(name)}", name)
        return response

    # ------------------------------------------------------------------ the session
    def _origin_ok(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin", "")
        want = urlsplit(self.public_url)
        got = urlsplit(origin)
        return bool(origin) and (got.scheme, got.netloc) == (want.scheme, want.netloc)

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        me = self.who(request)
        if me is None:
            self.hub.refused("websocket without a sign-in from %s", _peer(request))
            raise web.HTTPUnauthorized(text="sign in first")
        if not self._origin_ok(request):
            self.hub.refused(
                "websocket from a foreign page (%r) from %s", request.headers.get("Origin"), _peer(request)
            )
            raise web.HTTPForbidden(text="not from this server's page")
        address = _peer(request)
        blocked = await self._blocked(me.identity, me.name)
        if blocked:
            self.hub.refused("web session of blocked player %s from %s", me.name[:30], address)
            raise web.HTTPForbidden(text=blocked)
        why = self.hub.full(address) or self._per_player(me.identity)
        if why:
            self.hub.refused("web session for %s from %s: %s", me.name[:30], address, why)
            raise web.HTTPServiceUnavailable(text=why)
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_INPUT)
        await ws.prepare(request)
        width = _int(request.query.get("width"), 80, 20, 400)
        height = _int(request.query.get("height"), 24, 10, 200)
        self.hub.per_identity[me.identity] = self.hub.per_identity.get(me.identity, 0) + 1
        self.hub.per_address[address] = self.hub.per_address.get(address, 0) + 1
        try:
            await self._run(ws, me, width, height, address)
        finally:
            for book, key in ((self.hub.per_identity, me.identity), (self.hub.per_address, address)):
                left = book.get(key, 1) - 1
                if left > 0:
                    book[key] = left
                else:
                    book.pop(key, None)
        return ws

    async def _blocked(self, identity: str, name: str) -> str:
        """The line a blocked player is told ('' if they may play): the same check as at SSH
        login (a cookie signed before the block lets nobody in after it)."""
        kind, _, rest = identity.partition(":")
        if kind == "key":
            return await self.hub.blocked(fingerprint=rest)
        if kind == "pw":
            return await self.hub.blocked(name=name)
        return ""

    def _per_player(self, identity: str) -> str:
        if self.hub.per_identity.get(identity, 0) >= self.per_player:
            return "Too many sessions of yours at once; close one first."
        return ""

    def environment(self, me: WebIdentity, width: int, height: int, address: str = "") -> dict[str, str]:
        """The client process's whole environment: nothing of the server's own but PATH."""
        env = self.hub.client_env(me.identity, me.name, address)
        env.update(
            {
                "COLOSSEUM_FRONT": "web",  # the client offers keys a browser keeps for itself another way
                "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
                "TEXTUAL_COLOR_SYSTEM": "truecolor",
                "TERM_PROGRAM": "textual",
                "COLUMNS": str(width),
                "ROWS": str(height),
            }
        )
        return env

    async def _run(self, ws: web.WebSocketResponse, me: WebIdentity, width: int, height: int, address: str) -> None:
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.hub.client_cmd,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
                env=self.environment(me, width, height, address),
                start_new_session=True,
                close_fds=True,
            )
        except OSError:
            log.exception("could not start a web client")
            await ws.close()
            return
        self.hub.clients.add(proc)
        self.sessions.add(proc)
        log.info("web client pid %d for %s (%s) %dx%d", proc.pid, me.name[:30], me.identity[:30], width, height)
        pump = asyncio.create_task(self._from_client(proc, ws))
        try:
            await self._from_browser(ws, proc)
        finally:
            await self._stop(proc)
            pump.cancel()
            self.hub.clients.discard(proc)
            self.sessions.discard(proc)
            if not ws.closed:
                await ws.close()

    async def _from_browser(self, ws: web.WebSocketResponse, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdin is not None
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
                kind = envelope[0]
            except (ValueError, TypeError, IndexError, KeyError):
                continue
            if kind == "stdin" and isinstance(envelope[1], str):
                _packet(proc, b"D", envelope[1].encode("utf-8"))
            elif kind == "resize" and isinstance(envelope[1], dict):
                w = _int(envelope[1].get("width"), 80, 20, 400)
                h = _int(envelope[1].get("height"), 24, 10, 200)
                _packet(proc, b"M", json.dumps({"type": "resize", "width": w, "height": h}).encode())
            elif kind == "ping":
                await ws.send_json(["pong", envelope[1] if len(envelope) > 1 else None])
            elif kind in ("blur", "focus"):
                _packet(proc, b"M", json.dumps({"type": kind}).encode())
            try:
                await proc.stdin.drain()
            except (ConnectionError, RuntimeError):
                return

    async def _from_client(self, proc: asyncio.subprocess.Process, ws: web.WebSocketResponse) -> None:
        """The client's packets to the page.  The client runs one app after another (the lobby,
        a game, the lobby again): each starts with the ``__GANGLION__`` line and ends with an
        ``exit`` meta packet, and the page stays through all of them."""
        out = proc.stdout
        assert out is not None
        try:
            while True:
                line = await out.readline()
                if not line:
                    return
                if line != b"__GANGLION__\n":
                    continue
                while True:
                    kind = await out.readexactly(1)
                    size = int.from_bytes(await out.readexactly(4), "big")
                    if size > MAX_FRAME:
                        return
                    payload = await out.readexactly(size)
                    if kind == b"D":
                        await ws.send_bytes(payload)
                    elif kind == b"M":
                        meta = json.loads(payload)
                        if meta.get("type") == "exit":
                            break  # this app ended; the next one (if any) starts with its line
                        if meta.get("type") == "open_url":
                            await ws.send_str(json.dumps(["open_url", {"url": meta.get("url"), "new_tab": True}]))
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            return
        finally:
            if not ws.closed:
                await ws.close()

    async def _stop(self, proc: asyncio.subprocess.Process) -> None:
        """End the client process: ask (quit), then terminate, then kill."""
        if proc.returncode is not None:
            return
        try:
            _packet(proc, b"M", b'{"type": "quit"}')
        except (ConnectionError, RuntimeError):
            pass
        try:
            await asyncio.wait_for(proc.wait(), 3)
            return
        except TimeoutError:
            pass
        for stop in (proc.terminate, proc.kill):
            try:
                stop()
                await asyncio.wait_for(proc.wait(), 3)
                return
            except (TimeoutError, ProcessLookupError):
                continue

    # ------------------------------------------------------------------ running
    async def start(self) -> None:
        runner = web.AppRunner(self.make_app(), access_log=None)
        await runner.setup()
        loop = asyncio.get_running_loop()
        assert runner.server is not None
        # aiohttp's own protocol behind the guard (webguard: the caps and the 30 s for a request)
        server = await loop.create_server(self.guard.wrap(runner.server), self.host, self.port, reuse_address=True)
        self._runner, self._server = runner, server
        if self.port == 0:
            self.port = server.sockets[0].getsockname()[1]
            self.public_url = f"http://{self.host}:{self.port}"

    _server: asyncio.Server | None = None

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for proc in list(self.sessions):
            await self._stop(proc)
        if self._runner is not None:
            await self._runner.cleanup()


_NO_CACHE = {"Cache-Control": "no-store"}

#: where textual-serve's page script (1.1.3) makes each terminal: the terminal takes the
#: keyboard at once and again whenever the window comes back (textual-serve leaves it to a
#: click: keys typed before one went nowhere, and a keyboard-only player could not start); and
#: the terminals are kept in ``window.colosseumTerminals``, so that a page test can read the
#: screen from the terminal's buffer (xterm draws on a canvas).  Each terminal is fitted by
#: ``colosseumFit`` (below), again on every resize and once the fonts are in.
_SCRIPT_HOOK = (
    "const t=new w(e,{ping:r});",
    "const t=new w(e,{ping:r});(window.colosseumTerminals=window.colosseumTerminals||[]).push(t);"
    't.terminal.focus();window.addEventListener("focus",()=>t.terminal.focus());'
    "colosseumFit(t);window.onresize=()=>colosseumFit(t);"
    'document.fonts.addEventListener("loadingdone",()=>colosseumFit(t));',
)
#: the page starts once its font is in: textual-serve measured the terminal's cells with the
#: fallback font (18 px rows where Roboto Mono's are 21), so the last rows and the key bar fell
#: below the window once the font came, and a reload in the same window was too small
_ONLOAD_HOOK = (
    'window.onload=e=>{const t=document.querySelectorAll(".textual-terminal")',
    "window.onload=async e=>{try{await document.fonts.load(\"16px 'Roboto Mono'\")}catch(_){}"
    'const t=document.querySelectorAll(".textual-terminal")',
)
#: the terminal fills the window; where 80x24 cells of 16 px do not fit, a smaller font (down to
#: 9 px) gives the screens the 80x24 they need
_FIT = """window.colosseumFit=function(t){const o=t.terminal.options;let s=16;o.fontSize=s;
let d=t.fitAddon.proposeDimensions();while(s>9&&d&&(d.cols<80||d.rows<24)){s--;o.fontSize=s;
d=t.fitAddon.proposeDimensions();}t.fit();};
"""
_script: str | None = None


def page_script(static: Path) -> str:
    """textual-serve's script with the hook above (ValueError if the pinned script changed)."""
    global _script
    if _script is None:
        text = (static / "js" / "textual.js").read_text(encoding="utf-8")
        if text.count(_SCRIPT_HOOK[0]) != 1 or text.count(_ONLOAD_HOOK[0]) != 1:
            raise ValueError("textual-serve's textual.js is not the pinned one: the terminal hook does not fit")
        _script = _FIT + text.replace(*_SCRIPT_HOOK).replace(*_ONLOAD_HOOK)
    return _script


def _packet(proc: asyncio.subprocess.Process, kind: bytes, payload: bytes) -> None:
    assert proc.stdin is not None
    proc.stdin.write(kind + len(payload).to_bytes(4, "big") + payload)


def _int(value: object, default: int, low: int, high: int) -> int:
    try:
        number = int(str(value))
    except ValueError:
        return default
    return max(low, min(high, number))


def _peer(request: web.Request) -> str:
    """The browser's address.  Behind a reverse proxy on this machine every request comes from
    a loopback address: then the proxy's ``X-Forwarded-For`` names the browser (its last entry,
    the address the proxy saw), so that the limits per address hold per browser and not for
    everyone at once (D-58).  From any other peer the header is ignored: it is the sender's word."""
    remote = str(request.remote or "?")
    forwarded = request.headers.get("X-Forwarded-For", "")
    if forwarded and _loopback(remote):
        last = forwarded.rsplit(",", 1)[-1].strip()
        try:
            return str(ipaddress.ip_address(last))
        except ValueError:
            return remote
    return remote


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


_STYLE = """
@font-face { font-family: 'Roboto Mono'; src: url('/static/fonts/RobotoMono-VariableFont_wght.ttf'); }
body { background: #17130f; color: #e8dcc8; font-family: 'Roboto Mono', monospace; margin: 0; }
.box { max-width: 40em; margin: 4em auto; padding: 1.5em 2em; background: #241d15; border: 1px solid #d4a44c; }
.box h1 { color: #d4a44c; font-size: 1.3em; background: none; }  /* (textual.js styles h1 white on black) */
a { color: #d4a44c; }
input, button { font: inherit; padding: .3em .6em; }
.note { color: #b8a88c; }
.textual-terminal { width: 100vw; height: 100vh; }
body.-closed .closed { display: flex; }
.closed { display: none; position: absolute; inset: 0; align-items: center; justify-content: center;
  z-index: 10; background: rgba(23, 19, 15, 0.85); }  /* over the terminal's canvas layers */
"""


def signin_page(guests: bool, problem: str = "") -> str:
    from html import escape

    guest = (
        """<form method="post" action="/guest"><p>Or come in as a guest:
<input name="name" maxlength="24" autocomplete="off" placeholder="your name"> <button>Come in</button></p></form>"""
        if guests
        else ""
    )
    warn = f'<p class="note">{escape(problem)}</p>' if problem else ""
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Colosseum</title>
<link rel="icon" href="data:,"><style>{_STYLE}</style></head><body><div class="box"><h1>Colosseum</h1>{warn}
<p>To play here as yourself, log in with SSH and press <b>w</b> in the lobby: it shows a link
that signs this browser in (it works once, for {LINK_MINUTES} minutes).</p>{guest}</div></body></html>"""


def game_page(websocket_url: str) -> str:
    from html import escape

    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Colosseum</title>
<link rel="stylesheet" href="/static/css/xterm.css"><link rel="icon" href="data:,"><style>{_STYLE}</style>
<script src="/static/js/textual.js"></script></head><body>
<div class="closed"><div class="box"><h1>Colosseum</h1><p>The session ended. Your seat is kept:
<a href="/">come back</a>.</p></div></div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{escape(websocket_url)}"
 data-font-size="16"></div></body></html>"""
