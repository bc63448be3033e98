"""apply_policy: exclude, per-path, select/ignore, severity overrides and inline suppressions,
as `hiera-ls check` and the server both show them."""

from __future__ import annotations

from hiera_ls.checks.policy import COMPLETE, PARTIAL, apply_policy, coverage
from hiera_ls.checks.rules import RULES
from hiera_ls.project.repo_config import RepoConfig, load_repo_config
from hiera_ls.source.spans import Problem, Severity, Span

ROOT = "/repo"
DATA = "/repo/data/common.yaml"


def config(text: str) -> RepoConfig:
    found = load_repo_config(ROOT + "/.hiera-ls.yaml", text)
    assert found.problems == (), found.problems
    return found


def at(code_id: str, line: int, path: str = DATA) -> Problem:
    return RULES[code_id].at("m", path, Span.of(line, 0, line, 3))


def shown(problems: list[Problem]) -> list[tuple[str, int]]:
    return [(p.code, p.where.span.start.line) for p in problems]


FOUND = [at("hiera-data-file-unused", 0), at("yaml11-boolean", 0), at("yaml11-octal", 1)]


def test_no_configuration_and_no_comment_change_nothing() -> None:
    assert apply_policy(RepoConfig.EMPTY, DATA, "a: yes\nb: 0644\n", FOUND) == FOUND


def test_select_ignore_and_globs() -> None:
    assert shown(apply_policy(config("select: [yaml11-*]\n"), DATA, "", FOUND)) == [
        ("yaml11-boolean", 0),
        ("yaml11-octal", 1),
    ]
    assert shown(apply_policy(config("ignore: yaml11-*\n"), DATA, "", FOUND)) == [
        ("hiera-data-file-unused", 0)
    ]
    both = config("select: [yaml11-*]\nignore: [yaml11-octal]\n")
    assert shown(apply_policy(both, DATA, "", FOUND)) == [("yaml11-boolean", 0)]


def test_severity_overrides_an_exact_code_beats_a_glob_and_off_turns_it_off() -> None:
    policy = config(
        "severity:\n  yaml11-boolean: error\n  yaml11-*: warning\n  hiera-data-file-unused: off\n"
    )
    out = apply_policy(policy, DATA, "", FOUND)
    assert [(p.code, p.severity) for p in out] == [
        ("yaml11-boolean", Severity.ERROR),
        ("yaml11-octal", Severity.WARNING),
    ]


def test_exclude_and_per_path_use_gitignore_patterns_relative_to_the_config() -> None:
    policy = config(
        "exclude: [vendor/]\nper-path:\n  'data/legacy/**': [yaml11-*]\n  '*.json': [json-*]\n"
    )
    vendored = "/repo/vendor/x/data/common.yaml"
    assert apply_policy(policy, vendored, "", [at("yaml11-octal", 1, vendored)]) == []
    legacy = "/repo/data/legacy/old.yaml"
    found = [at("yaml11-octal", 1, legacy), at("hiera-data-file-unused", 0, legacy)]
    assert shown(apply_policy(policy, legacy, "", found)) == [("hiera-data-file-unused", 0)]
    assert shown(apply_policy(policy, DATA, "", FOUND)) == shown(FOUND)
    outside = "/elsewhere/data/legacy/old.yaml"  # not under the config's directory
    assert len(apply_policy(policy, outside, "", [at("yaml11-octal", 1, outside)])) == 1


def test_the_configuration_file_s_own_problems_are_never_hidden() -> None:
    policy = load_repo_config(ROOT + "/.hiera-ls.yaml", "ignore: [config-*]\nnope: 1\n")
    assert policy.ignore == ("config-*",)
    assert apply_policy(policy, policy.path or "", None, list(policy.problems)) == list(
        policy.problems
    )


# ---------------------------------------------------------------------- suppressions


def suppressed(text: str, found: list[Problem], policy: RepoConfig = RepoConfig.EMPTY) -> list:
    return shown(apply_policy(policy, DATA, text, found))


def test_disable_line_after_a_value_silences_its_own_line() -> None:
    text = "a: yes  # hiera-ls: disable-line=yaml11-boolean\nb: 0644\n"
    assert suppressed(text, FOUND[1:]) == [("yaml11-octal", 1)]


def test_a_suppression_after_another_comment_on_the_line() -> None:
    text = "a: yes  # kept for Puppet 3 # hiera-ls: disable-line=yaml11-boolean # more\n"
    assert suppressed(text, [at("yaml11-boolean", 0)]) == []


def test_line_breaks_other_than_newline() -> None:
    for br in ["\r\n", "\r"]:
        text = f"a: 1{br}b: yes  # hiera-ls: disable-line=yaml11-boolean{br}"
        assert suppressed(text, [at("yaml11-boolean", 1)]) == [], repr(br)


def test_disable_line_alone_on_a_line_silences_the_line_below() -> None:
    text = "# hiera-ls: disable-line=yaml11-octal\nb: 0644\n"
    assert suppressed(text, [at("yaml11-octal", 1)]) == []


def test_disable_next_line_and_several_codes_and_a_reason() -> None:
    text = "a: yes # hiera-ls: disable-next-line=yaml11-octal, yaml11-boolean -- legacy\nb: 0644\n"
    found = [at("yaml11-boolean", 0), at("yaml11-octal", 1)]
    assert suppressed(text, found) == [("yaml11-boolean", 0), ("suppression-unused", 0)]


