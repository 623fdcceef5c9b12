"""Encoding and decoding states (colosseum.core.games.colosseum.serial): any bad input is a msgspec.DecodeError."""

from __future__ import annotations

import msgspec
import pytest

from colosseum.core.games.colosseum import GameSetup, decode_state, encode_state, new_game


def test_round_trip():
    state = new_game(GameSetup(players=("Becky", "Kat", "Laura"), seed=5))
    assert decode_state(encode_state(state)) == state
    assert decode_state(encode_state(state).decode()) == state


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b"{}",
        b"[1, 2]",
        b'{"setup": 3}',
        b"\xff\xfe",
    ],
)
def test_bad_data(data):
    with pytest.raises(msgspec.DecodeError):
        decode_state(data)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_json(depth):
    """Nesting deeper than the decoder's recursion limit is malformed data, not a RecursionError."""
    for data in (b'{"setup":' * depth + b"1" + b"}" * depth, b'{"players":' + b"[" * depth + b"]" * depth + b"}"):
        with pytest.raises(msgspec.DecodeError):
            decode_state(data)


def test_bad_utf8_inside_a_string():
    state = encode_state(new_game(GameSetup(players=("Becky", "Kat", "Laura"), seed=5)))
    bad = state.replace(b'"Becky"', b'"Be\xc3"', 1)
    assert bad != state
    with pytest.raises(msgspec.DecodeError) as err:
        decode_state(bad)
    assert not isinstance(err.value, UnicodeError)
    with pytest.raises(msgspec.DecodeError):
        decode_state(b'{"setup":{"players":["\xff"]}}')


def test_lone_surrogate_in_text():
    with pytest.raises(msgspec.DecodeError):
        decode_state('{"setup":{"players":["\ud800"]}}')
