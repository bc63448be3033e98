"""The outline of an edited file is the outline of its text, whatever was kept from before.

After an edit of a big data file only the top-level entries the edit touched are parsed
again (``source/yaml_reparse``), and the outline re-uses what it built for the others,
moved by the lines the edit added or removed (``features/outline``); the LSP answer re-uses
the text written for them (``lsp/outline``). Each step here compares the outline and its
``DocumentSymbol`` JSON after a run of edits with those of a fresh workspace opened on the
same text.
"""

from __future__ import annotations

import json
from pathlib import Path

from hiera_ls.features.lsp_ranges import Converter
from hiera_ls.features.outline import Entry, folding_ranges, outline
from hiera_ls.lsp.outline import symbols_json
from hiera_ls.project.workspace import Workspace

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: common
    path: common.yaml
"""


def _common(keys: int) -> list[str]:
    lines = ["---"]
    for n in range(keys):
        lines.append(f"profile::app{n}::port: {8000 + n}")
        lines.append(f"profile::app{n}::settings:")
        lines.append(f"  name: 'app {n} é'")  # a non-ASCII line: columns in UTF-16
        lines.append("  tags:")
        lines.append(f"    - t{n}")
        lines.append("    - {nested: [1, 2]}")
    return lines


def _repo(tmp_path: Path, lines: list[str]) -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    common = tmp_path / "data" / "common.yaml"
    common.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return common


def _fresh(root: Path, path: str, text: str) -> list[Entry]:
    ws = Workspace([str(root)])
    ws.open_buffer(path, text)
    return outline(ws.snapshot(), path)


def test_the_outline_after_edits_is_the_outline_of_the_text(tmp_path: Path) -> None:
    lines = _common(60)
    common = _repo(tmp_path, lines)
    path = str(common)
    ws = Workspace([str(tmp_path)])
    ws.open_buffer(path, "\n".join(lines) + "\n")
    written: dict[int, tuple[Entry, str]] = {}
    first = outline(ws.snapshot(), path)
    text = "\n".join(lines) + "\n"
    symbols_json(first, Converter(text), written)

    def at(n: int) -> int:
        return lines.index(f"profile::app{n}::port: {8000 + n}")

    edits = [
        lambda: lines.__setitem__(at(30), "profile::app30::port: 9999"),  # a value
        lambda: lines.insert(at(10), "# a new comment line"),  # moves what follows
        lambda: lines.insert(at(50), "profile::new::key: [a, b]"),  # a new entry
        lambda: lines.__delitem__(3),  # a line of the first entry's hash
        lambda: lines.insert(at(40), "profile::other: {x: 1}"),
        lambda: lines.insert(at(20), ""),
        lambda: lines.insert(at(5), "# another"),
        lambda: lines.__setitem__(at(55), "profile::app55::port: 1"),
        lambda: lines.insert(at(45), "# and another"),
        lambda: lines.insert(at(25), "# nine pieces"),
        lambda: lines.insert(at(35), "# ten"),
        lambda: lines.insert(at(15), "  broken: [indent"),  # no outline while it is broken
        lambda: lines.remove("  broken: [indent"),
    ]
    for edit in edits:
        edit()
        text = "\n".join(lines) + "\n"
        ws.update_buffer(path, text)
        entries = outline(ws.snapshot(), path)
        expected = _fresh(tmp_path, path, text)
        assert entries == expected
        conv = Converter(text)
        assert symbols_json(entries, conv, written) == symbols_json(expected, conv)
        if "  broken: [indent" not in lines:
            assert entries[0].name == "profile::app0::port"
            assert len(entries) > 100


def test_a_json_data_files_outline_has_its_nested_keys(tmp_path: Path) -> None:
    # The JSON loader records a node's children before it: the outline walked paths that
    # need a parent first, and showed the top-level keys only.
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(
        HIERA.replace("yaml_data", "json_data").replace("common.yaml", "common.json"),
        encoding="utf-8",
    )
    data = {"profile::base::users": {"alice": {"uid": 1001}}, "ntp::servers": ["a", "b"]}
    common = tmp_path / "data" / "common.json"
    common.write_text(json.dumps(data, indent=2), encoding="utf-8")
    ws = Workspace([str(tmp_path)])
    entries = outline(ws.snapshot(), str(common))

    def shape(level: list[Entry]) -> list[object]:
        return [(e.name, e.kind, shape(e.children)) for e in level]

    assert shape(entries) == [
        ("profile::base::users", "hash", [("alice", "hash", [("uid", "number", [])])]),
        ("ntp::servers", "array", [("[0]", "string", []), ("[1]", "string", [])]),
    ]


def test_folding_ranges_are_the_same_whatever_the_line_ends(tmp_path: Path) -> None:
    # Comment blocks are found by visiting only comment lines when every line ends in \n,
    # and line by line otherwise.
    lines = [
        "# two comment",
        "  # lines",
        "a:",
        "  b: 1  # not a comment line",
        " # one",
        "c: '#'",
        "# three",
        "#",
        "   #",
        "d: [1,",
        "  2]",
        "# last",
        "# two",
    ]
    common = _repo(tmp_path, lines)
    ws = Workspace([str(tmp_path)])
    found = []
    for end in ("\n", "\r\n"):
        ws.open_buffer(str(common), end.join(lines) + end)
        found.append(folding_ranges(ws.snapshot(), str(common)))
    assert found[0] == found[1]
    assert found[0] == [(0, 1, True), (2, 3, False), (6, 8, True), (9, 10, False), (11, 12, True)]


def test_the_outline_after_edits_inside_one_big_entry(tmp_path: Path) -> None:
    # Wikimedia's admin data: few top-level keys, thousands of lines each; an edit re-parses
    # the children it touched of one of them, and the outline must still be the text's.
    lines = ["groups:", "  ops: &ops [a, b]", "  all: [*ops]", "users:"]
    for n in range(80):
        lines += [f"  user{n}:", f"    uid: {1000 + n}", "    ssh_keys:", f"    - key {n} é"]
    lines.append("last: 1")
    common = _repo(tmp_path, lines)
    path = str(common)
    ws = Workspace([str(tmp_path)])
    ws.open_buffer(path, "\n".join(lines) + "\n")
    written: dict[int, tuple[Entry, str]] = {}
    symbols_json(outline(ws.snapshot(), path), Converter("\n".join(lines) + "\n"), written)
    edits = [
        lambda: lines.__setitem__(lines.index("    uid: 1030"), "    uid: 9999"),
        lambda: lines.insert(lines.index("  user50:"), "  user_new: {x: 1}"),
        lambda: lines.insert(lines.index("  user10:"), "  # a comment"),
        lambda: lines.remove("    uid: 1070"),
        lambda: lines.insert(lines.index("  user5:"), "    - another key"),
    ]
    for edit in edits:
        edit()
        text = "\n".join(lines) + "\n"
        ws.update_buffer(path, text)
        entries = outline(ws.snapshot(), path)
        expected = _fresh(tmp_path, path, text)
        assert entries == expected
        conv = Converter(text)
        assert symbols_json(entries, conv, written) == symbols_json(expected, conv)
