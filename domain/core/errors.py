"""Errors split by cause: a rule violation (the caller's fault, state unchanged) or a bug."""


class RuleViolation(Exception):
    """A command the rules do not allow; the message is meant for a player."""

    status = 422

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class WrongPhase(RuleViolation):
    """A command that would be fine at another moment of the match (lobby, play, over)."""

    status = 409


class NotYourTurn(RuleViolation):
    """A seat acted when the rules ask another seat to act."""

    status = 409


class BrokenInvariant(AssertionError):
    """The state contradicts the rules: a bug in our code, never the caller's fault."""
