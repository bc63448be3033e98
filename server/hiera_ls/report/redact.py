"""Messages for reports that leave the machine: keys, paths and types, never data values.

A CI log or a code-scanning upload is read by more people than the repository's data (which
may hold passwords that eyaml does not cover). A problem's message is built from parts that
say what they are (``puppet/message.py``): a report shows every part but the data values,
which it masks, exactly and without reading the words; ``check --show-values`` shows them
to a person at a terminal. Each rule's record says whether its messages may quote values.
"""

from __future__ import annotations

from hiera_ls.puppet.message import MASK, Text

__all__ = ["MASK", "shown"]


def shown(text: Text, values: bool = False) -> str:
    """``text`` as a report prints it: data values masked, unless ``values``."""
    return text.shown(values)
