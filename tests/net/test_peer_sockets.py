"""The client's TLS channel to another host's peer port (host/sockets.py, host/peertls.py): the
certificate made once and kept, pinned by its fingerprint; one reader thread and several sender
threads at once keep every byte in order; an address that is not one is refused."""

from __future__ import annotations

import asyncio
import hashlib
import socket
import ssl
import threading

import pytest

from colosseum.tui.net.host import peertls
from colosseum.tui.net.host.sockets import TLSChannel, connect_socket


def test_the_certificate_is_made_once_and_kept(tmp_path):
    cert, key = peertls.ensure_cert(tmp_path, "h1")
    fp = peertls.fingerprint(cert)
    assert key.stat().st_mode & 0o777 == 0o600
    assert peertls.ensure_cert(tmp_path, "h1") == (cert, key)
    assert peertls.fingerprint(cert) == fp and len(fp) == 64
    der = ssl.PEM_cert_to_DER_cert(cert.read_text())
    assert hashlib.sha256(der).hexdigest() == fp
    assert peertls.server_context(cert, key) is not None
    key.unlink()  # half a pair: both made again
    cert2, _ = peertls.ensure_cert(tmp_path, "h1")
    assert peertls.fingerprint(cert2) != fp


@pytest.mark.parametrize(
    "address",
    ["tls:127.0.0.1:7000", "tls:127.0.0.1:x#sha256=" + "a" * 64, "tls:h:1#sha256=" + "g" * 64, "udp:h:1"],
)
def test_addresses_that_are_not_ones_are_refused(address):
    with pytest.raises(ValueError):
        connect_socket(address)


class EchoServer:
    """An asyncio TLS server on a thread that sends back every byte it gets."""

    def __init__(self, ctx: ssl.SSLContext) -> None:
        self.ready = threading.Event()
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.ctx = ctx
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)

    def _run(self) -> None:
        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
            writer.close()

        async def main() -> None:
            srv = await asyncio.start_server(echo, "127.0.0.1", 0, ssl=self.ctx)
            self.port = srv.sockets[0].getsockname()[1]
            self.ready.set()
            async with srv:
                await srv.serve_forever()

        try:
            self.loop.run_until_complete(main())
        except RuntimeError:
            pass

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


def test_one_reader_and_several_senders_at_once_keep_every_byte(tmp_path):
    cert, key = peertls.ensure_cert(tmp_path, "h1")
    server = EchoServer(peertls.server_context(cert, key))
    try:
        chan = connect_socket(peertls.tls_address("127.0.0.1", server.port, peertls.fingerprint(cert)))
        assert isinstance(chan, TLSChannel)
        senders, each, size = 4, 200, 700  # records of several sizes, interleaved by the threads
        expected = {
            i: b"".join(bytes([65 + i]) * size + f"{n:06d}".encode() for n in range(each)) for i in range(senders)
        }
        got = bytearray()
        total = sum(len(v) for v in expected.values())

        def read() -> None:
            while len(got) < total:
                data = chan.recv(65536)
                if not data:
                    return
                got.extend(data)

        reader = threading.Thread(target=read)
        reader.start()

        def send(i: int) -> None:
            for n in range(each):
                chan.sendall(bytes([65 + i]) * size + f"{n:06d}".encode())

        threads = [threading.Thread(target=send, args=(i,)) for i in range(senders)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        reader.join(30)
        assert len(got) == total
        # each sender's messages arrive whole and in its order (the threads interleave whole messages)
        unit = size + 6
        per: dict[int, list[bytes]] = {i: [] for i in range(senders)}
        for k in range(0, total, unit):
            msg = bytes(got[k : k + unit])
            per[msg[0] - 65].append(msg)
        assert {i: b"".join(v) for i, v in per.items()} == expected
        chan.shutdown(socket.SHUT_RDWR)
        chan.close()
    finally:
        server.stop()


def test_another_certificate_is_refused_before_anything_is_sent(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    cert, key = peertls.ensure_cert(tmp_path / "a", "h1")
    other, _ = peertls.ensure_cert(tmp_path / "b", "h2")
    server = EchoServer(peertls.server_context(cert, key))
    try:
        with pytest.raises(ssl.SSLError, match="not the one it published"):
            connect_socket(peertls.tls_address("127.0.0.1", server.port, peertls.fingerprint(other)))
    finally:
        server.stop()
