"""Each ``hiera-ls`` command imports only what it uses: a plain lookup loads no language
server, no reports, no checks and no cryptography (eyaml's only with ``--decrypt``), nor
what only a rarer path needs: Puppet's type system (``--type``, a merge or hiera.yaml whose
values are not plain data), ruamel.yaml (the libyaml that reads what PyYAML's reads unlike
Puppet's), ``regex`` (lookup_options patterns and knockout prefixes beyond plain text),
the PuppetDB client, the server's re-parse after an edit, the quick fixes, HOCON and JSON
readers. ``check`` loads no cryptography, PuppetDB client or report format it does not
write. Every dataclass has a docstring: without one, Python builds the class's signature
text with ``inspect`` at import, which costs a cold start more than the class itself."""

from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import hiera_ls

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
    "hiera_ls.source.yaml_reparse",
    "hiera_ls.fleet",
    "hiera_ls.project.path_patterns",  # .hiera-ls.yaml's path rules (the example has none)
    "hiera_ls.source.ruby_glob",  # glob levels (the example's hierarchy has none)
    "regex",
    "http",
    "socket",
    # the standard library's that a lookup does without: pathlib (with urllib and ipaddress;
    # the schemas are found with os.path), shutil (argparse's terminal width, read directly)
    "pathlib",
    "urllib",
    "ipaddress",
    "shutil",
    "string",  # (the YAML loader's ASCII letters are written out)
)
# what ``check`` leaves out: eyaml's cryptography without an eyaml key or block, the
# PuppetDB client without --puppetdb, --fix, the formats it does not write
CHECK_LEAVES = (
    "pygls",
    "lsprotocol",
    "cryptography",
    "hiera_ls.lsp",
    "hiera_ls.fleet.connection",
    "hiera_ls.fleet.source",
    "http",
    "ssl",
    "socket",
    "xml",
    "regex",
    "hiera_ls.report.fix",
    "hiera_ls.report.sarif",
    "hiera_ls.report.junit",
    "hiera_ls.report.gitlab",
)


def _loaded_by(argv: list[str], heavy: tuple[str, ...] = HEAVY) -> list[str]:
    script = (
        "import json, sys\n"
        "from hiera_ls.cli import main\n"
        f"code = main({argv!r})\n"
        f"heavy = {heavy!r}\n"
        "print(json.dumps([h for h in heavy if any(m == h or m.startswith(h + '.') "
        "for m in sys.modules)]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=EXAMPLE, timeout=120
    )
    assert run.returncode == 0, run.stderr
    return list(json.loads(run.stdout.splitlines()[-1]))


@pytest.fixture(scope="module")
def plain_lookup_process() -> list[str]:
    """What one process started for a plain lookup (``main()``, as the ``hiera-ls`` script
    calls it) printed: the heavy modules it imported, then whether it froze what it imported,
    and what a second ``main(words)`` in it left frozen. Both tests below read this one run
    (a fresh interpreter costs more than either test's own work)."""
    script = (
        "import gc, json, sys\n"
        "from hiera_ls.cli import main\n"
        "words = ['lookup', 'profile::base::packages', '--node', 'web01.example.com']\n"
        "sys.argv = ['hiera-ls', *words]\n"
        "code = main()\n"
        "frozen = gc.get_freeze_count()\n"
        f"heavy = {HEAVY!r}\n"
        "print('loaded', json.dumps([h for h in heavy if any(m == h or m.startswith(h + '.') "
        "for m in sys.modules)]))\n"
        "gc.unfreeze()\n"
        "main(words)\n"
        "print('frozen', code, frozen > 10_000, gc.get_freeze_count())\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=EXAMPLE, timeout=120
    )
    assert run.returncode == 0, run.stderr
    said = dict(line.split(" ", 1) for line in run.stdout.splitlines() if " " in line)
    return [said["loaded"], said["frozen"]]


def test_a_plain_lookup_loads_no_server_report_check_or_cryptography(
    plain_lookup_process: list[str],
) -> None:
    loaded, _ = plain_lookup_process
    assert json.loads(loaded) == []


def test_a_deep_merge_with_a_knockout_prefix_loads_no_regex() -> None:
    """The example's ``profile::base::users`` merges deep with ``knockout_prefix: "--"``, and
    its lookup_options has a ``^...(a|b)$`` pattern: both plain, run on ``re``."""
    assert _loaded_by(["lookup", "profile::base::users", "--node", "web01.example.com"]) == []


def test_check_loads_no_cryptography_puppetdb_client_or_unused_format() -> None:
    assert _loaded_by(["check", "."], CHECK_LEAVES) == []


def test_every_dataclass_has_a_docstring() -> None:
    for found in pkgutil.walk_packages(hiera_ls.__path__, "hiera_ls."):
        if not found.name.endswith("__main__"):
            importlib.import_module(found.name)
    bare = sorted(
        f"{cls.__module__}.{cls.__qualname__}"
        for name, module in list(sys.modules.items())
        if name == "hiera_ls" or name.startswith("hiera_ls.")
        for cls in vars(module).values()
        if isinstance(cls, type)
        and cls.__module__ == name
        and dataclasses.is_dataclass(cls)
        and (cls.__doc__ or "").startswith(f"{cls.__name__}(")  # the one dataclass wrote
    )
    assert bare == []


def test_the_command_process_keeps_what_it_imported_from_the_collector(
    plain_lookup_process: list[str],
) -> None:
    """A process started for the command freezes what the command imported (every later
    collection, and the one at exit, skips it); a caller running ``main`` in its own process,
    as these tests do, keeps its collector as it was (nothing of its own frozen for good)."""
    _, frozen = plain_lookup_process
    assert frozen == "0 True 0"
