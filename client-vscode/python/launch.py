"""Starts the hiera-ls a platform build of the VS Code extension carries.

The extension runs ``python -I bundled/tool/launch.py serve`` with a CPython it has checked
against ``bundled/manifest.json``; this script puts ``bundled/libs`` first on the path and
hands the arguments to hiera-ls. Isolated mode (``-I``) keeps the working directory,
PYTHONPATH and the user's site-packages out, so only the carried packages are imported.

Written for any Python to parse (no f-strings), so that an interpreter too old for
hiera-ls still prints why rather than a SyntaxError.
"""

import os
import sys

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")


def main():
    version = ".".join(str(n) for n in sys.version_info[:3])
    if sys.version_info < (3, 11):  # noqa: UP036 (run by any Python, to say this)
        sys.stderr.write(
            "hiera-ls needs Python 3.11 or newer; %s is Python %s.\n"  # noqa: UP031
            % (sys.executable, version)
        )
        return 2
    sys.path.insert(0, LIBS)
    try:
        from hiera_ls.cli import main as hiera_ls
    except ImportError as error:
        sys.stderr.write(
            "The hiera-ls carried by the extension does not load in %s (Python %s): %s\n"  # noqa: UP031
            % (sys.executable, version, error)
        )
        return 2
    return hiera_ls(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
