"""The web gateway (``colosseum serve --web``) at the HTTP level: sign-in by one-time link only,
cookies signed, websockets only from this server's page and only signed in, the caps, a clean
environment for the client process, no external resource on the pages.  (A real browser plays
through it in test_browser.py.)"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path

import aiohttp
import pytest

from colosseum.tui.net.host.ssh import start_server
from colosseum.tui.net.host.testing import free_port
from colosseum.tui.net.host.web import COOKIE, WebGateway


def run(coro, timeout: float = 60.0):
    async def main():
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(main())


async def _servers(tmp_path: Path, **kw):
    srv = await start_server(listen=f"127.0.0.1:{free_port()}", data=tmp_path / "data", open_to_all=True)
    web = WebGateway(srv.hub, listen=f"127.0.0.1:{free_port()}", **kw)
    await web.start()
    return srv, web


async def _close(srv, web):
    await web.close()
    await srv.close()


def test_without_a_sign_in_the_page_asks_for_one_and_the_websocket_is_refused(tmp_path):
    async def go():
        srv, web = await _servers(tmp_path)
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(web.public_url + "/") as r:
                    page = await r.text()
                    assert r.status == 200 and "press <b>w</b> in the lobby" in page
                    assert 'id="terminal"' not in page
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await http.ws_connect(web.public_url + "/ws", origin=web.public_url)
                assert e.value.status == 401
        finally:
            await _close(srv, web)

    run(go())


def test_a_one_time_link_signs_in_once_and_a_forged_one_never(tmp_path):
    async def go():
        srv, web = await _servers(tmp_path)
        try:
            link = web.link_for("key:SHA256:becky", "ベッキー")
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(link, allow_redirects=False) as r:
                    assert r.status == 303 and COOKIE in r.cookies
                    cookie = r.cookies[COOKIE]
                    assert cookie["httponly"] and cookie["samesite"] == "Strict"
                async with http.get(web.public_url + "/") as r:
                    assert 'id="terminal"' in await r.text()  # signed in
                # the same link again in this browser (a second tab): to the game, not refused
                async with http.get(link, allow_redirects=False) as r:
                    assert r.status == 303 and r.headers["Location"] == "/"
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as other:
                async with other.get(link, allow_redirects=False) as r:
                    assert r.status == 403  # used once already
                token = link.rsplit("/", 1)[1]
                forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
                async with other.get(f"{web.public_url}/login/{forged}", allow_redirects=False) as r:
                    assert r.status == 403
                other.cookie_jar.update_cookies({COOKIE: "eyJpIjoia2V5OngiLCJuIjoieCIsImUiOjk5OTk5OTk5OTl9.AAAA"})
                async with other.get(web.public_url + "/") as r:
                    assert 'id="terminal"' not in await r.text()  # a forged cookie is no sign-in
        finally:
            await _close(srv, web)

    run(go())


def test_a_blocked_player_is_refused_a_web_session_with_one_line(tmp_path):
    async def go():
        srv, web = await _servers(tmp_path)
        try:
            store = srv.tables.store
            assert store is not None
            await store.login("Kat", "SHA256:kat")
            await store.set_blocked("Kat", True, "spam")
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                await http.get(web.link_for("key:SHA256:kat", "Kat"))  # signed in before the block shows
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await http.ws_connect(web.public_url + "/ws", origin=web.public_url)
                assert e.value.status == 403
        finally:
            await _close(srv, web)

    run(go())


def test_a_foreign_origin_is_refused_and_the_pages_fetch_nothing_from_elsewhere(tmp_path):
    async def go():
        srv, web = await _servers(tmp_path)
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                await http.get(web.link_for("key:SHA256:kat", "Kat"))
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await http.ws_connect(web.public_url + "/ws", origin="https://evil.example")
                assert e.value.status == 403
                for path in ("/", "/static/js/textual.js", "/static/css/xterm.css"):
                    async with http.get(web.public_url + path) as r:
                        assert r.status == 200
                        text = await r.text()
                        if path == "/":
                            assert not re.search(r"(src|href)=[\"']https?://", text), text
                            assert "fonts.googleapis" not in text
        finally:
            await _close(srv, web)

    run(go())


def test_the_client_process_gets_a_clean_environment_and_the_cap_holds(tmp_path, monkeypatch):
    monkeypatch.setenv("SERVER_SECRET_FOR_TEST", "do-not-leak")

    async def go():
        srv, web = await _servers(tmp_path)
        srv.hub.max_per_address = 1
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                await http.get(web.link_for("key:SHA256:laura", "Laura"))
                ws = await http.ws_connect(web.public_url + "/ws?width=80&height=24", origin=web.public_url)
                got = b""
                for _ in range(200):
                    msg = await asyncio.wait_for(ws.receive(), 20)
                    if msg.type == aiohttp.WSMsgType.BINARY:
                        got += msg.data
                    if b"Lobby" in got:
                        break
                assert b"Lobby" in got  # the very same client as over SSH, drawn for a browser
                (proc,) = web.sessions
                environ = Path(f"/proc/{proc.pid}/environ").read_bytes().split(b"\0")
                names = {e.split(b"=", 1)[0].decode() for e in environ if e}
                assert "SERVER_SECRET_FOR_TEST" not in names and b"do-not-leak" not in b"".join(environ)
                # settings per player (issue 24: one user's theme became the next user's)
                config = dict(e.decode().split("=", 1) for e in environ if e)["COLOSSEUM_CONFIG_DIR"]
                assert config == str(srv.hub.player_config("key:SHA256:laura"))
                assert config != str(srv.hub.player_config("key:SHA256:kat"))
                assert Path(config).is_dir() and Path(config).stat().st_mode & 0o077 == 0
                # a second session from the same address is over the cap
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await http.ws_connect(web.public_url + "/ws", origin=web.public_url)
                assert e.value.status == 503
                await ws.send_str(json.dumps(["ping", "x"]))
                await ws.close()
            for _ in range(50):  # the tab closed: the client process ends
                if not web.sessions:
                    break
                await asyncio.sleep(0.1)
            assert not web.sessions
        finally:
            await _close(srv, web)

    run(go())


def test_guests_only_on_an_open_web_server_and_never_under_a_players_name(tmp_path):
    async def go():
        srv, web = await _servers(tmp_path, guests=True)
        srv.hub.names.bind("Becky", "SHA256:becky")
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.post(web.public_url + "/guest", data={"name": "becky"}, allow_redirects=False) as r:
                    assert r.status == 409
                async with http.post(web.public_url + "/guest", data={"name": "[/a] 小明"}, allow_redirects=False) as r:
                    assert r.status == 303
                async with http.get(web.public_url + "/") as r:
                    assert 'id="terminal"' in await r.text()
        finally:
            await _close(srv, web)
        srv2, closed = await _servers(tmp_path / "b")
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.post(closed.public_url + "/guest", data={"name": "x"}, allow_redirects=False) as r:
                    assert r.status == 403
        finally:
            await _close(srv2, closed)

    run(go())


def test_a_guest_may_not_take_the_name_of_a_player_the_lobbys_database_knows(tmp_path):
    """With several hosts a player registered on another host is in the shared database only,
    not in this host's book of names: the guest is refused all the same."""

    async def go():
        srv, web = await _servers(tmp_path, guests=True)
        await srv.hub.tables.store.login("onlyb", "SHA256:onlyb")
        assert not srv.hub.names.key_of("onlyb")
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.post(web.public_url + "/guest", data={"name": "OnlyB"}, allow_redirects=False) as r:
                    assert r.status == 409 and "OnlyB is a player" in await r.text()
                async with http.get(web.public_url + "/") as r:
                    assert 'id="terminal"' not in await r.text()
        finally:
            await _close(srv, web)

    run(go())


