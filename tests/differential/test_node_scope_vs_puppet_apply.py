"""A variable a node definition sets is what a hierarchy's bare ``%{role}`` reads, with
`puppet apply` (offline, a temporary environmentpath) as the reference: the rule
``interpolation-top-scope-variable`` leaves such a variable alone, since ``%{::role}`` (top
scope) reads nothing there, and a local variable of the class running the lookup still hides
it (what the rule warns of for the others)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.oracle.engines import PuppetEngine

pytestmark = pytest.mark.puppet

FILES = {
    "hiera.yaml": (
        "version: 5\nhierarchy:\n"
        "  - name: Role\n    path: 'role/%{role}.yaml'\n"
        "  - name: Top\n    path: 'top/%{::role}.yaml'\n"
        "  - name: Common\n    path: common.yaml\n"
    ),
    "data/role/web.yaml": "profile::x::msg: from role/web\n",
    "data/top/web.yaml": "profile::x::other: from top/web\n",
    "data/common.yaml": "profile::x::msg: from common\nprofile::x::other: from common\n",
    "modules/profile/manifests/x.pp": (
        "class profile::x (String $msg) {\n"
        '  notice("parameter=${msg}")\n'
        "  notice(\"lookup=${lookup('profile::x::msg')}\")\n"
        "  notice(\"top=${lookup('profile::x::other')}\")\n"
        "  $role = 'local'\n"
        "  notice(\"after_local=${lookup('profile::x::msg')}\")\n"
        "}\n"
    ),
    "manifests/site.pp": "node default {\n  $role = 'web'\n  include profile::x\n}\n",
}
NOTICE = re.compile(r"Notice: Scope\(Class\[Profile::X\]\): (\w+)=(.*)")


def test_a_node_definitions_variable_is_read_by_a_bare_token_only(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    env = tmp_path / "environments" / "production"
    for name, text in FILES.items():
        (env / name).parent.mkdir(parents=True, exist_ok=True)
        (env / name).write_text(text)
    run = puppet_engine.apply(
        tmp_path, "--noop", "--environment", "production", "--certname", "n1", "--strict",
        "warning", "--no-strict_variables", str(env / "manifests" / "site.pp"),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    said = dict(NOTICE.findall(run.stdout))
    assert said == {
        "parameter": "from role/web",  # the node's $role, for the class's parameter
        "lookup": "from role/web",  # and for a lookup in its body
        "top": "from common",  # %{::role}: top scope has none
        "after_local": "from common",  # a local $role hides the node's
    }
