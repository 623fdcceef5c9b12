"""TLS on the peer port of several hosts (``serve --host-id NAME --peer-tls``, issue 30).

A host started with ``--peer-tls`` serves its tables to the other hosts' client processes over
TLS.  Its certificate is kept in its data folder (``peer_tls.pem`` and ``peer_tls.key``, made
on the first start: a self-signed P-256 certificate, or the operator's own put there), and it
publishes its peer address with the certificate's SHA-256 fingerprint in the database
(``tls:HOST:PORT#sha256=HEX``).  A client process connecting there accepts that certificate
and no other: the fingerprint comes from the database, which every host already trusts (as
ssh trusts a known host key), so no certificate authority or host name is involved.

The client's side is :mod:`colosseum.tui.net.host.sockets` (``connect_socket``).
"""

from __future__ import annotations

import datetime
import hashlib
import re
import ssl
from pathlib import Path

from .files import write_private

__all__ = ["CERT_FILE", "KEY_FILE", "ensure_cert", "fingerprint", "parse_address", "server_context", "tls_address"]

CERT_FILE = "peer_tls.pem"
KEY_FILE = "peer_tls.key"

_ADDRESS = re.compile(r"tls:(?P<host>.+):(?P<port>\d{1,5})#sha256=(?P<fp>[0-9a-f]{64})")


def ensure_cert(data: Path, host_id: str) -> tuple[Path, Path]:
    """The certificate and key files in ``data``, made if either is missing (the key 0600)."""
    cert, key = data / CERT_FILE, data / KEY_FILE
    if cert.exists() and key.exists():
        return cert, key
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"colosseum peer {host_id}")])
    now = datetime.datetime.now(datetime.UTC)
    made = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=3650))
        .sign(private, hashes.SHA256())
    )
    write_private(
        key,
        private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ),
    )
    write_private(cert, made.public_bytes(serialization.Encoding.PEM))
    return cert, key


def fingerprint(cert: Path) -> str:
    """The SHA-256 of the certificate's DER form, in hex (what ``openssl x509 -fingerprint
    -sha256`` prints, without the colons, in lower case)."""
    der = ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii"))
    return hashlib.sha256(der).hexdigest()


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The peer port's TLS (1.2 at least); ssl.SSLError if the files do not make a pair."""
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(str(cert), str(key))
    return ctx


def tls_address(host: str, port: int, fp: str) -> str:
    return f"tls:{host}:{port}#sha256={fp}"


def parse_address(address: str) -> tuple[str, int, str]:
    """(host, port, fingerprint) of a ``tls:`` address; ValueError if it is not one."""
    m = _ADDRESS.fullmatch(address)
    if m is None:
        raise ValueError(f"bad address {address[:120]!r} (tls:HOST:PORT#sha256=HEX)")
    return m["host"], int(m["port"]), m["fp"]