def test_idle_connections_are_capped_per_address_and_closed_without_a_request(tmp_path):
    """A flood of idle TCP connections to the web port used up the descriptors: as on the SSH
    port, a few per address, and a connection that sends no request is closed after a while."""

    async def closed(reader, within: float) -> bool:
        try:
            return await asyncio.wait_for(reader.read(1), within) == b""
        except TimeoutError:
            return False
        except ConnectionError:
            return True

    async def go():
        srv, web = await _servers(tmp_path)
        web.guard.per_address, web.guard.grace = 3, 1.0
        web.guard.uncapped = lambda address: False  # (the test's loopback address counts as a browser's)
        host, port = web.host, web.port
        try:
            idle = [await asyncio.open_connection(host, port) for _ in range(3)]
            over = [await asyncio.open_connection(host, port) for _ in range(2)]
            for r, _w in over:
                assert await closed(r, 2.0)  # beyond 3 from one address: closed at once
            for r, _w in idle:
                assert not await closed(r, 0.1)
            for r, _w in idle:
                assert await closed(r, 2.0)  # no request within the grace: closed
            assert web.guard.connections == {} and web.guard.waiting == {}
            async with aiohttp.ClientSession() as http:  # a browser that asks is answered
                async with http.get(web.public_url + "/") as resp:
                    assert resp.status == 200
                await asyncio.sleep(1.5)  # past the grace: its kept-alive connection still serves
                async with http.get(web.public_url + "/") as resp:
                    assert resp.status == 200
        finally:
            await _close(srv, web)

    run(go())


