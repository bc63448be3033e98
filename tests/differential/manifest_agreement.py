"""How far hiera-ls's reader of Puppet code agrees with Puppet's own parser.

Both read the same .pp files: Puppet 7.23 through ``tests/oracle/manifest_oracle.rb`` (its
parser and lexer, nothing evaluated), hiera-ls through
``hiera_ls.source.manifest_parser.read_manifest``.  Compared, item by item, with Puppet's
side as the reference:

- definitions: kind and name (lower-case, no leading ``::``), the name token's position,
  a class's parent and a type alias's text;
- parameters: the list of names in order, each parameter's ``$name`` position, its type text
  and its default text, exactly as written (a heredoc default is its ``@(TAG)`` opener in
  Puppet's answer: ours agrees when it is that opener or starts with it);
- explicit lookups (``lookup``/``hiera*``, function or method call): function, literal key
  (or none; a bare word is a literal key, as Puppet evaluates it to its string) and the key
  argument's position (where the argument or, for a quoted key, its content starts; for a
  dynamic key, anywhere on the call's or the argument's line: each convention is accepted;
  an array of names is one lookup per name, as is lookup's ``{'name' => ...}`` form);
- inclusions (``include``/``contain``/``require``, ``class { 'x': }``): name and position
  (as for keys).

What only hiera-ls reports counts against it too.  Type and default texts that differ only in
whitespace are counted apart ("whitespace only"): the exact figure does not include them,
the second figure does.  Plans (``plans/*.pp``) are left out: Puppet compiles no plans.

With ``--templates``, .epp templates are compared too (their lookups and includes: Puppet's
EPP parser against hiera-ls's template reader).

Command line (prints the figures, the disagreement classes and the first disagreements)::

    python -m tests.differential.manifest_agreement [--show N] [--json FILE] PATH...

``--mutants N`` compares N small random edits of each file instead (a deleted bracket, quote or
comma, a deleted or copied line: what a file looks like while it is being typed), so the
reader is also judged on files Puppet rejects: it must not raise, should report a problem
("files Puppet rejects"), and must still agree on every edit Puppet accepts.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from hiera_ls.source.files import read_disk
from hiera_ls.source.manifest_model import Definition, ManifestFacts, Parameter
from hiera_ls.source.spans import Span
from tests.oracle.engines import ENGINES, PUPPET7, PuppetEngine
from tests.oracle.manifests import manifest_files, puppet_parse

Reader = Callable[[str, str], ManifestFacts]
DEFAULT_READER = "hiera_ls.source.manifest_parser:read_manifest"
TEMPLATE_READER = "hiera_ls.source.template_reader:read_epp_lookups"

# Categories, in report order; each item of a category agrees or not.
CATEGORIES = (
    "files",
    "files Puppet rejects",
    "definitions",
    "definition positions",
    "parents",
    "alias texts",
    "parameter lists",
    "parameters",
    "parameter positions",
    "type texts",
    "default texts",
    "lookups",
    "inclusions",
)
TEXT_CATEGORIES = ("type texts", "default texts", "alias texts")
SHOWN_TEXT = 70


def load_reader(spec: str = DEFAULT_READER) -> Reader:
    module, _, name = spec.partition(":")
    reader: Reader = getattr(importlib.import_module(module), name or "read_manifest")
    return reader


def normal_name(name: str) -> str:
    return name.lower().removeprefix("::")


def squeeze(text: str) -> str:
    return " ".join(text.split())


def _short(text: object) -> str:
    shown = repr(text)
    return shown if len(shown) <= SHOWN_TEXT else shown[: SHOWN_TEXT - 3] + "..."


def _start(span: Sequence[int]) -> tuple[int, int]:
    return (span[0], span[1])


def _starts(item: dict[str, Any]) -> list[tuple[int, int]]:
    """Where a key or class name may start: the argument, or a quoted one's content."""
    starts = [_start(item["span"])]
    if item.get("text_span"):
        starts.append(_start(item["text_span"]))
    if item.get("call_span") and item.get("key", "") is None:
        starts.append(_start(item["call_span"]))  # a dynamic key: the call's span
    return starts


