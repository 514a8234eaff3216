"""What a round's or heat's state forbids, said in the user's language."""


class RoundStateError(Exception):
    """What was asked is not possible in the round's or heat's current state."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
