"""Lookups, interpolation and globs stay bounded (issue #9): each case answers in seconds
through ``hiera-ls lookup`` and through the server's diagnostics, with Puppet's answer or a
clear message (docs/security.md, "Lookups, interpolation and globs")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hiera_ls.engine import interpolation
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.features.hover import hover
from hiera_ls.features.sessions import new_session
from hiera_ls.project import key_index
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Position
from tests.engine.envbuilder import make_env
from tests.hang_guard import HUNG_S
from tests.robustness.test_yaml_bounds import alias_bomb

COMMON = "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n"


def _env(tmp_path: Path, hiera: str, files: dict[str, str]) -> Path:
    (tmp_path / "hiera.yaml").write_text(hiera)
    for name, text in files.items():
        target = tmp_path / "data" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return tmp_path


def _lookup(root: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "hiera_ls", "lookup", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=2 * HUNG_S,
        env=env,
    )
    return done, time.monotonic() - start


def _chain(n: int) -> str:
    return "".join(f"k{i}: \"%{{lookup('k{i + 1}')}}\"\n" for i in range(1, n)) + f"k{n}: end\n"


@pytest.mark.slow
def test_a_backtracking_glob_answers_as_puppet_does(tmp_path: Path) -> None:
    hiera = 'version: 5\nhierarchy:\n  - name: g\n    glob: "' + "*a" * 12 + 'c.yaml"\n'
    root = _env(tmp_path, hiera, {"a" * 195 + ".yaml": "x: 1\n"})
    done, took = _lookup(root, "x")
    assert took < HUNG_S and done.returncode == 1 and done.stdout == ""  # Puppet: not found


@pytest.mark.slow
def test_a_brace_bomb_answers_as_puppet_does(tmp_path: Path) -> None:
    hiera = 'version: 5\nhierarchy:\n  - name: b\n    glob: "' + "{a,b}" * 20 + '.yaml"\n'
    root = _env(tmp_path, hiera, {"ab" * 10 + ".yaml": "y: 2\n"})
    done, took = _lookup(root, "y")
    assert took < HUNG_S and done.stdout.strip() == "--- 2"
    snapshot = Workspace([str(root)], Settings()).snapshot()
    start = time.monotonic()
    Diagnostics().file_problems(snapshot, str(root / "data" / ("ab" * 10 + ".yaml")))
    assert time.monotonic() - start < HUNG_S


@pytest.mark.slow
def test_chains_puppet_resolves_resolve_and_longer_ones_fail_with_its_message(
    tmp_path: Path,
) -> None:
    root = _env(tmp_path, COMMON, {"common.yaml": _chain(1000)})
    done, took = _lookup(root, "k846")  # 155 keys: Puppet 7.23 resolves it
    assert done.stdout.strip() == "--- end"
    done, took = _lookup(root, "k1")
    assert took < HUNG_S and "stack level too deep" in done.stderr


def test_a_long_chain_gets_its_diagnostics_at_once(tmp_path: Path) -> None:
    root = _env(tmp_path, COMMON, {"common.yaml": _chain(1000)})
    snapshot = Workspace([str(root)], Settings()).snapshot()
    start = time.monotonic()
    Diagnostics().file_problems(snapshot, str(root / "data" / "common.yaml"))
    assert time.monotonic() - start < HUNG_S


@pytest.mark.slow
def test_exponential_interpolation_answers_at_once(tmp_path: Path) -> None:
    # The two tokens are written apart (a token repeated in one string is resolved once).
    lines = "".join(
        f'e{i}: "%{{lookup(\'e{i + 1}\')}}%{{lookup(\\"e{i + 1}\\")}}"\n' for i in range(1, 25)
    )
    root = _env(tmp_path, COMMON, {"common.yaml": lines + "e25: x\n"})
    done, took = _lookup(root, "--render-as", "json", "e5")
    assert took < HUNG_S and done.stdout.strip() == '"' + "x" * 2**20 + '"'
    done, took = _lookup(root, "--explain", "e5")
    assert took < HUNG_S and "how each was found is not shown" in done.stdout


@pytest.mark.slow
def test_a_lookup_options_pattern_that_times_out_is_reported(tmp_path: Path) -> None:
    data = "lookup_options:\n  '^(a|aa)+$|b$':\n    merge: deep\n" + "a" * 40 + "c: 1\n"
    root = _env(tmp_path, COMMON, {"common.yaml": data})
    done, took = _lookup(root, "a" * 40 + "c")
    assert took < HUNG_S and "took longer than" in done.stderr


@pytest.mark.slow
def test_a_long_chain_with_a_facts_profile_gets_its_diagnostics_at_once(tmp_path: Path) -> None:
    root = _env(tmp_path, COMMON, {"common.yaml": _chain(1000)})
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    (root / ".hiera-ls" / "facts" / "n1.yaml").write_text("networking: {hostname: n1}\n")
    snapshot = Workspace([str(root)], Settings(facts_profile="n1")).snapshot()
    start = time.monotonic()
    found = Diagnostics().file_problems(snapshot, str(root / "data" / "common.yaml"))
    assert time.monotonic() - start < HUNG_S
    assert [p.message for p in found] == [
        "[n1] Looking up 'k1' fails: stack level too deep (the same error for 742 more keys of "
        "this file)"
    ]


@pytest.mark.slow
def test_the_nesting_limit_holds_whichever_key_is_looked_up_first(tmp_path: Path) -> None:
    """Kept values remember their depth: k744 (256 nested lookups) resolves, k743 fails,
    in any order, in one session as in a fresh one."""
    lines = "".join(f"k{i}: \"%{{lookup('k{i - 1}')}}\"\n" for i in range(1000, 1, -1))
    root = _env(tmp_path, COMMON, {"common.yaml": "k1: end\n" + lines})
    snapshot = Workspace([str(root)], Settings()).snapshot()
    view = snapshot.environments[0]
    for order in (["k2", "k257", "k258", "k300"], ["k300", "k258", "k257"], ["k258", "k1000"]):
        session = new_session(snapshot, view)
        found = {k: session.lookup(k) for k in order}
        assert {k: o.found for k, o in found.items()} == {k: k in ("k2", "k257") for k in order}
        assert all(o.error == "stack level too deep" for o in found.values() if not o.found)


@pytest.mark.slow
def test_hovers_over_a_long_chain_and_an_exponential_key_answer_at_once(tmp_path: Path) -> None:
    expo = "".join(
        f'e{i}: "%{{lookup(\'e{i + 1}\')}}%{{lookup(\\"e{i + 1}\\")}}"\n' for i in range(1, 15)
    )
    root = _env(tmp_path, COMMON, {"common.yaml": _chain(1000) + expo + "e15: x\n"})
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    (root / ".hiera-ls" / "facts" / "n1.yaml").write_text("networking: {hostname: n1}\n")
    snapshot = Workspace([str(root)], Settings(facts_profile="n1")).snapshot()
    common = str(root / "data" / "common.yaml")
    start = time.monotonic()
    chain = hover(snapshot, common, Position(0, 1))
    exponential = hover(snapshot, common, Position(1000, 1))
    assert time.monotonic() - start < HUNG_S
    assert chain is not None and "stack level too deep" in chain.markdown
    assert exponential is not None and "x" * 1000 in exponential.markdown
    assert f"({2**14 - 1000:,} more characters)" in exponential.markdown  # long values are cut
    assert "how each was found is not shown" in exponential.markdown


@pytest.mark.slow
def test_a_brace_bomb_after_a_wildcard_answers(tmp_path: Path) -> None:
    hiera = 'version: 5\nhierarchy:\n  - name: b\n    glob: "*' + "{a,b}" * 20 + '.yaml"\n'
    root = _env(tmp_path, hiera, {"x" + "ab" * 10 + ".yaml": "y: 2\n"})
    done, took = _lookup(root, "y")
    assert took < HUNG_S and done.stdout.strip() == "--- 2"


@pytest.mark.slow
def test_a_glob_too_complex_to_match_fails_with_a_message(tmp_path: Path) -> None:
    hiera = 'version: 5\nhierarchy:\n  - name: b\n    glob: "' + "*{a,b}*" * 12 + 'c.yaml"\n'
    root = _env(tmp_path, hiera, {"ab" * 100 + ".yaml": "y: 2\n"})
    done, took = _lookup(root, "y")
    assert took < HUNG_S and "has too many brace alternatives to match" in done.stderr


def test_a_value_of_aliases_is_interpolated_once_per_written_node(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six levels of nine aliases (531,441 strings once expanded, one written) with a token:
    the token is interpolated once, and the answer shares what the YAML shares."""
    lines = ["l0: &l0 ['%{facts.hostname}', plain]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 7)]
    lines += ["flat: &flat [a, [b, c]]", "same: *flat"]
    env = make_env(tmp_path, {"data/common.yaml": "\n".join(lines) + "\n"}, {"hostname": "web01"})
    calls: list[str] = []
    original = interpolation._interpolate_string

    def counted(subject: str, *args: object) -> object:
        calls.append(subject)
        return original(subject, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(interpolation, "_interpolate_string", counted)
    value = env.value("l6")
    # Before: 531,441 interpolations of the same string, and as many list copies.
    assert [c for c in calls if "hostname" in c] == ["%{facts.hostname}"]
    assert isinstance(value, list) and len(value) == 9 and value[0] is value[8]
    inner = value
    for _ in range(6):
        inner = inner[0]
    assert inner == ["web01", "plain"]
    session = env.session()
    flat, same = session.lookup("flat").value, session.lookup("same").value
    assert flat == ["a", ["b", "c"]] and flat is same  # nothing to interpolate: no copy


def test_a_string_of_many_equal_tokens_resolves_each_token_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A value repeating ``%{facts.networking.hostname}`` 20,000 times: one variable lookup,
    and a hover on the first token places that token only (before: 12.8 s for 100,000
    tokens)."""
    count = 20_000
    value = " ".join(["%{facts.networking.hostname}"] * count)
    root = _env(tmp_path, COMMON, {"common.yaml": f'k: "{value}"\n'})
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    (root / ".hiera-ls" / "facts" / "n1.yaml").write_text("networking: {hostname: n1}\n")
    snapshot = Workspace([str(root)], Settings(facts_profile="n1")).snapshot()
    common = str(root / "data" / "common.yaml")
    looked_up: list[str] = []
    placed: list[str] = []
    scope_lookup, place = interpolation.scope_lookup, key_index.token_of

    def counted_lookup(inv: object, key: str, subject: str) -> object:
        looked_up.append(key)
        return scope_lookup(inv, key, subject)  # type: ignore[arg-type]

    def counted_place(match: re.Match[str]) -> object:
        placed.append(match.group(0))
        return place(match)

    monkeypatch.setattr(interpolation, "scope_lookup", counted_lookup)
    monkeypatch.setattr(key_index, "token_of", counted_place)
    key = hover(snapshot, common, Position(0, 0))
    assert key is not None and "n1 n1 n1" in key.markdown
    assert len(looked_up) <= 2, len(looked_up)  # the value, and its explanation: once each
    token = hover(snapshot, common, Position(0, 5))
    assert token is not None and "facts.networking.hostname" in token.markdown
    assert len(placed) == 1


def test_a_hover_says_when_a_limit_of_hiera_ls_stopped_the_lookup(tmp_path: Path) -> None:
    """Before: "Puppet fails this lookup" for a value Puppet loads (nine levels of nine
    aliases: hiera-ls refuses to walk it, Puppet takes minutes)."""
    root = _env(tmp_path, COMMON, {"common.yaml": _chain(300) + alias_bomb()})
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    (root / ".hiera-ls" / "facts" / "n1.yaml").write_text("networking: {hostname: n1}\n")
    snapshot = Workspace([str(root)], Settings(facts_profile="n1")).snapshot()
    common = str(root / "data" / "common.yaml")
    bomb = hover(snapshot, common, Position(300 + 10, 1))
    assert (
        bomb is not None
        and "**hiera-ls stops this lookup at a limit:** hiera-ls: the value of 'l9'"
        in bomb.markdown
    )
    deep = hover(snapshot, common, Position(0, 1))
    assert deep is not None and "**Puppet fails this lookup:** " in deep.markdown
    assert "stack level too deep" in deep.markdown  # Puppet's own failure, in its words


@pytest.mark.slow
def test_render_as_json_refuses_what_puppet_refuses_to_print(tmp_path: Path) -> None:
    """Puppet 7.23 prints 100 nested collections as JSON and refuses 101 (Ruby's JSON
    max_nesting); before, hiera-ls printed any depth."""
    data = (
        "".join(f"d{n}: " + "[" * n + "1" + "]" * n + "\n" for n in (100, 101))
        + "h101: "
        + "{a: " * 100
        + "{}"
        + "}" * 100
        + "\n"
    )
    root = _env(tmp_path, COMMON, {"common.yaml": data})
    ok, _ = _lookup(root, "--render-as", "json", "d100")
    assert ok.returncode == 0 and ok.stdout == "[" * 100 + "1" + "]" * 100 + "\n"
    for key in ("d101", "h101"):
        refused, _ = _lookup(root, "--render-as", "json", key)
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr == "Error: Could not run: nesting of 100 is too deep\n"
    as_yaml, _ = _lookup(root, "d101")
    assert as_yaml.returncode == 0  # YAML prints it, as Puppet does


def test_ruby_text_in_a_hover_is_cut_as_every_long_text_is(tmp_path: Path) -> None:
    """Before: cut with a bare '…'; now as strings are, saying how much was left out."""
    root = _env(tmp_path, COMMON, {"common.yaml": 'x: "%{facts.big}"\n'})
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    big = "big:\n" + "".join(f"  - item{i:04d}\n" for i in range(300))
    (root / ".hiera-ls" / "facts" / "n1.yaml").write_text("hostname: n1\n" + big)
    snapshot = Workspace([str(root)], Settings(facts_profile="n1")).snapshot()
    token = hover(snapshot, str(root / "data" / "common.yaml"), Position(0, 6))
    assert token is not None and "Ruby's text" in token.markdown
    ruby = "[" + ", ".join(f'"item{i:04d}"' for i in range(300)) + "]"
    assert f"{ruby[:1000]}… ({len(ruby) - 1000:,} more characters)`" in token.markdown
