"""Errors that end one input (or the whole run) with a one-line message.

InputError: this input cannot be read at all (missing, not a PDF, corrupt,
encrypted). The engine reports it as FL001 and goes on with other inputs;
the CLI exits 2. UsageError: the command line or configuration is wrong.
"""


class FiglintError(Exception):
    """Base class: the message is shown to the user as one line."""


class InputError(FiglintError):
    pass


class UsageError(FiglintError):
    pass
