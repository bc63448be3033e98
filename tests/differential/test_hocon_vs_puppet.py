"""``data_hash: hocon_data`` against Puppet 7.23 with the ``hocon`` gem (1.3.1 here): values,
substitutions, merges across a YAML level, interpolation, and a file that does not parse."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.engine.explain import plain_data
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import node_scope
from hiera_ls.source.files import FileAccess
from tests.differential.harness import same_value
from tests.oracle.puppet import PuppetOracle

pytestmark = pytest.mark.puppet

HIERA = """\
version: 5
hierarchy:
  - name: hocon
    data_hash: hocon_data
    path: common.conf
  - name: yaml
    path: common.yaml
"""
CONF = """\
# a comment
a = 1
b { c = [1, 2], d = "x" }
b.e = true
e = ${b.c}
f = "%{facts.role}"
g = [${a}, 2.5, null]
h { nested { deep = "v" } }
quoted { "k.ey" = 3 }
list = [7, 9]
"""
YAML = "h:\n  nested:\n    other: w\n  y: 1\nlist: [1]\nonly_yaml: z\n"
KEYS = [
    ("a", None),
    ("b", None),
    ("e", None),
    ("f", None),
    ("g", None),
    ("h", "deep"),
    ("h", "hash"),
    ("quoted", None),
    ("list", None),
    ("list", "unique"),
    ("only_yaml", None),
    ("b.c.1", None),
    ("nosuch", None),
]


def _sorted(value: object) -> object:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def _compare(
    tmp_path: Path,
    oracle: PuppetOracle,
    conf: str,
    keys: list[tuple[str, str | None]] = KEYS,
    more: dict[str, str] | None = None,
) -> None:
    env = tmp_path / "production"
    (env / "data").mkdir(parents=True)
    (env / "hiera.yaml").write_text(HIERA)
    (env / "data" / "common.conf").write_text(conf.replace("{env}", str(env)))
    for name, text in (more or {}).items():
        (env / name).parent.mkdir(parents=True, exist_ok=True)
        (env / name).write_text(text.replace("{env}", str(env)))
    (env / "data" / "common.yaml").write_text(YAML)
    facts = {"role": "web"}
    puppet = oracle.lookup_batch(
        {
            "environmentpath": str(tmp_path),
            "environment": "production",
            "node": "n",
            "facts": facts,
            "hiera_config": None,
            "strict_variables": True,
            "lookups": [{"key": k, "merge": m} for k, m in keys],
        }
    )
    files = FileAccess(roots=(str(env),))
    environment = environment_at(
        str(env), "production", None, files, module_dirs=ModuleDirs.MODULEPATH
    )
    session = LookupSession(environment, node_scope(facts, "n", "production"), files)
    for (key, merge), theirs in zip(keys, puppet, strict=True):
        ours = session.lookup(key, merge)
        if "error" in theirs:
            assert ours.error is not None, (key, merge, theirs)
            parse_error = "Unable to parse" in theirs["error"]
            assert ours.error.startswith("Unable to parse") == parse_error
        elif theirs["found"]:
            assert ours.error is None and ours.found, (key, merge, ours.error)
            # HOCON objects are unordered: the gem's key order follows its merge internals
            assert same_value(_sorted(plain_data(ours.value)), _sorted(theirs["value"])), (
                key,
                merge,
                theirs,
            )
        else:
            assert not ours.found and ours.error is None, (key, merge)


def test_hocon_values_and_merges_match_puppet(tmp_path: Path, puppet_oracle: PuppetOracle) -> None:
    _compare(tmp_path, puppet_oracle, CONF)


def test_a_hocon_file_that_does_not_parse_fails_as_in_puppet(
    tmp_path: Path, puppet_oracle: PuppetOracle
) -> None:
    _compare(tmp_path, puppet_oracle, "a = {\n")


INCLUDED = {
    "data/inc/base.conf": 'x = 10\ny { z = 1 }\ninclude "sibling.conf"\n',
    "data/inc/sibling.conf": "sib = 7\n",
    "data/inc/both.conf": "w = conf\n",
    "data/inc/both.json": '{"w": "json", "v": "json"}\n',
    "data/other.conf": "o = 1\n",
}
INCLUDES = {
    "file() with an absolute path, and a quoted include beside it": (
        'a = 1\ninclude file("{env}/data/inc/base.conf")\nx = 11\n',
        ["a", "x", "y", "sib"],
    ),
    "file() inside an object": ('a { include file("{env}/data/inc/base.conf") }\n', ["a"]),
    "a name without extension reads .conf over .json": (
        'include file("{env}/data/inc/both")\n',
        ["w", "v"],
    ),
    "a quoted include in the data file includes nothing": (
        'a = 1\ninclude "other.conf"\ninclude "{env}/data/other.conf"\n',
        ["a", "o"],
    ),
    "a missing file and a directory include nothing": (
        'a = 1\ninclude file("{env}/data/nosuch.conf")\ninclude file("{env}/data")\n',
        ["a"],
    ),
    "include as a value is text": ('a = include "x"\nb = [include file("y"), 2]\n', ["a", "b"]),
    "include url() fails": ('a = 1\ninclude url("http://127.0.0.1:9/x.conf")\n', ["a"]),
    "an http URL as a quoted include fails": ('a = 1\ninclude "http://127.0.0.1:9/"\n', ["a"]),
    "include classpath() fails": ('a = 1\ninclude classpath("x.conf")\n', ["a"]),
    "include required() does not parse": ('a = 1\ninclude required(file("x"))\n', ["a"]),
    "a space before the parenthesis does not parse": ('a = 1\ninclude file ("x")\n', ["a"]),
    "a key named include does not parse": ("include = 5\n", ["include"]),
}


@pytest.mark.parametrize("case", list(INCLUDES))
def test_hocon_includes_are_read_as_puppet_reads_them(
    tmp_path: Path, puppet_oracle: PuppetOracle, case: str
) -> None:
    conf, keys = INCLUDES[case]
    _compare(tmp_path, puppet_oracle, conf, [(k, None) for k in keys], INCLUDED)
