"""Nodes sharing one data cache (`hiera-ls check` and the server look every profile's keys up
through one): a value holding no interpolation token is every node's answer as written, and
whether it holds one is worked out once; a value holding one is interpolated for each node."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import node_scope
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.files import FileAccess
from hiera_ls.source.interpolation import holds_token
from tests.engine.envbuilder import DEFAULT_HIERA

COMMON = """\
plain: &plain {a: [1, two, {three: 3}], b: {c: d}}
again: [*plain, *plain]
role: {a: [1, {b: 'web %{facts.role}'}], c: plain, '%{facts.role}': key}
aliased: [&rolename 'r-%{facts.role}', *rolename, {x: *rolename}]
"""


def _sessions(tmp_path: Path, roles: list[str]) -> list[LookupSession]:
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(DEFAULT_HIERA)
    (tmp_path / "data/common.yaml").write_text(COMMON)
    files, cache = FileAccess(), DataCache()
    env = environment_at(
        str(tmp_path), "production", None, files, module_dirs=ModuleDirs.MODULEPATH
    )
    return [
        LookupSession(
            env, node_scope({"role": role}, f"{role}.example.com", "production"), files, cache
        )
        for role in roles
    ]


def test_a_value_without_a_token_is_every_nodes_answer_and_one_with_tokens_each_nodes_own(
    tmp_path: Path,
) -> None:
    web, db, web_again = _sessions(tmp_path, ["web", "db", "web"])
    plain = web.lookup("plain").value
    assert plain == {"a": [1, "two", {"three": 3}], "b": {"c": "d"}}
    assert db.lookup("plain").value is plain  # the value as loaded, for every node
    assert db.lookup("again").value == [plain, plain]
    for session, role in ((web, "web"), (db, "db"), (web_again, "web")):
        assert session.lookup("role").value == {
            "a": [1, {"b": f"web {role}"}],
            "c": "plain",
            role: "key",
        }
        assert session.lookup("aliased").value == [f"r-{role}", f"r-{role}", {"x": f"r-{role}"}]
    assert db.lookup("role.a.1.b").value == "web db"


_TEXT = st.text(alphabet="a%{}", max_size=5)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=12,
)


def _naive(value: object) -> bool:
    if isinstance(value, str):
        return "%{" in value
    if isinstance(value, list):
        return any(_naive(v) for v in value)
    if isinstance(value, dict):
        return any(_naive(k) or _naive(v) for k, v in value.items())
    return False


@given(_VALUES)
def test_holds_token_finds_a_token_in_any_string_keys_included(value: object) -> None:
    assert holds_token(value) == _naive(value)