def _our_start(span: Span) -> tuple[int, int]:
    return (span.start.line, span.start.column)


@dataclass(frozen=True, slots=True)
class Disagreement:
    category: str
    kind: str  # the finer class the report groups by
    path: str
    line: int  # 1-based; 0 when unknown
    detail: str

    def human(self, root: str = "") -> str:
        path = os.path.relpath(self.path, root) if root else self.path
        return f"{path}:{self.line}: {self.category} ({self.kind}): {self.detail}"


@dataclass(slots=True)
class Agreement:
    """Counts per category and every disagreement, over any number of files."""

    puppet_version: str = ""
    files: int = 0
    puppet_failed: int = 0
    compared: Counter[str] = field(default_factory=Counter)
    agreed: Counter[str] = field(default_factory=Counter)
    whitespace_only: Counter[str] = field(default_factory=Counter)
    extra: Counter[str] = field(default_factory=Counter)
    puppet_counts: Counter[str] = field(default_factory=Counter)
    disagreements: list[Disagreement] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    def item(self, category: str, ok: bool, whitespace_only: bool = False) -> None:
        self.compared[category] += 1
        if ok:
            self.agreed[category] += 1
        elif whitespace_only:
            self.whitespace_only[category] += 1

    def differ(self, category: str, kind: str, path: str, line: int, detail: str) -> None:
        self.disagreements.append(Disagreement(category, kind, path, line, detail))

    def total(self) -> tuple[int, int, int]:
        compared = sum(self.compared.values())
        agreed = sum(self.agreed.values())
        return compared, agreed, agreed + sum(self.whitespace_only.values())

    @property
    def full(self) -> bool:
        compared, agreed, _ = self.total()
        return compared == agreed

    def classes(self) -> list[tuple[int, str, Disagreement]]:
        """Disagreement classes (category and kind), most common first, with a first example."""
        counts: Counter[str] = Counter()
        first: dict[str, Disagreement] = {}
        for d in self.disagreements:
            key = f"{d.category} / {d.kind}"
            counts[key] += 1
            first.setdefault(key, d)
        return [(n, key, first[key]) for key, n in counts.most_common()]

    def report(self, show: int = 20, root: str = "") -> list[str]:
        compared, agreed, loose = self.total()
        lines = [
            f"hiera-ls manifest reader vs Puppet {self.puppet_version} parser: {self.files} "
            f"files, {self.files - self.puppet_failed} parsed by Puppet, "
            f"{self.puppet_failed} not",
            f"agreement: {_pct(agreed, compared)} exact ({agreed} of {compared} items); "
            f"{_pct(loose, compared)} when type/default texts that differ only in whitespace "
            "count as agreeing",
            "Puppet found: "
            + ", ".join(f"{n} {what}" for what, n in sorted(self.puppet_counts.items())),
        ]
        for category in CATEGORIES:
            n = self.compared[category]
            if not n:
                continue
            agreed = self.agreed[category]
            line = f"  {category:<21} {agreed:>6} of {n:<6} {_pct(agreed, n):>7}"
            if self.whitespace_only[category]:
                line += f"  (+{self.whitespace_only[category]} whitespace only)"
            if self.extra[category]:
                line += f"  ({self.extra[category]} only in hiera-ls)"
            lines.append(line)
        if self.seconds:
            lines.append(
                "time: " + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(self.seconds.items()))
            )
        classes = self.classes()
        if classes:
            lines.append("disagreement classes (most common first):")
            for n, key, example in classes:
                lines.append(f"  {n:>5}  {key}")
                lines.append(f"         e.g. {example.human(root)}")
        if self.disagreements and show:
            lines.append(f"first {min(show, len(self.disagreements))} disagreements:")
            lines.extend("  " + d.human(root) for d in self.disagreements[:show])
        return lines

    def as_json(self) -> dict[str, Any]:
        compared, agreed, loose = self.total()
        return {
            "puppet": self.puppet_version,
            "files": self.files,
            "puppet_failed": self.puppet_failed,
            "items": compared,
            "agreed": agreed,
            "agreed_ignoring_whitespace": loose,
            "categories": {
                c: {
                    "compared": self.compared[c],
                    "agreed": self.agreed[c],
                    "whitespace_only": self.whitespace_only[c],
                    "only_in_hiera_ls": self.extra[c],
                }
                for c in CATEGORIES
            },
            "puppet_counts": dict(self.puppet_counts),
            "classes": [{"count": n, "class": key} for n, key, _ in self.classes()],
            "disagreements": [asdict(d) for d in self.disagreements],
            "seconds": self.seconds,
        }


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.2f}%" if whole else "n/a"


