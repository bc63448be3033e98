"""Re-parsing only the edited entries gives exactly what a full parse gives.

The evidence is differential: thousands of random edits (characters typed or deleted
anywhere, lines added, removed or duplicated) to generated data files that use every
construct whose reading could depend on its neighbours (block scalars that keep trailing
lines, flow collections and quoted strings over several lines, sequences at column 0,
anchors, merges, duplicate keys, document markers).  After each edit the spliced result
must equal a fresh full parse: values (with their types), every node's range, problems
in order, and the outline used for the next edit.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from hiera_ls.source import yaml_reparse
from hiera_ls.source.data_file import load_yaml_data, reload_yaml_data
from hiera_ls.source.node_table import Path as NodePath
from hiera_ls.source.node_table import Raw
from hiera_ls.source.spliced_nodes import SplicedNodes
from hiera_ls.source.yaml_document import YamlDocument
from hiera_ls.source.yaml_loader import load_yaml
from hiera_ls.source.yaml_reparse import changed_lines, reload_yaml
from tests.examples import seeds

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SEEDS = int(os.environ.get("HIERA_LS_REPARSE_SEEDS", "1000"))
QUICK_SEEDS = 10  # the quick loop's share; the others run with the slow tests

STANDALONE = [  # entries that keep a document splittable
    "{k}: value {i}\n",
    "{k}: 'quoted {i}'\n",
    '{k}: "double\n  quoted {i}"\n',
    "{k}: yes\n",
    "{k}: 0755\n",
    "{k}: 1_000\n",
    "{k}: '%{{facts.os.family}}-{i}'\n",
    "{k}:\n  nested: {i}\n  deeper:\n    - a\n    - b\n",
    "{k}:\n- at column zero {i}\n- second\n",
    "{k}: [1,\n  2, 3]\n",
    "{k}: {{a: 1,\n  b: 2}}\n",
    "{k}: |\n  literal {i}\n  text\n",
    "{k}: |+\n  keep {i}\n\n",
    "{k}: >-\n  folded {i}\n  text\n\n",
    "{k}: plain\n  continued {i}\n",
    "{k}:\n",
    "{k}: ~\n",
    "# comment {i}\n",
    "\n",
    "{k}: value # trailing comment\n",
    "{k}:\n  <<: {{m: 1}}\n  n: 2\n",
    "{k}:\n  a: 1\n  a: 2\n",
]
TANGLED = [  # entries that make a full parse necessary
    "{k}: &anchor{i} {{x: 1}}\n",
    "{k}: *anchor{j}\n",
    "<<: {{merged: {i}}}\n",
    "{k}: :symbol\n",
    "{k}: 2021-01-01\n",
    "? complex\n: value {i}\n",
    "yes: boolean key\n",
]
SNIPPETS = [
    "x",
    " ",
    "  ",
    "\n",
    "\n\n",
    ":",
    ": ",
    "- ",
    "#",
    "'",
    '"',
    "|",
    "|+\n  ",
    "key{n}: v\n",
    "---\n",
    "...\n",
    "&a ",
    "*a",
    "{",
    "}",
    "[",
    "]",
    "\t",
    "yes",
    "0",
    "%",
    "\r\n",
    "k{n}:",
    "<<: ",
]


def _generate(rng: random.Random) -> str:
    head = rng.choice(["", "", "---\n", "# header\n", "%YAML 1.1\n---\n"])
    parts = [head]
    for i in range(rng.randint(1, 14)):
        template = rng.choice(TANGLED) if rng.random() < 0.015 else rng.choice(STANDALONE)
        key = rng.choice([f"key{i}", f"mod::key{i}", "lookup_options" if i == 3 else f"k{i}"])
        if rng.random() < 0.03:
            key = f"key{rng.randint(0, 3)}"  # maybe a duplicate
        parts.append(template.format(k=key, i=i, j=rng.randint(0, i)))
    if rng.random() < 0.1:
        parts.append(rng.choice(["---\nsecond: doc\n", "...\n", "last: no newline"]))
    return "".join(parts)


def _edit(rng: random.Random, text: str) -> str:
    kind = rng.random()
    lines = text.split("\n")
    if kind < 0.35:
        at = rng.randint(0, len(text))
        return text[:at] + rng.choice(SNIPPETS).replace("{n}", str(rng.randint(0, 20))) + text[at:]
    if kind < 0.55:
        at = rng.randint(0, len(text))
        return text[:at] + text[at + rng.randint(1, 12) :]
    j = rng.randrange(len(lines))
    if kind < 0.7:
        lines.insert(j, lines[j])
    elif kind < 0.85:
        del lines[j]
    else:
        lines[j] = (
            _generate(rng).rstrip("\n").split("\n", 1)[0] if rng.random() < 0.5 else lines[j] + "x"
        )
    return "\n".join(lines)


def _typed(value: object) -> object:
    """Comparable with types: 1, 1.0 and True must not pass for each other."""
    if isinstance(value, dict):
        return ("dict", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    return (type(value).__name__, repr(value))


def _same(spliced: YamlDocument, full: YamlDocument) -> None:
    assert _typed(spliced.value) == _typed(full.value)
    assert dict(spliced.nodes.items()) == dict(full.nodes.items())
    assert len(spliced.nodes) == len(full.nodes)
    assert sorted(map(repr, spliced.nodes)) == sorted(map(repr, full.nodes))
    assert spliced.problems == full.problems
    assert spliced.fatal == full.fatal
    assert spliced.outline == full.outline


@pytest.mark.parametrize("seed", seeds(SEEDS, QUICK_SEEDS))
def test_random_edits_read_as_a_full_parse(seed: int) -> None:
    rng = random.Random(seed)
    text = _generate(rng)
    doc = load_yaml("/d/common.yaml", text)
    for _ in range(16):
        new = _edit(rng, text)
        spliced = reload_yaml(doc, text, new)
        full = load_yaml("/d/common.yaml", new)
        _same(spliced, full)
        if full.fatal is None or rng.random() < 0.2:  # mostly, undo what broke the file
            doc, text = spliced, new


def _big() -> str:
    return "".join(
        f"profile::app{i}::settings:\n  port: {8000 + i}\n  list:\n  - a{i}\n  - b\n"
        for i in range(300)
    )


@pytest.mark.slow  # the users' test below splices in the quick loop
def test_typing_in_a_big_file_re_parses_one_entry() -> None:
    text = _big()
    doc = load_yaml("/d/big.yaml", text)
    assert doc.outline is not None
    edited = text.replace("port: 8150", "port: 8150x")
    spliced = reload_yaml(doc, text, edited)
    assert isinstance(spliced.nodes, SplicedNodes)
    assert spliced.value["profile::app150::settings"] == {"port": "8150x", "list": ["a150", "b"]}  # type: ignore[index]
    _same(spliced, load_yaml("/d/big.yaml", edited))
    # lines added above move everything below; many edits in many places stay exact
    for i in range(0, 300, 50):
        before = edited
        edited = edited.replace(f"  - a{i}\n", f"  - a{i}\n  - new{i}\n")
        spliced = reload_yaml(spliced, before, edited)
        _same(spliced, load_yaml("/d/big.yaml", edited))


def test_what_a_full_parse_must_decide_is_left_to_it() -> None:
    text = "a: 1\nb: 2\nc: 3\n"
    doc = load_yaml("/d/x.yaml", text)
    for edited in (
        "a: 1\nb: 2\nb: 3\n",  # a duplicate of a key outside the edited entry
        "a: 1\nb: &x 2\nc: *x\n",  # an anchor used by another entry
        "a: 1\nb: 2\n---\nc: 3\n",  # a second document
        'a: 1\nb: "2\nc: 3\n',  # an unterminated string swallowing the next entry
        "# all gone\n",  # an empty file is Puppet's empty-file case, not an empty hash
    ):
        _same(reload_yaml(doc, text, edited), load_yaml("/d/x.yaml", edited))


def test_data_files_keep_their_document_for_the_next_edit() -> None:
    text = (
        FIXTURES.parent.parent / "examples" / "control-repo" / "data" / "common.yaml"
    ).read_text()
    first = load_yaml_data("/d/common.yaml", text)
    assert first.document is not None
    edited = text + "extra::key: 'added %{facts.os.family}'\n"
    again = reload_yaml_data(first, text, edited)
    full = load_yaml_data("/d/common.yaml", edited)
    assert (_typed(dict(again.data)), again.problems, again.error, dict(again.key_errors)) == (
        _typed(dict(full.data)),
        full.problems,
        full.error,
        dict(full.key_errors),
    )
    assert dict(again.nodes.items()) == dict(full.nodes.items())


def test_changed_lines_bounds_the_edit() -> None:
    assert changed_lines("a\nb\nc\n", "a\nb\nX\nY\nc\n") == (2, 2, 4)  # two lines inserted
    assert changed_lines("a\nb\nc\n", "a\nB\nc\n") == (1, 2, 2)  # one line changed
    assert changed_lines("a\nb\nc\n", "a\nc\n") == (1, 2, 1)  # one line deleted
    assert changed_lines("a\nc", "a\nXc") == (1, 2, 2)  # typed at the start of a line
    assert changed_lines("a\n", "a\n") == (2, 2, 2)


# Anchors and aliases, within an entry and across entries, merges of aliases, anchors defined
# again under the same name: a re-parse of some entries must read each alias as the whole
# file does, or leave the file to a full parse.
ANCHORED = [
    "{k}: &a{i} value {i}\n",
    "{k}: &a{i}\n  x: {i}\n  y: [1, 2]\n",
    "{k}:\n  base: &a{i} {{p: {i}, q: 2}}\n  copy: *a{i}\n",
    "{k}:\n  base: &a{i}\n    p: {i}\n  over:\n    <<: *a{i}\n    q: 3\n",
    "{k}:\n  list: &a{i}\n  - one\n  - two\n  again: *a{i}\n",
    "{k}: *a{j}\n",
    "{k}:\n  uses: *a{j}\n",
    "{k}:\n  <<: [*a{j}, {{z: 1}}]\n",
    "{k}:\n  m:\n    <<: *a{j}\n    w: {i}\n",
    "{k}: [*a{j}, *a{j}]\n",
    "{k}: &a{j} redefined {i}\n",
]
ANCHOR_SNIPPETS = ["&a1 ", "&a2 ", "*a0", "*a1", "*a3", "<<: *a1\n  ", "  <<: *a2\n", "x: *a0\n"]


def _anchored(rng: random.Random) -> str:
    parts = [rng.choice(["", "# header\n"])]
    for i in range(rng.randint(2, 16)):
        pool = ANCHORED if rng.random() < 0.5 else STANDALONE
        template = rng.choice(pool)
        parts.append(template.format(k=f"key{i}", i=i, j=rng.randint(0, max(0, i - 1))))
    return "".join(parts)


def _anchor_edit(rng: random.Random, text: str) -> str:
    if rng.random() < 0.3:
        at = rng.randint(0, len(text))
        return text[:at] + rng.choice(ANCHOR_SNIPPETS) + text[at:]
    if rng.random() < 0.3:  # an edit inside one entry's value: what typing mostly is
        lines = text.split("\n")
        j = rng.randrange(len(lines))
        lines[j] = lines[j] + rng.choice(["x", " # c", "1"])
        return "\n".join(lines)
    return _edit(rng, text)


@pytest.mark.parametrize("seed", seeds(SEEDS, QUICK_SEEDS))
def test_random_edits_with_anchors_read_as_a_full_parse(seed: int) -> None:
    rng = random.Random(10_000 + seed)
    text = _anchored(rng)
    doc = load_yaml("/d/common.yaml", text)
    for _ in range(16):
        new = _anchor_edit(rng, text)
        spliced = reload_yaml(doc, text, new)
        full = load_yaml("/d/common.yaml", new)
        _same(spliced, full)
        if full.fatal is None or rng.random() < 0.2:
            doc, text = spliced, new


def test_random_anchor_edits_mostly_re_parse_one_entry() -> None:
    """The property test above is worth something only if splicing happens often."""
    spliced_count = edits = 0
    for seed in range(60):
        rng = random.Random(20_000 + seed)
        text = _anchored(rng)
        doc = load_yaml("/d/common.yaml", text)
        for _ in range(8):
            new = _anchor_edit(rng, text)
            spliced = reload_yaml(doc, text, new)
            if spliced.fatal is None:
                edits += 1
                spliced_count += isinstance(spliced.nodes, SplicedNodes)
                doc, text = spliced, new
    assert spliced_count > edits // 3


def test_an_anchored_entry_is_re_parsed_alone() -> None:
    text = (
        "groups:\n  ops: &ops [a, b]\n  all: [*ops, c]\n"
        + "".join(f"user{i}:\n  uid: {1000 + i}\n  groups: []\n" for i in range(50))
        + "late: &late {x: 1}\nlater:\n  <<: *late\n"
    )
    doc = load_yaml("/d/data.yaml", text)
    assert doc.outline is not None and doc.outline.links == (("later", "late"),)
    edited = text.replace("uid: 1020", "uid: 1020\n  shell: /bin/sh")
    spliced = reload_yaml(doc, text, edited)
    assert isinstance(spliced.nodes, SplicedNodes)
    _same(spliced, load_yaml("/d/data.yaml", edited))
    # an edit between an anchor and the entry using it moves the anchor's ranges: in full
    assert not isinstance(
        reload_yaml(doc, text, text.replace("late: &late {x: 1}", "late: &late {x: 2}")).nodes,
        SplicedNodes,
    )
    for anchored in (
        text.replace("uid: 1030", "uid: *ops"),  # an anchor of another entry: unknown alone
        text.replace("user40:\n", "user40: &late 1\nnot_user40:\n"),  # defines a used name
    ):
        _same(reload_yaml(doc, text, anchored), load_yaml("/d/data.yaml", anchored))


@pytest.mark.slow  # 20,000 node copies parsed and compared, three times over
def test_the_copy_budget_is_the_whole_files() -> None:
    """Aliases copy node ranges up to a budget for the document, spent in file order: an
    edit that makes the whole file's copies overrun it must read as a full parse does."""
    big = "".join(f"    k{n}: {n}\n" for n in range(1600))  # an alias of it: 1,600 copies
    entry = "e{i}:\n  base: &b{i}\n" + big + "  c1: *b{i}\n  c2: *b{i}\n"
    text = "".join(entry.format(i=i) for i in range(6)) + "tail: 1\n"
    doc = load_yaml("/d/data.yaml", text)
    assert doc.outline is not None and sum(n for _, n in doc.outline.spent) == 6 * 2 * 1600
    edited = text.replace("    k7: 7\n", "    k7: 8\n")  # within the budget: one entry
    spliced = reload_yaml(doc, text, edited)
    assert isinstance(spliced.nodes, SplicedNodes)
    _same(spliced, load_yaml("/d/data.yaml", edited))
    more = edited.replace("  c2: *b2\n", "  c2: *b2\n  c3: *b2\n", 1)  # 20,800 copies
    again = reload_yaml(spliced, edited, more)
    _same(again, load_yaml("/d/data.yaml", more))
    assert again.outline is None  # the last alias goes without its ranges


