"""The engine: every game's rules behind one interface, and the machinery they share.

Each game is a package of its own under ``core/games/`` (Colosseum, Municipium, and any game
another distribution registers); this package names none of them.  Here live what belongs to no
game: the errors, the events, the generator of chance, the game log (format, reader, writer,
digest chain), taking back, simulation, the game interface and the registry that finds games.
Pure Python over frozen msgspec Structs; never imports the client.
"""