def test_disable_file_anywhere_and_bare_forms_silence_every_code() -> None:
    found = [at("yaml11-boolean", 0), at("yaml11-octal", 1), at("yaml11-octal", 5)]
    assert suppressed("a: 1\n# hiera-ls: disable-file=yaml11-octal\n", found) == [
        ("yaml11-boolean", 0)
    ]
    assert suppressed("# hiera-ls: disable-file\n", found) == []
    assert suppressed("a: yes # hiera-ls: disable-line\nb: 0644\n", found) == [
        ("yaml11-octal", 1),
        ("yaml11-octal", 5),
    ]


def test_a_glob_in_a_suppression() -> None:
    assert suppressed("# hiera-ls: disable-file=yaml11-*\n", FOUND) == [
        ("hiera-data-file-unused", 0)
    ]


def test_a_mark_inside_a_quoted_string_or_a_block_scalar_is_not_a_suppression() -> None:
    quoted = 'a: "yes # hiera-ls: disable-line=yaml11-boolean"\n'
    assert suppressed(quoted, [at("yaml11-boolean", 0)]) == [("yaml11-boolean", 0)]
    block = "a: |\n  # hiera-ls: disable-file=yaml11-boolean\nb: yes\n"
    assert suppressed(block, [at("yaml11-boolean", 2)]) == [("yaml11-boolean", 2)]
    plain = "a: x#hiera-ls:disable-line=yaml11-boolean\n"
    assert suppressed(plain, [at("yaml11-boolean", 0)]) == [("yaml11-boolean", 0)]


def test_json_files_have_no_comments() -> None:
    path = "/repo/data/common.json"
    text = '{"a": "# hiera-ls: disable-file"}'
    assert len(apply_policy(RepoConfig.EMPTY, path, text, [at("json-duplicate-key", 0, path)])) == 1


def test_an_unused_suppression_is_reported_on_its_comment() -> None:
    text = "a: true  # hiera-ls: disable-line=yaml11-boolean\n"
    (unused,) = apply_policy(RepoConfig.EMPTY, DATA, text, [])
    assert unused.code == "suppression-unused"
    assert unused.severity is Severity.WARNING
    assert unused.where.span == Span.of(0, 9, 0, 48)
    assert "yaml11-boolean on line 1 suppresses nothing" in unused.message


def test_one_code_of_a_list_unused() -> None:
    text = "a: yes  # hiera-ls: disable-line=yaml11-boolean,yaml11-octal\n"
    out = apply_policy(RepoConfig.EMPTY, DATA, text, [at("yaml11-boolean", 0)])
    assert [(p.code, "yaml11-octal" in p.message) for p in out] == [("suppression-unused", True)]


def test_no_unused_report_when_the_checks_could_not_have_found_the_code() -> None:
    text = "a: true  # hiera-ls: disable-line=yaml11-boolean\n"
    # turned off by the configuration (globally, per path, or severity off)
    for setting in [
        "ignore: [yaml11-boolean]\n",
        "per-path: {'data/**': [yaml11-*]}\n",
        "severity: {yaml11-*: off}\n",
        "select: [hiera-*]\n",
    ]:
        assert apply_policy(config(setting), DATA, text, []) == [], setting
    # the facts-profile check did not run: no profile is active
    profile_text = "a: '%{x}'  # hiera-ls: disable-line=lookup-fails-for-profile\n"
    no_profile = coverage(index=True, profile=False)
    assert apply_policy(RepoConfig.EMPTY, DATA, profile_text, [], no_profile) == []
    with_profile = coverage(index=True, profile=True)
    assert len(apply_policy(RepoConfig.EMPTY, DATA, profile_text, [], with_profile)) == 1
    # the cross-file rules did not run: no index yet
    ref = "a: '%{lookup(\"b\")}'  # hiera-ls: disable-line=reference-undefined-key\n"
    assert apply_policy(RepoConfig.EMPTY, DATA, ref, [], coverage(index=False, profile=True)) == []
    # quick results while typing in a big file
    assert apply_policy(RepoConfig.EMPTY, DATA, text, [], PARTIAL) == []
    assert len(apply_policy(RepoConfig.EMPTY, DATA, text, [], COMPLETE)) == 1


def test_unused_suppressions_can_themselves_be_ignored() -> None:
    text = "a: true  # hiera-ls: disable-line=yaml11-boolean\n"
    assert apply_policy(config("ignore: [suppression-unused]\n"), DATA, text, []) == []


def test_malformed_comments_and_unknown_codes_are_reported() -> None:
    text = (
        "a: 1 # hiera-ls: disable=yaml11-boolean\n"
        "b: 2 # hiera-ls: disable-line=yaml-boolean\n"
        "c: 3 # hiera-ls: disable-line=\n"
        "d: yes # hiera-ls: disable-line=yaml-boolean,yaml11-boolean\n"
    )
    out = apply_policy(RepoConfig.EMPTY, DATA, text, [at("yaml11-boolean", 3)])
    assert shown(out) == [
        ("suppression-malformed", 0),
        ("suppression-unknown-code", 1),
        ("suppression-malformed", 2),
        ("suppression-unknown-code", 3),
    ]
