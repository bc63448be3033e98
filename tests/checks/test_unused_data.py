"""key-unused: the keys nothing reads (no class parameter, no lookup in code, no data
reference), over a code index built by hand; what is never judged stays silent."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, cast

import pytest
from lsprotocol import types

from hiera_ls.checks import registry, unused_data
from hiera_ls.features import lsp_ranges
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Problem

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "control-repo"
HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
COMMON = """\
lookup_options:
  ntp_servers:
    merge: unique
classes: [profile::web]
role::web::classes: [profile::web]
profile::web::port: 80
profile::web::vhost: localhost
profile::web::domain: example.com
profile::web::url: "https://%{lookup('profile::web::domain')}"
app::name: web
legacy::thing: 1
ntp_servers: [pool.ntp.org]
outside::key: 1
profile::vhost::docroot: /srv
legacy::bare: 1
template_key: 1
"""
CODE = {
    "modules/profile/manifests/web.pp": "class profile::web (Integer $port = 80) {}\n",
    "modules/profile/manifests/vhost.pp": "define profile::vhost () {}\n",
    "modules/app/manifests/init.pp": "class app {}\n",
    "manifests/site.pp": (
        "node default {\n  $n = lookup('app::name')\n  $t = lookup(\"legacy::${x}\")\n}\n"
    ),
    # code that reads keys where the code index does not see it: a bare word argument and
    # a template's call_function
    "modules/legacy/manifests/init.pp": "class legacy (\n  $x = lookup(legacy::bare),\n) {}\n",
    "modules/legacy/templates/t.erb": "<%= scope.call_function('lookup', ['template_key']) %>\n",
}


def write_repo(root: Path, code: bool = True) -> Path:
    (root / "data").mkdir()
    (root / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    common = root / "data" / "common.yaml"
    common.write_text(COMMON, encoding="utf-8")
    for path, text in CODE.items() if code else ():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return common


def problems(root: Path, code: bool = True) -> list[Problem]:
    common = write_repo(root, code)
    snap = Workspace([str(root)]).snapshot()
    return [p for p in Diagnostics().file_problems(snap, str(common)) if p.code == "key-unused"]


def diagnostics_of(root: Path, code: bool = True) -> list[tuple[int, str, str]]:
    return [(p.where.span.start.line, p.code, p.message) for p in problems(root, code)]


def test_keys_nothing_reads_are_hints_with_why(tmp_path: Path):
    # not reported: parameters, lookups (literal, run-time), data references, classes keys,
    # keys of modules not on the modulepath, keys the code writes out (a bare word, a template)
    found = diagnostics_of(tmp_path)
    assert [(line, message.split(": no class")[0]) for line, _, message in found] == [
        (11, "Nothing reads 'ntp_servers'"),
    ]
    # the keys of a class without that parameter or of a defined type are said once, the
    # stronger way: the class checks' warnings (profile::web::url reads another key, but
    # nothing reads it)
    (tmp_path / "again").mkdir()
    common = write_repo(tmp_path / "again")
    snap = Workspace([str(tmp_path / "again")]).snapshot()
    warned = [
        (p.where.span.start.line, p.code)
        for p in Diagnostics().file_problems(snap, str(common))
        if p.code.startswith("class-")
    ]
    assert warned == [
        (6, "class-parameter-unknown"),
        (8, "class-parameter-unknown"),
        (13, "class-parameter-of-define"),
    ]


def test_without_a_code_index_nothing_is_judged(tmp_path: Path):
    assert diagnostics_of(tmp_path, code=False) == []


def test_the_hint_greys_the_key_out_in_the_editor(tmp_path: Path):
    found = problems(tmp_path)
    diagnostic = lsp_ranges.diagnostic(found[0], lsp_ranges.Converter(COMMON))
    assert diagnostic.tags == [types.DiagnosticTag.Unnecessary]
    assert diagnostic.severity == types.DiagnosticSeverity.Hint


def test_keys_of_a_class_file_the_reader_could_not_read_are_not_judged(tmp_path: Path):
    # the example's ssh class with an unclosed string: what it does with its keys is unknown,
    # so they are not "read by nothing" (before: four hints saying there is no such class)
    root = tmp_path / "control-repo"
    shutil.copytree(EXAMPLE, root)
    ssh = root / "site-modules" / "profile" / "manifests" / "ssh.pp"
    ssh.write_text('class profile::ssh (\n  Integer $port = 22,\n  String $x = "open\n')
    snap = Workspace([str(root)]).snapshot()
    found = [
        (path, p.message)
        for path in ("data/common.yaml", "data/roles/web.yaml")
        for p in Diagnostics().file_problems(snap, str(root / path))
        if p.code in ("key-unused", "class-not-found", "class-parameter-unknown")
    ]
    assert found == []


def test_a_file_over_the_large_file_size_gets_no_hint_per_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the other per-key checks: 500,000 hints on a 10 MB file took 1.86 GB to publish,
    and a 26 MB file ran out of memory before any diagnostic arrived. The size is scaled
    down here (the same code path)."""
    from hiera_ls.features import diagnostics as diagnostics_module

    monkeypatch.setattr(diagnostics_module, "LARGE_FILE_CHARS", len(COMMON) - 1)
    assert diagnostics_of(tmp_path) == []


