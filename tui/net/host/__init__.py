"""The headless host of ``colosseum serve``: no Textual, no Rich, nothing of the client.

| module | what |
|---|---|
| ``protocol`` | the versioned messages between the host and its client processes, and their framing |
| ``tokens`` | the HMAC tokens by which a client process proves who the SSH side let in |
| ``table`` | ``Table``: one authoritative game (seats, bots, stand-ins, log, chat) |
| ``hub`` | ``TableServer``: the socket, the connections and the dispatch of their requests |
| ``gamelog_io`` | a table's game log in ``colosseum.core.gamelog`` format |
| ``ssh`` | ``start_server``, ``cmd_serve``: the asyncssh server that starts a client per terminal |
| ``proto_client`` | ``ProtoClient``: an asyncio client of the protocol (tests, benchmark) |
| ``testing`` | protocol-level players and helpers for tests and the load benchmark |

An import-linter contract (pyproject.toml) keeps this package free of ``textual``, ``rich``
and the rest of ``colosseum.tui``.
"""
