"""``diff`` reads data files for their values alone (source/data_file.load_yaml_values): a
file that loads cleanly is read without its nodes' ranges, any other as every reader reads
it.  On every text whose Psych answer is recorded, and on random documents with anchors,
merge keys, duplicate keys, tags and odd scalars, what a lookup reads of the file (its
value, its failure, its per-key errors, its problems) is what the full load gives."""

from __future__ import annotations

import random

import pytest

from hiera_ls.source.data_file import DataFile, load_yaml_data, load_yaml_values
from tests.source.psych_cases import recorded_texts

PATH = "/repo/data/nodes/n1.example.com.yaml"


def _as_read(data: DataFile) -> tuple[object, ...]:
    return (data.data, data.failure, data.key_errors, data.problems, data.readable)


def _agree(text: str) -> DataFile:
    full = load_yaml_data(PATH, text)
    values = load_yaml_values(PATH, text)
    assert _as_read(values) == _as_read(full), text
    assert repr(values.data) == repr(full.data), text  # the same classes and key order
    if len(values.nodes) == 0 and len(full.nodes) > 0:  # read without its ranges
        assert not full.problems and full.failure is None and not full.key_errors, text
    else:
        assert values == full, text
    return values


@pytest.mark.parametrize("part", range(4))
def test_every_recorded_text_reads_as_the_full_load(part: int) -> None:
    texts = recorded_texts()
    for text in texts[part::4]:
        _agree(text)
        _agree("top:\n" + "".join(f"  {line}\n" for line in text.splitlines()))


_SCALARS = ["1", "0o17", "1_000", "2001-12-14", "yes", "~", "'q'", '"d\\n"', "!!str 3",
            "!ruby/regexp /a/", ":sym", "1.5e3", ".inf", "x: y", "%{facts.role}",
            "!!binary aGk="]  # fmt: skip


def _node(rng: random.Random, depth: int, anchors: list[str]) -> str:
    pick = rng.randrange(8 if depth < 3 else 4)
    if pick < 3:
        return rng.choice(_SCALARS)
    if pick == 3 and anchors:
        return f"*{rng.choice(anchors)}"
    anchor = ""
    if rng.random() < 0.3:
        name = f"a{len(anchors)}"
        anchors.append(name)
        anchor = f"&{name} "
    if pick in (4, 5):
        keys = [rng.choice(["k", "l", "m", "<<", "1", "~", "[x]"]) for _ in range(3)]
        body = ", ".join(f"{k}: {_node(rng, depth + 1, anchors)}" for k in keys)
        return f"{anchor}{{{body}}}"
    items = ", ".join(_node(rng, depth + 1, anchors) for _ in range(rng.randint(0, 3)))
    return f"{anchor}[{items}]"


@pytest.mark.parametrize("seed", range(4))
def test_random_documents_read_as_the_full_load(seed: int) -> None:
    rng = random.Random(seed)
    read_without_ranges = 0
    for _ in range(300):
        anchors: list[str] = []
        lines = [
            f"{rng.choice(['a', 'b', 'c', 'd', '1', 'true'])}: {_node(rng, 0, anchors)}"
            for _ in range(rng.randint(1, 5))
        ]
        values = _agree("\n".join(lines) + "\n")
        read_without_ranges += len(values.nodes) == 0 and bool(values.data)
    assert read_without_ranges > 10  # the clean ones: read without their ranges


def test_a_clean_file_keeps_no_ranges_and_one_with_a_problem_keeps_them() -> None:
    clean = load_yaml_values(PATH, "a: 1\nb:\n  c: [x, '%{facts.role}']\n")
    assert clean.data == {"a": 1, "b": {"c": ["x", "%{facts.role}"]}}
    assert len(clean.nodes) == 0 and clean.document is None
    duplicate = load_yaml_values(PATH, "a: 1\na: 2\n")
    assert duplicate.problems and duplicate.nodes.get(("a",)) is not None