# Few top-level keys over thousands of lines (Wikimedia's admin data: groups, users): an
# edit re-parses the children it touched of the entry it is in.
CHILDREN = [
    "  {c}:\n    uid: {i}\n    name: user {i}\n",
    "  {c}: value {i}\n",
    "  {c}:\n    ssh_keys:\n    - ssh-rsa AAA{i}\n    - ssh-ed25519 BBB\n",
    "  {c}: |\n    literal {i}\n    text\n",
    "  {c}: >-\n    folded {i}\n\n",
    '  {c}: "double\n    quoted {i}"\n',
    "  {c}: [1,\n    2, {i}]\n",
    "  {c}:\n",
    "  # a comment {i}\n",
    "# at column zero {i}\n",
    "\n",
    "  {c}: &x{i} anchored\n",
    "  {c}:\n    <<: {{m: {i}}}\n",
    "  {c}: plain\n    continued {i}\n",
]
NESTED_SNIPPETS = ["  new{n}: 1\n", "\n  ", "    - item\n", "x", "#", ": ", "- ", "top{n}: 1\n"]


def _nested(rng: random.Random) -> str:
    parts = []
    for i in range(rng.randint(1, 4)):
        parts.append(f"top{i}:\n")
        for j in range(rng.randint(1, 12)):
            child = rng.choice(CHILDREN) if rng.random() < 0.4 else CHILDREN[0]
            parts.append(child.format(c=f"c{j}" if rng.random() > 0.03 else "c0", i=j))
    return "".join(parts)


