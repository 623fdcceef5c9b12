"""Signed web tokens: the one-time sign-in links ``w`` shows in the SSH lobby and the browser's
session cookie (``host.web``).  HMAC-SHA256 with a key of their own derived from the table
server's secret, so the table server (which mints links for its connections) and the web
gateway (which checks them) agree without sharing anything else.  Standard library only."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from typing import Any

__all__ = ["LINK_MINUTES", "Signer", "link_path"]

LINK_MINUTES = 10


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Signs and checks the server's web tokens."""

    def __init__(self, secret: bytes) -> None:
        self.key = hmac.new(secret, b"colosseum web tokens", hashlib.sha256).digest()

    def sign(self, payload: dict[str, Any]) -> str:
        body = _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode())
        mac = hmac.new(self.key, body.encode(), hashlib.sha256).digest()
        return f"{body}.{_b64(mac)}"

    def check(self, token: str) -> dict[str, Any] | None:
        """The payload of a token this server signed and that has not expired, else None."""
        body, _, mac = token.partition(".")
        if not body or not mac or len(token) > 4096:
            return None
        try:
            want = hmac.new(self.key, body.encode(), hashlib.sha256).digest()
            if not hmac.compare_digest(want, _unb64(mac)):
                return None
            payload = json.loads(_unb64(body))
        except (ValueError, TypeError):
            return None
        if not isinstance(payload, dict) or float(payload.get("e", 0)) < time.time():
            return None
        return payload

    def link_token(self, identity: str, name: str) -> str:
        """A one-time sign-in token for this player (valid ``LINK_MINUTES``, used once)."""
        nonce = secrets.token_urlsafe(12)
        return self.sign({"i": identity, "n": name, "e": time.time() + LINK_MINUTES * 60, "j": nonce})


def link_path(token: str) -> str:
    return f"/login/{token}"
