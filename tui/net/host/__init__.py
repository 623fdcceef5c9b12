"""The headless host of ``colosseum serve``: no Textual, no Rich, nothing of the client, and no
game named: a table plays any game of ``core.registry`` through its rules.

| module | what |
|---|---|
| ``protocol`` | the versioned messages between the host and its client processes, their framing, ``Codec`` (a game's values on the wire) |
| ``tokens`` | the HMAC tokens by which a client process proves who the SSH side let in |
| ``hub`` | ``TableServer``: the socket, the connections and the dispatch of their requests, creating tables |
| ``table`` | ``Table``: one authoritative game of any game and everyone at it (views per seat, commit, start, restore) |
| ``seats`` | who sits where, who is present, stand-ins for absent players, take-overs |
| ``clock`` | the decision clock |
| ``chat`` | a table's talk |
| ``takeback`` | the positions kept for taking back, and how far a seat may go |
| ``botplay`` | the bots: their moves, their offers, waiting for people who may act out of turn |
| ``seen`` | what a seat could foresee: take-back boundaries and the review's positions |
| ``gamelog_io`` | a table's game log in ``colosseum.core.gamelog`` format, and what the table keeps of it |
| ``meta`` | ``TableMeta`` (a table's description), files of older versions, names, options in words |
| ``files`` | the data folder's files |
| ``conn`` | one client process's connection |
| ``names`` | user text as the server keeps it |
| ``options`` | every ``serve`` option (no asyncssh import) |
| ``ssh``, ``ssh_login``, ``ssh_pty`` | the asyncssh server: starting it, the login policy, a terminal's client process |
| ``proto_client`` | ``ProtoClient``: an asyncio client of the protocol (tests, benchmark) |
| ``testing`` | protocol-level players of any game and helpers for tests and the load benchmark |

An import-linter contract (pyproject.toml) keeps this package free of ``textual``, ``rich``
and the rest of ``colosseum.tui``; mypy checks it strictly.
"""
