"""Each game's client part, one package a game (``colosseum/``, ``municipium/``): its panels,
header line, dialogs, viewer panels, rules and help text, end-screen content and record text,
behind the client interface (:class:`colosseum.tui.client.GameClient`).  The shell never imports
these packages: it loads a game's ``CLIENT`` by the path its ``GameSpec.client_path`` names."""