# ----------------------------------------------------------------------------------------------
# One file


def compare_file(tally: Agreement, answer: dict[str, Any], ours: ManifestFacts | None) -> None:
    """Count one file's items into ``tally``; ``ours`` is None when our reader raised."""
    path = str(answer["path"])
    tally.files += 1
    if not answer["ok"]:
        tally.puppet_failed += 1
        tally.puppet_counts["files Puppet cannot parse"] += 1
        if path.endswith(".epp"):
            tally.puppet_counts["of them .epp templates"] += 1
        # Puppet refuses the whole file; ours may still read parts, but should say why.
        tally.item("files Puppet rejects", ours is not None and bool(ours.problems))
        if ours is None:
            tally.differ("files", "hiera-ls raised", path, 0, "the reader raised an exception")
        elif not ours.problems:
            tally.differ(
                "files",
                "Puppet cannot parse, hiera-ls reports no problem",
                path,
                int(answer.get("line") or 0),
                f"Puppet: {answer['error']}",
            )
        return
    tally.puppet_counts["files"] += 1
    if path.endswith(".epp"):
        tally.puppet_counts["of them .epp templates"] += 1
    if answer.get("validation"):
        # Parsed, but Puppet's validator refuses it (an illegal name...): still compared.
        tally.puppet_counts["files Puppet's validator rejects"] += 1
    tally.item("files", ours is not None and not ours.problems)
    if ours is None:
        tally.differ("files", "hiera-ls raised", path, 0, "the reader raised an exception")
        ours = ManifestFacts(path=path)
    elif ours.problems:
        first = ours.problems[0]
        tally.differ(
            "files",
            "hiera-ls reports a problem in a file Puppet parses",
            path,
            first.span.start.line + 1,
            f"{len(ours.problems)} problem(s), first: {first.message}",
        )
    _compare_definitions(tally, path, answer["definitions"], ours)
    _compare_lookups(tally, path, answer["lookups"], ours)
    _compare_inclusions(tally, path, answer["inclusions"], ours)


