"""Tokens: how a client process proves to the table server who the SSH side let in.

The SSH server mints a token for the authenticated identity (``make_token``: an HMAC with the
secret kept in the data folder, so tokens survive a restart); the hub checks it in ``Hello``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path


def load_secret(data: Path) -> bytes:
    """The token key in ``data/secret``, created (0600) on first use."""
    path = data / "secret"
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        key = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key.hex())
        return key


def make_token(secret: bytes, player: str, name: str, address: str = "") -> str:
    """A token for ``player`` shown as ``name``, connecting from ``address`` (the SSH or web
    client's source address: the table server caps the tables one address makes; '' for none)."""
    parts = [player, name, address] if address else [player, name]
    body = base64.urlsafe_b64encode(json.dumps(parts).encode()).decode()
    mac = hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{mac}"


def check_token(secret: bytes, token: str) -> tuple[str, str] | None:
    """(player, name) of a good token, None for anything else a client may send."""
    parts = token_parts(secret, token)
    return None if parts is None else parts[:2]


def token_parts(secret: bytes, token: str) -> tuple[str, str, str] | None:
    """(player, name, address) of a good token ('' for no address), None for anything else."""
    try:
        body, mac = token.rsplit(".", 1)
        good = hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(good, mac):
            return None
        player, name, *rest = json.loads(base64.urlsafe_b64decode(body.encode()))
        if len(rest) > 1:
            return None
        return str(player), str(name), str(rest[0]) if rest else ""
    except (ValueError, TypeError, binascii.Error):
        # no dot, non-ASCII text, bad base64 or JSON (ValueError), not a pair (ValueError, TypeError)
        return None