def test_accept_failing_is_logged_once_a_minute_not_once_a_try(caplog):
    from colosseum.tui.net.host.webguard import quiet_accept_errors

    async def go():
        loop = asyncio.get_running_loop()
        put_back = quiet_accept_errors(loop)
        for _ in range(1000):
            loop.call_exception_handler(
                {"message": "socket.accept() out of system resource", "exception": OSError(24, "Too many open files")}
            )
        put_back()

    with caplog.at_level("ERROR"):
        run(go())
    said = [r for r in caplog.records if "accept" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in said]


def test_os_environ_of_the_test_is_untouched():
    assert "COLOSSEUM_FRONT" not in os.environ


def test_behind_a_proxy_on_this_machine_the_limits_count_the_forwarded_address(tmp_path):
    """A reverse proxy (TLS, docs) sends every browser from 127.0.0.1: its X-Forwarded-For names
    the browser, so one browser's sessions do not fill the cap for all of them (D-58)."""

    async def go():
        srv, web = await _servers(tmp_path)
        srv.hub.max_per_address = 1
        try:
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                await http.get(web.link_for("key:SHA256:laura", "Laura"))
                url, origin = web.public_url + "/ws?width=80&height=24", web.public_url
                ws = await http.ws_connect(url, origin=origin, headers={"X-Forwarded-For": "198.51.100.7, 203.0.113.5"})
                assert srv.hub.per_address == {"203.0.113.5": 1}  # the address the proxy saw: the last
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:  # the same browser again: over its cap
                    await http.ws_connect(url, origin=origin, headers={"X-Forwarded-For": "203.0.113.5"})
                assert e.value.status == 503
                await ws.close()
        finally:
            await _close(srv, web)

    run(go())


def test_a_forwarded_address_is_believed_only_from_this_machine():
    from aiohttp.test_utils import make_mocked_request

    from colosseum.tui.net.host.web import _peer

    def peer(remote: str, forwarded: str) -> str:
        request = make_mocked_request("GET", "/ws", headers={"X-Forwarded-For": forwarded})
        return _peer(request.clone(remote=remote))

    assert peer("127.0.0.1", "203.0.113.5") == "203.0.113.5"
    assert peer("::1", "10.0.0.1, 2001:db8::1") == "2001:db8::1"
    assert peer("127.0.0.1", "not an address") == "127.0.0.1"
    assert peer("192.0.2.9", "203.0.113.5") == "192.0.2.9"  # a browser's own word: ignored
