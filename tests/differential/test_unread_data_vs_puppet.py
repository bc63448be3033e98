"""What `hiera-ls check` calls dead or broken, Puppet itself confirms: a module's data without
hiera.yaml is never read (module-data-not-read), and a level whose function the environment
does not define fails every lookup (hiera-function-unknown).

Each case looks the files' keys up with Puppet (the oracle) and with hiera-ls' engine, and
runs `hiera-ls check` on the same tree: a file the check calls unread must be one Puppet
never reads a key from; a module the check is silent about must be read alike by both.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import node_scope
from hiera_ls.report.run import run_check
from hiera_ls.source.files import FileAccess
from tests.oracle.puppet import PuppetOracle

pytestmark = pytest.mark.puppet

NODE = "web01.example.com"
FACTS = {"os": {"family": "Debian"}}
ENV_HIERA = "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"
MODULE_HIERA = ENV_HIERA
METADATA = {
    "name": "example-legacy",
    "version": "1.0.0",
    "author": "example",
    "summary": "module data through metadata.json",
    "license": "Apache-2.0",
    "source": "https://example.com",
    "dependencies": [],
    "data_provider": "hiera",
}


def layout(base: Path, files: dict[str, str]) -> Path:
    env = base / "environments" / "production"
    for rel, text in files.items():
        path = env / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return env


def puppet_answers(
    oracle: PuppetOracle, env: Path, keys: list[str], hiera_config: str | None = None
) -> dict[str, Any]:
    request = {
        "environmentpath": str(env.parent),
        "environment": env.name,
        "node": NODE,
        "facts": FACTS,
        "hiera_config": hiera_config,
        "lookups": [{"key": k} for k in keys],
    }
    return dict(zip(keys, oracle.lookup_batch(request), strict=True))


def our_answers(env: Path, keys: list[str], hiera_config: str | None = None) -> dict[str, Any]:
    files = FileAccess()
    environment = environment_at(
        str(env), env.name, hiera_config, files, module_dirs=ModuleDirs.MODULEPATH
    )
    session = LookupSession(environment, node_scope(FACTS, NODE, env.name), files)
    out: dict[str, Any] = {}
    for key in keys:
        outcome = session.lookup(key)
        if outcome.error is not None:
            out[key] = {"error": outcome.error}
        else:
            out[key] = {"found": True, "value": outcome.value} if outcome.found else {}
    return out


def findings(env: Path, code: str) -> list[str]:
    result = run_check([str(env)], profiles=[])
    return sorted(str(Path(f.path).relative_to(env)) for f in result.findings if f.code == code)


# ------------------------------------------------------------------ module-data-not-read

MODULES = {
    "hiera.yaml": ENV_HIERA,
    "data/common.yaml": "env_key: 1\n",
    # no hiera.yaml: nothing reads these (and the broken file hides its error from Puppet)
    "modules/nohiera/data/common.yaml": "nohiera::a: 1\nnohiera::b: [x]\n",
    "modules/nohiera/data/os/Debian.yaml": "nohiera::c: debian\n",
    "modules/nohiera/data/broken.yaml": "nohiera::d: [\n",
    # metadata.json's deprecated data_provider: Puppet reads data/common.yaml
    "modules/legacy/metadata.json": json.dumps(METADATA),
    "modules/legacy/data/common.yaml": "legacy::a: 2\n",
    # the ordinary module
    "modules/fine/hiera.yaml": MODULE_HIERA,
    "modules/fine/data/common.yaml": "fine::a: 3\n",
}
MODULE_KEYS = ["nohiera::a", "nohiera::b", "nohiera::c", "nohiera::d", "legacy::a", "fine::a"]


def test_module_data_without_hiera_yaml_is_never_read(
    puppet_oracle: PuppetOracle, tmp_path: Path
) -> None:
    env = layout(tmp_path, MODULES)
    theirs = puppet_answers(puppet_oracle, env, MODULE_KEYS)
    ours = our_answers(env, MODULE_KEYS)
    # Puppet: nothing of the module without hiera.yaml, the others' values
    assert {k: v.get("found", False) for k, v in theirs.items()} == {
        "nohiera::a": False,
        "nohiera::b": False,
        "nohiera::c": False,
        "nohiera::d": False,
        "legacy::a": True,
        "fine::a": True,
    }
    assert all("error" not in v for v in theirs.values()), theirs
    assert {k: v.get("value") for k, v in ours.items()} == {
        k: v.get("value") for k, v in theirs.items()
    }
    assert findings(env, "module-data-not-read") == [
        "modules/nohiera/data/broken.yaml",
        "modules/nohiera/data/common.yaml",
        "modules/nohiera/data/os/Debian.yaml",
    ]
    # the parse error Puppet never meets is shown too
    assert findings(env, "yaml-syntax") == ["modules/nohiera/data/broken.yaml"]
    # and no finding claims Puppet reads those keys
    assert findings(env, "module-data-unqualified-key") == []


# ---------------------------------------------------------------- hiera-function-unknown

RUBY_FUNCTION = """\
Puppet::Functions.create_function(:'mymod::ruby_data') do
  dispatch :ruby_data do
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end

  def ruby_data(options, context)
    { 'k' => 'from ruby' }
  end
