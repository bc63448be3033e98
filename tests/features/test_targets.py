"""What a position means: keys (nested, quoted), values, tokens, lookup() calls."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.features.targets import DataKey, KeyCall, OptionsKey, TokenAt, key_text, target_at
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Position

HIERA = "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"
COMMON = """\
lookup_options:
  "^app::":
    merge: deep
app::config:
  "dotted.key": 1
  list:
    - first
    - name: "%{facts.os.family}"
plain: value
"""


def snapshot(tmp_path: Path, text: str = COMMON):  # type: ignore[no-untyped-def]
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data" / "common.yaml").write_text(text)
    (tmp_path / "site.pp").write_text("class x { $a = lookup('app::config', Hash, 'deep') }\n")
    return Workspace([str(tmp_path)]).snapshot(), str(tmp_path / "data" / "common.yaml")


def test_key_text_quotes_what_a_lookup_key_must_quote() -> None:
    assert key_text(("app::config",)) == "app::config"
    assert key_text(("app::config", "dotted.key")) == "app::config.'dotted.key'"
    assert key_text(("app::config", "list", 1, "name")) == "app::config.list.1.name"
    assert key_text(("h", "12")) == "h.'12'"  # a String key '12', not an index
    assert key_text(("h", "it's")) == 'h."it\'s"'


def test_positions_on_keys_values_tokens_and_options(tmp_path: Path) -> None:
    snap, common = snapshot(tmp_path)
    on_nested = target_at(snap, common, Position(4, 5))
    assert isinstance(on_nested, DataKey) and on_nested.key_text == "app::config.'dotted.key'"
    on_list_item = target_at(snap, common, Position(6, 8))
    assert isinstance(on_list_item, DataKey) and on_list_item.node_path == ("app::config", "list")
    on_value = target_at(snap, common, Position(8, 9))
    assert isinstance(on_value, DataKey) and on_value.node_path == ("plain",)
    token = target_at(snap, common, Position(7, 18))
    assert isinstance(token, TokenAt) and token.token.expression == "facts.os.family"
    option = target_at(snap, common, Position(1, 4))
    assert isinstance(option, OptionsKey) and option.pattern == "^app::"
    assert isinstance(target_at(snap, common, Position(2, 6)), OptionsKey)  # inside the entry
    assert target_at(snap, common, Position(0, 3)) is None  # lookup_options itself


def test_lookup_calls_in_manifests(tmp_path: Path) -> None:
    snap, _common = snapshot(tmp_path)
    manifest = str(tmp_path / "site.pp")
    call = target_at(snap, manifest, Position(0, 25))
    assert isinstance(call, KeyCall) and call.key == "app::config"
    assert target_at(snap, manifest, Position(0, 3)) is None
