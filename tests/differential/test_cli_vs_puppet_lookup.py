"""`hiera-ls lookup` and `puppet lookup` given the same command line print the same thing.

The oracle answers lookups from inside Puppet; these run the real `puppet lookup` command
(about two seconds each) for what only its command line decides: how its flags are parsed
(`--knock-out-prefix --`), `--type`, `--explain-options` and the text it prints.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from hiera_ls.project.legacy_facts import facter_legacy_facts
from hiera_ls.project.targets import Target
from tests.differential.known_differences import ruby_words
from tests.oracle.engines import PuppetEngine, settings_flags

pytestmark = pytest.mark.puppet

NODE = "web01.example.com"
FACTS = {
    "clientcert": NODE,
    "fqdn": NODE,
    "hostname": "web01",
    "domain": "example.com",
    "role": "web",
    "os": {"family": "Debian"},
}
HIERA = """\
version: 5
hierarchy:
  - name: Node
    path: "nodes/%{trusted.certname}.yaml"
  - name: Role
    path: "roles/%{facts.role}.yaml"
  - name: Common
    path: common.yaml
"""


@dataclass(frozen=True)
class Printed:
    status: int
    stdout: str
    error: str  # the first `Error:` line, without Puppet's "Could not run: "


def layout(base: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (base / "facts.json").write_text(json.dumps(FACTS))
    for d in ("conf", "code", "var", "empty"):
        (base / d).mkdir(exist_ok=True)


def common_flags(base: Path, environment: str = "production") -> list[str]:
    return [
        "--environmentpath", str(base / "environments"), "--environment", environment,
        "--node", NODE, "--facts", str(base / "facts.json"),
    ]  # fmt: skip


def puppet_lookup(
    engine: PuppetEngine,
    base: Path,
    args: Sequence[str],
    hiera_config: Path | None = None,
    flags: Sequence[str] | None = None,
) -> Printed:
    config = hiera_config or base / "empty" / "hiera.yaml"
    # a vardir each: the lookups run in parallel, and two Puppets creating var/state at once
    # fail with "Could not set 'directory' on ensure: File exists"
    vardir = tempfile.mkdtemp(prefix="var-", dir=base)
    cmd = [
        "puppet", "lookup", "--confdir", str(base / "conf"), "--codedir", str(base / "code"),
        "--vardir", vardir, "--hiera_config", str(config),
        "--basemodulepath", str(base / "empty"), *settings_flags(engine.target),
        "--color", "false", *(common_flags(base) if flags is None else flags), *args,
    ]  # fmt: skip
    run = subprocess.run(
        engine.command(cmd, cwd=base), capture_output=True, text=True, timeout=120, cwd=base
    )
    errors = [x for x in run.stderr.splitlines() if x.startswith("Error: ")]
    error = errors[0].removeprefix("Error: ").removeprefix("Could not run: ") if errors else ""
    return Printed(run.returncode, as_the_node_has_them(run.stdout, engine.target), error)


def as_the_node_has_them(explained: str, target: Target) -> str:
    """``--explain`` output with the node's facts as a node of the target has them: `puppet
    lookup --facts` keeps the legacy facts of the file, a Puppet 8 node (and hiera-ls) has
    none (docs/differences.md#targets), so their lines leave the facts dump."""
    if target.include_legacy_facts:
        return explained
    lines = explained.splitlines(keepends=True)
    out: list[str] = []
    inside: str | None = None  # the indent of the facts hash's entries while in it
    for line in lines:
        stripped = line.lstrip(" ")
        indent = " " * (len(line) - len(stripped))
        if inside is None and stripped.startswith('Found key: "facts" value: {'):
            inside = indent + "  "
        elif inside is not None and indent == inside[:-2] and stripped.startswith("}"):
            inside = None
            if out[-1].rstrip("\n").endswith(","):  # the entry left last loses its comma
                out[-1] = out[-1].rstrip("\n")[:-1] + "\n"
        elif inside is not None and indent == inside:
            name = re.match(r'"([^"]+)" => ', stripped)
            if name and facter_legacy_facts({name.group(1): None}):
                continue
        out.append(line)
    return "".join(out)


def hiera_ls_lookup(
    engine: PuppetEngine,
    base: Path,
    args: Sequence[str],
    hiera_config: Path | None = None,
    flags: Sequence[str] | None = None,
) -> Printed:
    config = ["--hiera-config", str(hiera_config)] if hiera_config else []
    given = common_flags(base) if flags is None else flags
    target = ["--target", engine.target.name]
    cmd = [sys.executable, "-m", "hiera_ls", "lookup", *given, *config, *target, *args]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=base)
    errors = [x for x in run.stderr.splitlines() if x.startswith("Error: ")]
    return Printed(run.returncode, run.stdout, errors[0].removeprefix("Error: ") if errors else "")


def both(
    engine: PuppetEngine,
    base: Path,
    command_lines: Sequence[Sequence[str]],
    hiera_config: Path | None = None,
    flags: Sequence[str] | None = None,
) -> list[tuple[Printed, Printed]]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        theirs = list(
            pool.map(lambda a: puppet_lookup(engine, base, a, hiera_config, flags), command_lines)
        )
    ours = [hiera_ls_lookup(engine, base, a, hiera_config, flags) for a in command_lines]
    return list(zip(theirs, ours, strict=True))


def same(pairs: Sequence[tuple[Printed, Printed]], lines: Sequence[Sequence[str]]) -> int:
    """Asserts each pair printed the same (Ruby's version-dependent words in an error aside:
    docs/differences.md#ruby-error-texts); returns how many agreed (all of them)."""
    for args, (theirs, ours) in zip(lines, pairs, strict=True):
        assert (ours.status, ours.stdout, ruby_words(ours.error)) == (
            theirs.status,
            theirs.stdout,
            ruby_words(theirs.error),
        ), args
    return len(pairs)


KNOCKOUT = {
    "environments/production/hiera.yaml": HIERA,
    f"environments/production/data/nodes/{NODE}.yaml": "k: ['--x', 'n']\nh: {a: '--'}\n",
    "environments/production/data/common.yaml": "k: [x, z]\nh: {a: 1, b: 2}\n",
}


def test_knock_out_prefix_takes_the_next_word_even_double_dash(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    layout(tmp_path, KNOCKOUT)
    lines = [
        ["--merge", "deep", "--knock-out-prefix", "--", "k"],
        ["--merge", "deep", "--knock-out-prefix=--", "k"],
        ["--merge", "deep", "--knock_out_prefix", "--", "--render-as", "json", "h"],
        ["--merge", "deep", "--knock-out-prefix", "--", "--", "h"],
        ["--merge", "deep", "k"],
    ]
    for args, (theirs, ours) in zip(lines, both(puppet_engine, tmp_path, lines), strict=True):
        assert theirs.status == 0, (args, theirs.error)
        assert (ours.status, ours.stdout) == (theirs.status, theirs.stdout), args


def test_type_checks_the_value_with_puppets_words(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    layout(tmp_path, KNOCKOUT)
    lines = [
        ["--type", "String", "h"],
        ["--type", "Hash[String,Integer]", "h"],
        ["--type", "Hash[String, Variant[String, Integer]]", "h"],
        ["--type", "Integer", "k"],
        ["--type", "Array[String, 1]", "--merge", "unique", "k"],
        ["--type", "Tuple[String, Integer]", "k"],
        ["--type", "Integer", "--default", "x", "nope"],
        ["--type", "Optional[Integer]", "--default", "3", "nope"],
        ["--type", "Integer", "nope"],
        ["--type", "Foo", "k"],
        ["--type", "Strin[", "k"],
        ["--type", "String]", "k"],
        ["--type", "", "k"],
        ["--type", "String", "--render-as", "json", "h.a"],
    ]
    assert same(both(puppet_engine, tmp_path, lines), lines) == len(lines)


def test_explain_options_prints_puppets_assembly_of_lookup_options(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    shipped = Path(__file__).parents[2] / "examples" / "control-repo"
    env = tmp_path / "environments" / "controlrepo"  # Puppet refuses '-' in a name
    shutil.copytree(shipped, env)
    layout(tmp_path, {})
    facts = env / ".hiera-ls" / "facts" / "web01.example.com.yaml"
    flags = [
        "--environmentpath", str(tmp_path / "environments"), "--environment", "controlrepo",
        "--node", NODE, "--facts", str(facts),
    ]  # fmt: skip
    lines = [
        ["--explain-options", "profile::base::users"],
        ["--explain-options"],
        ["--explain-options", "ntp::servers"],
        ["--explain-options", "--explain", "profile::base::users"],
    ]
    assert same(both(puppet_engine, tmp_path, lines, flags=flags), lines) == len(lines)


GENERATED = {
    "global/hiera.yaml": "version: 5\nhierarchy:\n  - name: G\n    path: g.yaml\n",
    "global/data/g.yaml": "lookup_options:\n  '^m::': {merge: deep}\n  a: {merge: unique}\n",
    "environments/production/hiera.yaml": HIERA,
    f"environments/production/data/nodes/{NODE}.yaml": (
        "lookup_options:\n  a: {merge: hash}\n  '^x': {convert_to: Array}\n"
    ),
    "environments/production/data/roles/web.yaml": "lookup_options: {}\n",
    "environments/production/data/common.yaml": (
        "lookup_options:\n  m::h: {merge: hash}\n  '%{facts.role}_key': {merge: unique}\n"
    ),
    "environments/production/modules/m/hiera.yaml": "version: 5\n",
    "environments/production/modules/m/data/common.yaml": (
        "lookup_options:\n  m::h: {merge: unique}\n  '^m::x': {merge: first}\nm::h: {}\n"
    ),
    "environments/production/modules/n/hiera.yaml": "version: 5\n",
    "environments/production/modules/n/data/common.yaml": "lookup_options: [1]\n",
}


def test_explain_options_on_generated_layers(tmp_path: Path, puppet_engine: PuppetEngine) -> None:
    layout(tmp_path, GENERATED)
    lines = [
        ["--explain-options", "m::h"],
        ["--explain-options", "a"],
        ["--explain-options"],
        ["--explain-options", "n::broken"],
        ["--explain-options", "nomodule::k"],
        ["--explain", "a"],
    ]
    pairs = both(puppet_engine, tmp_path, lines, hiera_config=tmp_path / "global" / "hiera.yaml")
    assert same(pairs, lines) == len(lines)