def _compare_definitions(
    tally: Agreement, path: str, theirs: list[dict[str, Any]], ours: ManifestFacts
) -> None:
    plans = {normal_name(d["name"]) for d in theirs if d["kind"] == "plan"}
    # A name may be declared twice (Puppet parses it; loading fails later): the n-th of
    # Puppet's is compared with the n-th of ours.
    mine: dict[tuple[str, str], list[Definition]] = {}
    for found in ours.definitions:
        if normal_name(found.name) not in plans:
            mine.setdefault((found.kind.value, normal_name(found.name)), []).append(found)
    for d in theirs:
        if d["kind"] == "plan":
            tally.puppet_counts["plans (not compared)"] += 1
            continue
        tally.puppet_counts[f"{d['kind']} definitions"] += 1
        tally.puppet_counts["parameters"] += len(d["params"])
        key = (d["kind"], normal_name(d["name"]))
        line = d["span"][0] + 1
        o = mine[key].pop(0) if mine.get(key) else None
        tally.item("definitions", o is not None)
        if o is None:
            tally.differ(
                "definitions", f"missing {d['kind']}", path, line, f"{d['kind']} {d['name']}"
            )
            continue
        ok = _start(d["span"]) == _our_start(o.span)
        tally.item("definition positions", ok)
        if not ok:
            tally.differ(
                "definition positions",
                d["kind"],
                path,
                line,
                f"{d['name']}: Puppet {_start(d['span'])}, hiera-ls {_our_start(o.span)}",
            )
        if d["kind"] == "class":
            parent = normal_name(d["parent"]) if d["parent"] else None
            mine_parent = normal_name(o.parent) if o.parent else None
            tally.item("parents", parent == mine_parent)
            if parent != mine_parent:
                tally.differ(
                    "parents", "class", path, line, f"Puppet {parent!r}, hiera-ls {mine_parent!r}"
                )
        if d["kind"] == "type alias":
            _compare_text(
                tally, "alias texts", "type alias", path, line, d["alias_text"], o.alias_text
            )
        _compare_params(tally, path, d, o)
    for key, left in mine.items():
        for extra in left:
            tally.extra["definitions"] += 1
            tally.item("definitions", False)
            tally.differ(
                "definitions",
                f"extra {key[0]}",
                path,
                extra.span.start.line + 1,
                f"{key[0]} {extra.name} (Puppet has none)",
            )


def _compare_params(tally: Agreement, path: str, d: dict[str, Any], o: Definition) -> None:
    names = [p["name"] for p in d["params"]]
    mine_names = [p.name for p in o.params]
    line = d["span"][0] + 1
    if names or mine_names:
        tally.item("parameter lists", names == mine_names)
        if names != mine_names:
            tally.differ(
                "parameter lists",
                d["kind"],
                path,
                line,
                f"{d['name']}: Puppet {names}, hiera-ls {mine_names}",
            )
    # The n-th parameter of a name is compared with our n-th of that name (duplicates parse).
    by_name: dict[str, list[Parameter]] = {}
    for ours_p in o.params:
        by_name.setdefault(ours_p.name, []).append(ours_p)
    for p in d["params"]:
        q = by_name[p["name"]].pop(0) if by_name.get(p["name"]) else None
        pline = p["span"][0] + 1
        tally.item("parameters", q is not None)
        if q is None:
            tally.differ(
                "parameters", "missing", path, pline, f"{d['name']}: ${p['name']} not read"
            )
            continue
        ok = _start(p["span"]) == _our_start(q.span)
        tally.item("parameter positions", ok)
        if not ok:
            tally.differ(
                "parameter positions",
                d["kind"],
                path,
                pline,
                f"${p['name']}: Puppet {_start(p['span'])}, hiera-ls {_our_start(q.span)}",
            )
        _compare_text(
            tally, "type texts", "type", path, pline, p["type_text"], q.type_text, p["name"]
        )
        kind = p["default_class"] or "none"
        theirs = p["default_text"]
        mine = q.default_text
        if kind == "HeredocExpression" and theirs and mine and mine.startswith(theirs):
            mine = theirs  # Puppet's text of a heredoc is its opener
        _compare_text(tally, "default texts", kind, path, pline, theirs, mine, p["name"])
    for left in by_name.values():
        for q in left:
            tally.extra["parameters"] += 1
            tally.item("parameters", False)
            tally.differ(
                "parameters",
                "extra",
                path,
                q.span.start.line + 1,
                f"{d['name']}: ${q.name} (Puppet has none)",
            )


def _compare_text(
    tally: Agreement,
    category: str,
    kind: str,
    path: str,
    line: int,
    theirs: str | None,
    mine: str | None,
    name: str = "",
) -> None:
    ok = theirs == mine
    loose = not ok and theirs is not None and mine is not None and squeeze(theirs) == squeeze(mine)
    tally.item(category, ok, loose)
    if not ok:
        label = f"${name}: " if name else ""
        tally.differ(
            category,
            f"{kind}, whitespace only" if loose else kind,
            path,
            line,
            f"{label}Puppet {_short(theirs)}, hiera-ls {_short(mine)}",
        )


