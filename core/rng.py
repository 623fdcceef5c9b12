"""The game's generator of chance, whose state lives in the game state.

Two generators, chosen by the setup:

* **SplitMix64** (no ``secret``): the state is 64 bits, stable forever and cheap to carry in a
  frozen Struct.  Local games, the bots' playouts and every log written before server games had
  secrets use it.  It is *not* unpredictable: anyone who learns the seed (31 bits on the old
  server: searchable from the public view) can compute every draw to come.
* **Keyed** (a ``secret``, hex of at least 16 random bytes from the operating system): draw
  ``i`` is the first 8 bytes of BLAKE2b keyed with the secret over the counter ``i``.  The
  state is the counter.  A keyed hash is a pseudo-random function: without the key no number of
  draws seen tells anything about the next one, and there is no seed to search.  Server games
  use it; the log (held by the server only) keeps the secret, so a game still replays byte for
  byte.

Every function takes the generator state ``s`` and the key (``b""``: SplitMix64) and returns
the next state with its draw.
"""

from __future__ import annotations

from functools import lru_cache
from hashlib import blake2b
from typing import TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
SECRET_BYTES = 32  # a new secret: 256 bits from the operating system's generator
MIN_SECRET_BYTES = 16


def new_secret() -> str:
    """A fresh secret for a game whose chance no player may predict (hex, 64 digits)."""
    import secrets  # (here: a local game needs none, and the module costs its start-up time)

    return secrets.token_hex(SECRET_BYTES)


@lru_cache(maxsize=64)
def key_of(secret: str) -> bytes:
    """The key a setup's ``secret`` names (``b""`` for none: SplitMix64).  ValueError for a
    secret that is not hex of 16 to 64 bytes."""
    if not secret:
        return b""
    key = bytes.fromhex(secret)
    if not MIN_SECRET_BYTES <= len(key) <= 64:
        raise ValueError(f"a secret is {MIN_SECRET_BYTES} to 64 bytes of hex, not {len(key)}")
    return key


def seed_state(seed: int, key: bytes = b"") -> int:
    """The generator state a game starts from: SplitMix64's from any integer seed, or counter
    0 for a keyed generator (the seed plays no part then)."""
    if key:
        return 0
    s = (seed * GOLDEN + 0x632BE59BD9B4E019) & MASK
    _, z = next_u64(s)
    return z


def _keyed(s: int, key: bytes) -> int:
    return int.from_bytes(blake2b(s.to_bytes(8, "little"), key=key, digest_size=8).digest(), "little")


def next_u64(s: int, key: bytes = b"") -> tuple[int, int]:
    if key:
        return (s + 1) & MASK, _keyed(s, key)
    s = (s + GOLDEN) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def u64s(s: int, count: int, key: bytes = b"") -> tuple[int, list[int]]:
    """``count`` outputs of :func:`next_u64` in a row and the state after them: the same
    numbers, with the step written out once for a loop (the deal and the markets draw through
    it, each roll of the dice too)."""
    if key:
        return (s + count) & MASK, [_keyed((s + i) & MASK, key) for i in range(count)]
    out = []
    for _ in range(count):
        s = (s + GOLDEN) & MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return s, out


def below(s: int, n: int, key: bytes = b"") -> tuple[int, int]:
    """A number in [0, n) and the next state."""
    s, z = next_u64(s, key)
    return s, z % n


def shuffled(s: int, items: tuple[T, ...], key: bytes = b"") -> tuple[int, tuple[T, ...]]:
    """Fisher-Yates shuffle of ``items``; returns the next state and the shuffled tuple."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        s, j = below(s, i + 1, key)
        out[i], out[j] = out[j], out[i]
    return s, tuple(out)
