"""A client's connection to a table server: ``unix:PATH``, ``tcp:HOST:PORT``, or
``tls:HOST:PORT#sha256=HEX`` (another host's peer port under ``--peer-tls``, the certificate
pinned by its fingerprint: :mod:`colosseum.tui.net.host.peertls`).

The client (``tui/net/remote.RemoteClient``) reads on one thread and sends from others at once.
An ``ssl.SSLSocket`` must not be used by two threads at the same time, so a TLS connection is
:class:`TLSChannel`: the TLS state is an ``ssl.SSLObject`` over memory buffers, touched only under
one lock, and the bytes it makes are written to the socket in the order it made them.
"""

from __future__ import annotations

import hashlib
import socket
import ssl
import threading

__all__ = ["TLSChannel", "connect_socket"]

HANDSHAKE_SECONDS = 10.0


def connect_socket(address: str, timeout: float = 10.0) -> socket.socket | TLSChannel:
    """A connected socket (or TLS channel) to ``address``; OSError if it cannot be made
    (ssl.SSLError, an OSError, when the peer's certificate is not the one pinned)."""
    kind, _, rest = address.partition(":")
    if kind == "unix":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(timeout)
        s.connect(rest)
    elif kind in ("tcp", "tls"):
        fp = ""
        if kind == "tls":
            from .peertls import parse_address

            host, port, fp = parse_address(address)
        else:
            host, _, p = rest.rpartition(":")
            port = int(p)
        s = socket.create_connection((host, port), timeout=timeout)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if fp:
            return TLSChannel(s, fp, min(timeout, HANDSHAKE_SECONDS))
    else:
        raise ValueError(f"bad address {address!r} (unix:PATH, tcp:HOST:PORT or tls:HOST:PORT#sha256=HEX)")
    s.settimeout(None)
    return s


class TLSChannel:
    """A TLS client connection over ``sock`` that accepts only the certificate whose SHA-256
    is ``fp``; ``recv`` on one thread and ``sendall`` on others may run at the same time."""

    def __init__(self, sock: socket.socket, fp: str, timeout: float = HANDSHAKE_SECONDS) -> None:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        ctx.check_hostname = False  # the certificate is pinned below, not named
        ctx.verify_mode = ssl.CERT_NONE
        self.sock = sock
        self._in, self._out = ssl.MemoryBIO(), ssl.MemoryBIO()
        self._tls = ctx.wrap_bio(self._in, self._out, server_side=False)
        self._state = threading.Lock()  # every use of the TLS object
        self._send = threading.Lock()  # the socket's writes, in the order the TLS object made them
        try:
            sock.settimeout(timeout)
            self._handshake()
            der = self._tls.getpeercert(binary_form=True) or b""
            if hashlib.sha256(der).hexdigest() != fp:
                raise ssl.SSLError("the peer host's certificate is not the one it published")
            sock.settimeout(None)
        except BaseException:
            sock.close()
            raise

    def _handshake(self) -> None:
        while True:
            try:
                self._tls.do_handshake()
                self._flush()
                return
            except ssl.SSLWantReadError:
                self._flush()
                data = self.sock.recv(65536)
                if not data:
                    raise ssl.SSLEOFError("the peer host closed the connection during the TLS handshake") from None
                self._in.write(data)

    def _flush(self) -> None:
        """Send what the TLS object has made (the caller holds no lock, or ``_send`` only)."""
        with self._state:
            out = self._out.read()
        if out:
            self.sock.sendall(out)

    def sendall(self, data: bytes) -> None:
        with self._send:
            with self._state:
                self._tls.write(data)
                out = self._out.read()
            self.sock.sendall(out)

    def recv(self, size: int) -> bytes:
        """Up to ``size`` bytes of plain text; b"" when the connection ended."""
        while True:
            with self._state:
                try:
                    data = self._tls.read(size)
                except ssl.SSLWantReadError:
                    data = None
                except ssl.SSLZeroReturnError:
                    return b""
                pending = self._out.pending
            if pending:  # (e.g. the answer to a key update)
                with self._send:
                    self._flush()
            if data is not None:
                return data
            raw = self.sock.recv(65536)
            if not raw:
                return b""
            with self._state:
                self._in.write(raw)

    def shutdown(self, how: int) -> None:
        self.sock.shutdown(how)

    def close(self) -> None:
        self.sock.close()

    def settimeout(self, value: float | None) -> None:
        self.sock.settimeout(value)
