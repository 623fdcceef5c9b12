"""The one error type an illegal action raises."""

from __future__ import annotations


class RuleError(ValueError):
    """An action broke a rule.  ``rule`` is the rule id (e.g. 'G-3'); the message names it.

    The state the action was applied to is never changed (states are immutable).
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.detail = message
        super().__init__(f"{rule}: {message}")