def test_one_publish_carries_a_bounded_number_of_diagnostics() -> None:
    from hiera_ls.lsp.diagnostics_scheduler import MAX_PUBLISHED, capped
    from hiera_ls.puppet.message import Text
    from hiera_ls.source.spans import FileSpan, Severity, Span

    def at(line: int, severity: Severity) -> Problem:
        return Problem(
            "key-unused",
            Text.of(f"k{line}"),
            severity,
            FileSpan("/f.yaml", Span.of(line, 0, line, 1)),
        )

    hints = [at(i, Severity.HINT) for i in range(MAX_PUBLISHED * 3)]
    error = at(MAX_PUBLISHED * 2, Severity.ERROR)
    shown = capped([*hints[: MAX_PUBLISHED * 2], error, *hints[MAX_PUBLISHED * 2 :]])
    assert len(shown) == MAX_PUBLISHED + 1
    assert shown[0].message.startswith(f"hiera-ls shows {MAX_PUBLISHED:,} of the 15,001 problems")
    assert error in shown  # the most severe first


def test_a_files_findings_come_in_file_order_as_an_edits_do(tmp_path: Path):
    # the hints and the index's findings interleaved with the file's own by line: an edit's
    # publish has them so (moved in file order), and starts from this one's
    common = write_repo(tmp_path)
    snap = Workspace([str(tmp_path)]).snapshot()
    found = Diagnostics().file_problems(snap, str(common))
    lines = [(p.where.span.start.line, p.code) for p in found]
    assert (11, "key-unused") in lines and (13, "class-parameter-of-define") in lines
    assert lines == sorted(lines)


@pytest.mark.parametrize(
    ("module", "name"),
    [(unused_data, "unused_in_file"), (registry, "check_class_keys")],
    ids=["unused keys", "class parameters"],
)
def test_the_checks_of_a_big_file_give_way_between_slices_of_keys(
    tmp_path: Path, module: Any, name: str
) -> None:
    """The server's background run may stop between slices of a file's keys (an edit came
    in: it gives up by raising from its pause), not only once every key is judged: the
    unused-key hints and the class parameter checks of a 10,000-line file took 20-45 ms
    each without a pause, which the first edit after a pause in typing waited for."""
    common = write_repo(tmp_path)
    many = "".join(f"k{n}: {n}\nprofile::web::k{n}: {n}\n" for n in range(1000))
    common.write_text(COMMON + many, encoding="utf-8")
    snap = Workspace([str(tmp_path)]).snapshot()
    full = Diagnostics().file_problems(snap, str(common))
    assert len([p for p in full if p.code == "key-unused"]) > 1000
    assert len([p for p in full if p.code == "class-parameter-unknown"]) > 1000
    inside: list[bool] = []  # whether the check is under way
    check = getattr(module, name)

    def checking(*args: Any, **kwargs: Any) -> list[Problem]:
        inside.append(True)
        found = check(*args, **kwargs)
        inside.append(False)
        return cast(list[Problem], found)

    class GivenUp(Exception):
        pass

    def pause() -> None:
        if inside and inside[-1]:
            raise GivenUp

    with pytest.MonkeyPatch.context() as m:
        m.setattr(module, name, checking)
        with pytest.raises(GivenUp):
            Diagnostics().file_problems(snap, str(common), pause)
    assert inside == [True]  # given up inside the check, not after it
