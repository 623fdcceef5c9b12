"""``colosseum serve`` lives in the headless host (``host.ssh``); this name stays for ``cli``."""

from .host.ssh import cmd_serve, start_server

__all__ = ["cmd_serve", "start_server"]
