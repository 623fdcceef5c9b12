"""The games this program ships, each a package: ``colosseum`` and ``municipium``.  The
registry (:mod:`colosseum.core.registry`) finds them, and any other game a distribution
registers in the ``colosseum.games`` entry-point group."""
