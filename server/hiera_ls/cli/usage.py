"""The failure a user causes on the command line: one line on stderr, never a traceback."""


class UsageError(Exception):
    pass