def _nested_edit(rng: random.Random, text: str) -> str:
    if rng.random() < 0.4:
        at = rng.randint(0, len(text))
        snippet = rng.choice(NESTED_SNIPPETS).replace("{n}", str(rng.randint(0, 9)))
        return text[:at] + snippet + text[at:]
    return _anchor_edit(rng, text)


def _inner_spliced(doc: YamlDocument) -> bool:
    return isinstance(doc.nodes, SplicedNodes) and bool(doc.nodes._inner)


@pytest.mark.parametrize("seed", seeds(SEEDS, QUICK_SEEDS))
def test_random_edits_inside_big_entries_read_as_a_full_parse(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yaml_reparse, "INNER_LINES", 0)  # every entry is big enough
    rng = random.Random(30_000 + seed)
    text = _nested(rng)
    doc = load_yaml("/d/data.yaml", text)
    for _ in range(16):
        new = _nested_edit(rng, text)
        spliced = reload_yaml(doc, text, new)
        full = load_yaml("/d/data.yaml", new)
        _same(spliced, full)
        assert dict(spliced.nodes.items()) == dict(full.nodes.items())
        for line in range(rng.randrange(5), new.count("\n") + 1, 5):  # what hover asks
            assert sorted(map(repr, spliced.nodes.covering(line))) == sorted(
                map(repr, full.nodes.covering(line))
            )
        if full.fatal is None or rng.random() < 0.2:
            doc, text = spliced, new


