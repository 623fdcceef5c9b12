"""The game by phase, one module per phase (boardgame.io style), so that a phase reads in one file.

Each module holds, for its phase:

* ``HANDLERS``: action type -> handler ``(ctx, action)`` that checks the action against the rules
  (raising :class:`~colosseum.core.errors.RuleError`) and applies it to the context;
* ``to_act(state)``: the seat the phase waits for;
* ``offer(state, seat, cat, acts, bids)``: its part of ``legal()``;
* ``end_turn(ctx, action)``: what :class:`~colosseum.core.games.colosseum.actions.EndTurn` means in it;
* the public helpers the engine re-exports (``check_deal``, ``noble_step_range`` ...).

Phases hand over to the next by calling its entry point (setup -> hire's markets, invest ->
hire, perform -> closing), so the imports run one way: setup, invest -> hire; perform -> closing.
The shared pieces are below them all: :mod:`colosseum.core.games.colosseum.context` (the context, G-7 stars,
G-9 end) and :mod:`colosseum.core.games.colosseum.queries` (the pure rules).
"""

__all__ = ["closing", "hire", "invest", "perform", "setup", "trade"]
