"""Play over SSH: ``colosseum serve`` (the headless host in ``host/``: SSH server, table
server, protocol) and the client process it starts for each terminal (``client.py``: the
lobby in ``lobby.py``, the game over a ``RemoteSession`` from ``remote.py``).  See README.md
in this folder."""