def _compare_lookups(
    tally: Agreement, path: str, theirs: list[dict[str, Any]], ours: ManifestFacts
) -> None:
    mine: Counter[tuple[str, str | None, tuple[int, int]]] = Counter(
        (c.function.value, c.key, _our_start(c.span)) for c in ours.lookups
    )
    for c in theirs:
        tally.puppet_counts["lookups"] += 1
        if c["key"] is None:
            tally.puppet_counts["lookups with a dynamic key"] += 1
        ok = False
        for at in _starts(c):
            key = (c["function"], c["key"], at)
            if mine[key] > 0:
                mine[key] -= 1
                ok = True
                break
        if not ok and c["key"] is None:
            # A dynamic key: ours may point at the call, its name or the argument.
            lines = {c["span"][0], c["call_span"][0]}
            for found in mine:
                if found[:2] == (c["function"], None) and found[2][0] in lines and mine[found]:
                    mine[found] -= 1
                    ok = True
                    break
        tally.item("lookups", ok)
        if ok:
            continue
        what = "literal key" if c["key"] is not None else "dynamic key"
        tally.differ(
            "lookups",
            f"missing, {c['style']}, {what}, {c['form']} is {c['argument']}",
            path,
            c["span"][0] + 1,
            f"{c['function']}({_short(c['key'])}) at {_start(c['span'])}",
        )
    for (function, name, at), n in mine.items():
        for _ in range(n):
            tally.extra["lookups"] += 1
            tally.item("lookups", False)
            tally.differ(
                "lookups",
                "extra",
                path,
                at[0] + 1,
                f"{function}({_short(name)}) at {at} (Puppet has none there)",
            )


def _compare_inclusions(
    tally: Agreement, path: str, theirs: list[dict[str, Any]], ours: ManifestFacts
) -> None:
    mine: Counter[tuple[str, tuple[int, int]]] = Counter(
        (normal_name(i.name), _our_start(i.span)) for i in ours.inclusions
    )
    for i in theirs:
        tally.puppet_counts["inclusions"] += 1
        ok = False
        for at in _starts(i):
            found = (normal_name(i["name"]), at)
            if mine[found] > 0:
                mine[found] -= 1
                ok = True
                break
        tally.item("inclusions", ok)
        if ok:
            continue
        tally.differ(
            "inclusions",
            f"missing, {i['function']} ({i['style']})",
            path,
            i["span"][0] + 1,
            f"{i['name']} at {_start(i['span'])}",
        )
    for (name, at), n in mine.items():
        for _ in range(n):
            tally.extra["inclusions"] += 1
            tally.item("inclusions", False)
            tally.differ(
                "inclusions", "extra", path, at[0] + 1, f"{name} at {at} (Puppet has none there)"
            )


# ----------------------------------------------------------------------------------------------
# Many files


def read_ours(reader: Reader, path: str) -> ManifestFacts | None:
    """Our reader's facts for one file, read as the code index reads it; None if it raised.
    An EPP template goes to the template reader instead."""
    if path.endswith(".epp"):
        reader = load_reader(TEMPLATE_READER)
    found = read_disk(path)
    text = found.text if found is not None else ""
    try:
        return reader(path, text)
    except Exception:  # a crash is a finding, reported per file
        traceback.print_exc(limit=3, file=sys.stderr)
        return None


