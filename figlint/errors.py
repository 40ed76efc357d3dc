"""Errors that end one input (or the whole run) with a one-line message.

InputError: this input cannot be read at all (missing, not a PDF, corrupt,
encrypted). The engine reports it as FL001 and goes on with other inputs;
the CLI exits 2. UsageError: the command line or configuration is wrong.
FeatureFailed is not shown to the user as such: it carries a failure inside
a figure's analysis to the engine, which reports it as FL009.
"""


class FiglintError(Exception):
    """Base class: the message is shown to the user as one line."""


class InputError(FiglintError):
    pass


class UsageError(FiglintError):
    pass


class FeatureFailed(Exception):
    """A figure's analysis, or one of its derived features, raised.

    The failure is kept in place of the value, so every rule that reads the
    feature meets the same exception instead of recomputing it; the engine
    reports it once per figure as FL009 and the other rules go on.
    """

    def __init__(self, feature: str, exc: BaseException):
        super().__init__(f"{feature}: {type(exc).__name__}: {exc}")
        self.feature = feature
        self.exc = exc
        self.reported = False
