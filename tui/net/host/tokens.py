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


def make_token(secret: bytes, player: str, name: str) -> str:
    body = base64.urlsafe_b64encode(json.dumps([player, name]).encode()).decode()
    mac = hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{mac}"


def check_token(secret: bytes, token: str) -> tuple[str, str] | None:
    """(player, name) of a good token, None for anything else a client may send."""
    try:
        body, mac = token.rsplit(".", 1)
        good = hmac.new(secret, body.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(good, mac):
            return None
        player, name = json.loads(base64.urlsafe_b64decode(body.encode()))
        return str(player), str(name)
    except (ValueError, TypeError, binascii.Error):
        # no dot, non-ASCII text, bad base64 or JSON (ValueError), not a pair (ValueError, TypeError)
        return None