end
"""
PUPPET_FUNCTION = """\
function mymod::pp_data(Hash $options, Puppet::LookupContext $context) {
  { 'k' => 'from puppet' }
}
"""
GLOBAL_FUNCTION = (
    RUBY_FUNCTION.replace("mymod::ruby_data", "global_data")
    .replace(":ruby_data", ":global_data")
    .replace("def ruby_data", "def global_data")
)
MYMOD = {
    "modules/mymod/lib/puppet/functions/mymod/ruby_data.rb": RUBY_FUNCTION,
    "modules/mymod/lib/puppet/functions/global_data.rb": GLOBAL_FUNCTION,
    "modules/mymod/functions/pp_data.pp": PUPPET_FUNCTION,
    "modules/mymod/manifests/init.pp": "class mymod {}\n",
}
# function -> whether the environment defines it (every level reads common.yaml too)
FUNCTIONS = {
    "yml_data": False,  # a misspelt yaml_data
    "jsn_data": False,
    "my_backend": False,  # no module of the environment has it, and no Puppetfile
    "mymod::ruby_data": True,
    "mymod::pp_data": True,
    "global_data": True,
    "mymod::no_such_data": False,
    "json_data": True,  # Puppet's own
}


def level_config(kind: str, function: str) -> str:
    path = "    path: other.json\n" if function == "json_data" else ""
    return (
        "version: 5\nhierarchy:\n"
        f"  - name: Custom\n    {kind}: {function}\n{path}"
        "  - name: Common\n    path: common.yaml\n"
    )


def test_a_level_function_the_environment_lacks_fails_every_lookup(
    puppet_oracle: PuppetOracle, tmp_path: Path
) -> None:
    flagged: dict[str, bool] = {}
    for number, function in enumerate(FUNCTIONS):
        files = {
            "hiera.yaml": level_config("data_hash", function),
            "data/common.yaml": "k: from common\n",
            "data/other.json": '{"k": "from json"}\n',
            **MYMOD,
        }
        env = layout(tmp_path / f"case{number}", files)
        [theirs] = puppet_answers(puppet_oracle, env, ["k"]).values()
        error = theirs.get("error", "")
        unable = f"Unable to find 'data_hash' function named '{function}'"
        assert (unable in error) is not FUNCTIONS[function], (function, theirs)
        if FUNCTIONS[function]:
            assert theirs.get("found"), (function, theirs)
        result = run_check([str(env)], profiles=[])
        said = [f for f in result.findings if f.code == "hiera-function-unknown"]
        flagged[function] = bool(said)
        for finding in said:
            assert unable in finding.message, finding.message
    # every function Puppet cannot find is reported, and none it finds
    assert flagged == {f: not defined for f, defined in FUNCTIONS.items()}


def test_a_function_of_a_module_the_puppetfile_deploys_is_not_judged(
    puppet_oracle: PuppetOracle, tmp_path: Path
) -> None:
    """Puppet fails here too, but on the server r10k deploys the module: only a misspelling
    of a known function is still reported."""
    for number, (function, reported) in enumerate({"vault_data": False, "yml_data": True}.items()):
        files = {
            "hiera.yaml": level_config("lookup_key", function),
            "data/common.yaml": "k: 1\n",
            "Puppetfile": "mod 'example/vault', '1.0.0'\n",
        }
        env = layout(tmp_path / f"case{number}", files)
        [theirs] = puppet_answers(puppet_oracle, env, ["k"]).values()
        assert f"function named '{function}'" in theirs.get("error", ""), theirs
        said = [f for f in run_check([str(env)], profiles=[]).findings]
        assert [f.code for f in said if f.code == "hiera-function-unknown"] == (
            ["hiera-function-unknown"] if reported else []
        ), function
