"""Each ``hiera-ls`` command imports only what it uses: a plain lookup loads no language
server, no reports, no checks and no cryptography (eyaml's only with ``--decrypt``), nor
what only a rarer path needs: Puppet's type system (``--type``, a merge or hiera.yaml whose
values are not plain data), ruamel.yaml (the libyaml that reads what PyYAML's reads unlike
Puppet's), the quick fixes, HOCON and JSON readers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "control-repo"
HEAVY = (
    "pygls",
    "lsprotocol",
    "cryptography",
    "hiera_ls.lsp",
    "hiera_ls.report",
    "hiera_ls.checks",
    "hiera_ls.puppet.types",
    "hiera_ls.puppet.type_parser",
    "ruamel",
    "hiera_ls.source.loader_fixes",
    "hiera_ls.source.hocon_includes",
    "hiera_ls.source.hocon_data",
    "hiera_ls.source.json_loader",
)


def _loaded_by(argv: list[str]) -> list[str]:
    script = (
        "import json, sys\n"
        "from hiera_ls.cli import main\n"
        f"code = main({argv!r})\n"
        f"heavy = {HEAVY!r}\n"
        "print(json.dumps([h for h in heavy if any(m == h or m.startswith(h + '.') "
        "for m in sys.modules)]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=EXAMPLE, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return list(json.loads(run.stdout.splitlines()[-1]))


def test_a_plain_lookup_loads_no_server_report_check_or_cryptography() -> None:
    assert _loaded_by(["lookup", "profile::base::packages", "--node", "web01.example.com"]) == []