MUTABLE = "{}()[],'\"$=|:"


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One small edit of the kind a person makes while typing, and what it was."""
    lines = text.splitlines(keepends=True)
    choice = rng.randrange(3)
    spots = [i for i, ch in enumerate(text) if ch in MUTABLE]
    if choice == 0 and spots:
        i = rng.choice(spots)
        line = text.count("\n", 0, i) + 1
        return text[:i] + text[i + 1 :], f"deleted {text[i]!r} on line {line}"
    if not lines:
        return text + "{", "added '{'"
    k = rng.randrange(len(lines))
    if choice == 1:
        return "".join(lines[:k] + lines[k + 1 :]), f"deleted line {k + 1}"
    j = rng.randrange(len(lines))
    return "".join([*lines[:k], lines[j], *lines[k:]]), f"copied line {j + 1} before line {k + 1}"


def write_mutants(files: Sequence[str], count: int, seed: int, directory: str) -> list[str]:
    """``count`` mutants of each file in ``directory`` (named after the original), and a
    ``MUTANTS.txt`` there saying what each edit was."""
    rng = random.Random(seed)
    os.makedirs(directory, exist_ok=True)
    root = os.path.commonpath(files) if len(files) > 1 else os.path.dirname(files[0])
    written: list[str] = []
    told: list[str] = []
    for path in files:
        found = read_disk(path)
        text = found.text if found is not None else ""
        stem = os.path.relpath(path, root).replace(os.sep, "__").removesuffix(".pp")
        for k in range(count):
            mutant, what = mutate(text, rng)
            target = os.path.join(directory, f"{stem}.m{k}.pp")
            with open(target, "w", encoding="utf-8", newline="") as out:
                out.write(mutant)
            written.append(target)
            told.append(f"{os.path.basename(target)}: {what}\n")
    with open(os.path.join(directory, "MUTANTS.txt"), "w", encoding="utf-8") as out:
        out.writelines(told)
    return written


def agreement(
    paths: Iterable[str], reader: Reader | None = None, engine: PuppetEngine = PUPPET7
) -> Agreement:
    """Parse every file with Puppet and with ``reader`` (ours by default) and compare."""
    files = list(paths)
    read = reader or load_reader()
    tally = Agreement()
    began = time.perf_counter()
    tally.puppet_version, answers = puppet_parse(files, engine)
    tally.seconds["Puppet (one process)"] = time.perf_counter() - began
    spent = 0.0
    for answer in answers:
        began = time.perf_counter()
        ours = read_ours(read, str(answer["path"]))
        spent += time.perf_counter() - began
        compare_file(tally, answer, ours)
    tally.seconds["hiera-ls (read + parse)"] = spent
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.differential.manifest_agreement",
        description="Compare hiera-ls's reader of Puppet code with Puppet's own parser.",
    )
    parser.add_argument("paths", nargs="+", help=".pp files or directories (searched for .pp)")
    parser.add_argument("--show", type=int, default=20, help="disagreements listed (20)")
    parser.add_argument("--json", metavar="FILE", help="also write every count and finding")
    parser.add_argument(
        "--reader", default=DEFAULT_READER, help=f"MODULE:FUNCTION to test ({DEFAULT_READER})"
    )
    parser.add_argument(
        "--mutants",
        type=int,
        default=0,
        metavar="N",
        help="compare N small random edits of each file instead (typing mistakes: a deleted "
        "bracket, quote or comma, a deleted or copied line)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the edits (0)")
    parser.add_argument(
        "--engine", choices=tuple(ENGINES), default="puppet7", help="the Puppet to ask (puppet7)"
    )
    parser.add_argument(
        "--templates",
        action="store_true",
        help="also compare the lookups of .epp templates (Puppet's EPP parser, hiera-ls's "
        "template reader)",
    )
    parser.add_argument(
        "--mutants-dir", metavar="DIR", help="keep the edited files here (with MUTANTS.txt)"
    )
    args = parser.parse_args(argv)
    files = list(manifest_files(args.paths, (".pp", ".epp") if args.templates else (".pp",)))
    if not files:
        print("no .pp files found", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="hiera-ls-mutants-") as scratch:
        if args.mutants:
            files = write_mutants(files, args.mutants, args.seed, args.mutants_dir or scratch)
        tally = agreement(files, load_reader(args.reader), ENGINES[args.engine])
    root = os.path.commonpath(files) if len(files) > 1 else os.path.dirname(files[0])
    print("\n".join(tally.report(args.show, root)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(tally.as_json(), out, indent=1)
            out.write("\n")
    return 0 if tally.full else 1


if __name__ == "__main__":
    raise SystemExit(main())
