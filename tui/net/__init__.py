"""Play over SSH (issue 6): ``colosseum serve`` (``server.py``), the authoritative tables
(``tables.py``), the versioned protocol between the server and its client processes
(``protocol.py``) and the client side (``remote.py``: ``RemoteSession``; ``lobby.py``,
``client.py``).  See README.md in this folder."""
