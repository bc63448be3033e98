"""Previews of a key the code reads with a merge of its own (``lookup('k', Hash, 'deep')``,
``hiera_hash``, ...): the hover, the spread, inlay hints and the key view run that merge and
say which call asks for it; where calls disagree, each merge is shown; a merge computed at
run time is named, not previewed. Whole-repository checks count a definition the asked
merge takes as used. (tests/differential/test_asked_merges_vs_puppet_apply.py checks these
values against `puppet apply`.)"""

from __future__ import annotations

import shutil
from pathlib import Path

from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.features.hover import hover
from hiera_ls.features.inlay_hints import inlay_hints
from hiera_ls.features.key_view import view_of
from hiera_ls.project.workspace import Snapshot, Workspace
from hiera_ls.source.spans import Position
from tests.features.test_profile_coverage import codes, findings

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "merge-repo"
BASE_PP = "site-modules/profile/manifests/base.pp"


def _repo(tmp_path: Path) -> tuple[Snapshot, Path]:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    workspace = Workspace([str(root)])
    workspace.select_profile("n1.example.com")
    return workspace.snapshot(), root


def _hover(snapshot: Snapshot, root: Path, key: str) -> str:
    common = root / "data" / "common.yaml"
    lines = common.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith(f"{key}:"))
    found = hover(snapshot, str(common), Position(number, 1))
    assert found is not None
    return found.markdown


def test_hover_previews_the_merge_the_code_asks_for_and_says_where(tmp_path: Path) -> None:
    snapshot, root = _repo(tmp_path)
    text = _hover(snapshot, root, "profile::base::settings")
    # deep: every level's keys, in Puppet's order
    assert "```yaml\nzeta:\n  b: 1\n  a: 2\n  c: 3\nalpha: 0\nmid:\n" in text
    uri = (root / BASE_PP).as_uri()
    assert (f"**Merge:** `deep`, asked by `lookup(…, 'deep')` at [{BASE_PP}:3]({uri}#L3)") in text
    # the spread runs the same merge for the other node
    assert '`{"zeta"=>{"b"=>1, "a"=>2}, "alpha"=>1, "mid"=>[3, 1]}` — 1 of 2: n2' in text
    users = _hover(snapshot, root, "profile::base::users")
    assert "**Merge:** `hash`" in users and "asked by `hiera_hash()`" in users
    assert "amy:\n  uid: 9\n  shell: zsh\n" in users
    # hiera() asks for a first-found lookup, whatever lookup_options say
    first = _hover(snapshot, root, "firstonly")
    assert "asked by `hiera()`" in first and "```yaml\nr: 2\n```" in first


def test_calls_that_disagree_are_each_shown(tmp_path: Path) -> None:
    snapshot, root = _repo(tmp_path)
    text = _hover(snapshot, root, "mixed")
    assert "**Merge:** `deep`, asked by `lookup(…, 'deep')`" in text
    assert "**Also read with another merge:** `first`" in text
    assert "so read by `lookup()` at" in text
    assert text.index("**Also read") < text.index("```yaml\nnode: 'n'\n```")
    computed = _hover(snapshot, root, "computed")
    assert "`lookup(…, $merge)`" in computed and "not previewed" in computed


def test_automatic_parameter_lookup_keeps_lookup_options(tmp_path: Path) -> None:
    snapshot, root = _repo(tmp_path)
    text = _hover(snapshot, root, "profile::apl::conf")
    assert "set by lookup_options `profile::apl::conf`" in text
    assert "asked by" not in text


def test_key_view_and_inlay_hints_use_the_asked_merge(tmp_path: Path) -> None:
    snapshot, root = _repo(tmp_path)
    found = view_of(snapshot, snapshot.environments[0], "mixed")
    assert found.merge == f"merge deep, asked by lookup(…, 'deep') at {BASE_PP}:7"
    assert [p.value for p in found.profiles] == [
        '{"low"=>1, "common"=>"c", "role"=>"r", "node"=>"n"}',
        '{"low"=>1, "common"=>"c"}',
    ]
    [other] = found.other_merges
    assert other.merge.endswith(f"read by lookup() at {BASE_PP}:8")
    assert [p.value for p in other.profiles] == ['{"node"=>"n"}', '{"low"=>1, "common"=>"c"}']
    path = str(root / "data" / "role" / "web.yaml")
    hints = {h.position.line: h for h in inlay_hints(snapshot, path, 0, 20)}
    assert hints[0].label == '= {"zeta"=>{"b"=>1, "… merged'
    assert hints[0].tooltip is not None
    assert hints[0].tooltip.startswith(
        "Merged from data/nodes/n1.example.com.yaml, data/role/web.yaml, data/common.yaml "
        f"(merge asked by lookup(…, 'deep') at {BASE_PP}:3): "
        '{"zeta"=>{"b"=>1, "a"=>2, "c"=>3}, "alp'
    )
    assert hints[13].tooltip is not None
    assert hints[13].tooltip.endswith(f'\nRead by lookup() at {BASE_PP}:8: {{"node"=>"n"}}')


def test_a_definition_the_asked_merge_takes_is_not_shadowed(tmp_path: Path) -> None:
    data = {
        "data/common.yaml": "settings: {a: 1}\n",
        "data/roles/web.yaml": "settings: {b: 2}\n",
        "data/roles/db.yaml": "settings: {c: 3}\n",
    }
    # read first-found, common's value is never used by any profile
    plain = findings(
        tmp_path / "plain",
        {**data, "manifests/site.pp": "$s = lookup('settings')\n"},
    )
    assert codes(plain) == ["data/common.yaml:1 profile-shadowed-definition"]
    deep = findings(
        tmp_path / "deep",
        {**data, "manifests/site.pp": "$s = lookup('settings', Hash, 'deep')\n"},
    )
    assert codes(deep) == []


def test_a_code_edit_asking_for_another_merge_is_judged_again(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    findings(
        root,
        {
            "data/common.yaml": "settings: {a: 1}\n",
            "data/roles/web.yaml": "settings: {b: 2}\n",
            "data/roles/db.yaml": "settings: {c: 3}\n",
            "manifests/site.pp": "$s = lookup('settings')\n",
        },
    )
    workspace = Workspace([str(root)])
    d = Diagnostics()
    common = str(root / "data" / "common.yaml")

    def shadowed() -> list[str]:
        found = d.file_problems(workspace.snapshot(), common)
        return [p.code for p in found if p.code == "profile-shadowed-definition"]

    assert shadowed() == ["profile-shadowed-definition"]
    site = str(root / "manifests" / "site.pp")
    workspace.open_buffer(site, "$s = lookup('settings', Hash, 'deep')\n")
    assert shadowed() == []


def test_a_reader_with_the_same_merge_is_named_in_one_line(tmp_path: Path) -> None:
    snapshot, root = _repo(tmp_path)
    text = _hover(snapshot, root, "profile::apl::motd")
    assert "**Merge:** `first` (the first value found wins), asked by `hiera()` at" in text
    assert (
        "_Also read with this merge by automatic parameter lookup of `profile::apl::motd`._"
    ) in text
    assert "Also read with another merge" not in text