def test_random_nested_edits_mostly_re_parse_some_children(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(yaml_reparse, "INNER_LINES", 0)
    inner = edits = 0
    for seed in range(60):
        rng = random.Random(40_000 + seed)
        text = _nested(rng)
        doc = load_yaml("/d/data.yaml", text)
        for _ in range(8):
            new = _nested_edit(rng, text)
            spliced = reload_yaml(doc, text, new)
            if spliced.fatal is None:
                edits += 1
                inner += _inner_spliced(spliced)
                doc, text = spliced, new
    assert inner > edits // 4


def test_typing_a_users_uid_re_parses_that_user() -> None:
    users = "".join(f"  user{i}:\n    uid: {1000 + i}\n    groups: [a, b]\n" for i in range(250))
    text = "groups:\n  ops: &ops [a]\n  all: [*ops]\nusers:\n" + users + "last: 1\n"
    doc = load_yaml("/d/data.yaml", text)
    edited = text
    for n in range(5):  # typing, one character at a time
        before = edited
        edited = before.replace(f"uid: 1200{'9' * n}\n", f"uid: 1200{'9' * (n + 1)}\n")
        doc = reload_yaml(doc, before, edited)
        assert _inner_spliced(doc)
        _same(doc, load_yaml("/d/data.yaml", edited))
    assert doc.value["users"]["user200"]["uid"] == 120099999  # type: ignore[index]


def test_an_edited_files_string_checks_do_not_count_its_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The string checks' visit budget measures an edited file by its tables' sizes; before,
    each check counted the spliced table's nodes, a walk of the whole old table (10-20 ms of
    every keystroke's checks on Wikimedia's 7,310-line admin data)."""
    from hiera_ls.checks.data_shapes import check_null_words

    text = _big() + "profile::x: None\n"
    data = load_yaml_data("/d/big.yaml", text)
    edited = text.replace("port: 8150", "port: 8151")
    spliced = reload_yaml_data(data, text, edited)
    assert isinstance(spliced.nodes, SplicedNodes)
    assert spliced.nodes.size_bound() >= len(spliced.nodes)

    def counted(self: SplicedNodes) -> int:
        raise AssertionError("the edited file's nodes were counted")

    monkeypatch.setattr(SplicedNodes, "__len__", counted)
    found = check_null_words("/d/big.yaml", spliced, edited)
    assert [p.where.span.start.line for p in found] == [edited.count("\n") - 1]


def test_typing_in_one_user_does_not_walk_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    """The children of the entry edited are kept from one edit to the next (their lines,
    moved by the lines an edit adds): before, every keystroke in one of Wikimedia's 630
    users looked up the node of each of them."""
    users = "".join(f"  user{i}:\n    uid: {1000 + i}\n    groups: [a, b]\n" for i in range(250))
    text = "groups:\n  ops: [a]\nusers:\n" + users + "last: 1\n"
    doc = load_yaml("/d/data.yaml", text)
    edits = [("uid: 1200\n", "uid: 12001\n"), ("uid: 1100\n", "uid: 1100\n    gecos: x\n")]
    edits += [("uid: 1201\n", "uid: 120\n"), ("    gecos: x\n", "")]
    looked_up: list[NodePath] = []
    raw = SplicedNodes.raw

    def counted(self: SplicedNodes, path: NodePath) -> Raw | None:
        looked_up.append(path)
        return raw(self, path)

    monkeypatch.setattr(SplicedNodes, "raw", counted)
    for n, (old, new) in enumerate(edits):
        edited = text.replace(old, new, 1)
        looked_up.clear()
        doc = reload_yaml(doc, text, edited)
        children = {p[1] for p in looked_up if len(p) > 1}
        text = edited
        assert _inner_spliced(doc)
        _same(doc, load_yaml("/d/data.yaml", text))
        if n:  # (the first edit's document came from a full parse: its children are found)
            assert len(children) <= 4, n
