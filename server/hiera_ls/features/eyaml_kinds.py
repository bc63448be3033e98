"""eyaml's code action kinds (client-vscode/src/eyaml.ts names the encrypt one): the server
registers them at start, before features/eyaml.py (and what it imports) is loaded by the
first code action request."""

from __future__ import annotations

ENCRYPT_KIND = "refactor.rewrite.eyaml.encrypt"
DECRYPT_KIND = "source.eyaml.decrypt"
