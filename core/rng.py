"""A small, fully specified PRNG (SplitMix64) whose state lives in the game state.

Python's ``random`` is not used: its state is large and its algorithms may change between
versions; this one is 64 bits, stable forever, and cheap to carry in a frozen Struct.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Turn any integer seed into a PRNG state."""
    s = (seed * GOLDEN + 0x632BE59BD9B4E019) & MASK
    _, z = next_u64(s)
    return z


def next_u64(s: int) -> tuple[int, int]:
    s = (s + GOLDEN) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def u64s(s: int, count: int) -> tuple[int, list[int]]:
    """``count`` outputs of :func:`next_u64` in a row and the state after them: the same
    numbers, with the step written out once for a loop (the deal and the markets draw through
    it, each roll of the dice too)."""
    out = []
    for _ in range(count):
        s = (s + GOLDEN) & MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return s, out


def below(s: int, n: int) -> tuple[int, int]:
    """A number in [0, n) and the next state."""
    s, z = next_u64(s)
    return s, z % n


def shuffled(s: int, items: tuple[T, ...]) -> tuple[int, tuple[T, ...]]:
    """Fisher-Yates shuffle of ``items``; returns the next state and the shuffled tuple."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        s, j = below(s, i + 1)
        out[i], out[j] = out[j], out[i]
    return s, tuple(out)
