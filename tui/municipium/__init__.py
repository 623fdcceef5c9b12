"""Names kept for the SSH client's Municipium table (``tui/net/muni_remote.py``, which the host's
one ``RemoteSession`` replaces): nothing here knows a game.  Remove this package with
``muni_remote.py``."""
