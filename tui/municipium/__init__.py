"""The Municipium client: its own session, screen, panels, dialogs and help, on the shared
BaseApp (themes, ASCII keys).  Everything here reads ``colosseum.core.games.municipium`` and acts only
through ``MuniLocalSession.submit``; no rule is decided in the client.

Entry point for the CLI: ``colosseum.tui.municipium.app.run_municipium``.
"""
