"""The modules a control repository's Puppetfile declares: r10k and Code Manager deploy them
into the environment's ``modules/`` on the server, so a clone of the repository usually
lacks them (that directory is ignored by git). What such a module defines (functions,
classes) is unknown to hiera-ls, and the checks that would need it stay quiet."""

from __future__ import annotations

import os
import re

from hiera_ls.source.files import FileAccess

PUPPETFILE = "Puppetfile"
# mod 'puppetlabs/stdlib', '9.4.1'  |  mod 'puppetlabs-stdlib'  |  mod('ntp', :git => ...)
_MOD = re.compile(r"""^\s*mod\s*\(?\s*(['"])([^'"]+)\1""", re.MULTILINE)


def declared_modules(env_root: str, files: FileAccess) -> frozenset[str]:
    """The module names (``stdlib`` for ``puppetlabs/stdlib``) the environment's Puppetfile
    declares; none without one."""
    text = files.read_text(os.path.join(env_root, PUPPETFILE))
    if not text:
        return frozenset()
    names = set()
    for m in _MOD.finditer(text):
        full = m.group(2).strip()
        names.add(re.split(r"[/-]", full)[-1].lower())
    return frozenset(n for n in names if n)
