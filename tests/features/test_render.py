"""Values in hovers: YAML as Puppet would need it written, cut when aliases make them huge."""

from __future__ import annotations

from hiera_ls.features.render import code, inline, link, plain_text, shrink, to_yaml
from hiera_ls.puppet.values import Encrypted, RubySymbol, Sensitive
from hiera_ls.source.spans import FileSpan, Span


def test_strings_puppet_would_read_as_something_else_stay_quoted() -> None:
    assert to_yaml({"a": "no", "b": "0755", "c": "12:30", "d": True, "e": None}) == (
        "a: 'no'\nb: '0755'\nc: '12:30'\nd: true\ne: null"
    )
    assert to_yaml(["x", 1]) == "- x\n- 1"
    assert to_yaml("plain") == "plain"
    assert (
        to_yaml({1: Sensitive("secret"), "s": RubySymbol("sym")})
        == "1: Sensitive [value redacted]\ns: :sym"
    )


def test_alias_bombs_are_cut() -> None:
    value: object = ["x"] * 9
    for _ in range(8):
        value = [value] * 4  # 589,824 leaves when expanded
    shown = shrink(value, 50)
    assert "… 3 more" in repr(shown)
    assert len(to_yaml(value).splitlines()) < 2000
    assert inline(list(range(100))) == ""  # too long to show inline


def test_links_and_code() -> None:
    where = FileSpan("/repo/data/common yaml.yaml", Span.of(11, 0, 11, 3))
    assert (
        link(where, "/repo")
        == "[data/common yaml.yaml:12](file:///repo/data/common%20yaml.yaml#L12)"
    )
    assert code("a`b") == "``a`b``"


def test_hash_keys_keep_their_order_at_every_depth() -> None:
    """Puppet prints a merged hash in the merge's order (the lower level's keys first): so does
    every preview, never sorted."""
    value = {"zeta": {"b": 1, "a": [{"w": 1, "v": 2}]}, "alpha": 0}
    assert to_yaml(value) == "zeta:\n  b: 1\n  a:\n    - w: 1\n      v: 2\nalpha: 0"
    assert inline(value) == '{"zeta"=>{"b"=>1, "a"=>[{"w"=>1, "v"=>2}]}, "alpha"=>0}'


def test_encrypted_eyaml_strings_are_shortened() -> None:
    secret = Encrypted("ENC[PKCS7,MIIBeQYJKoZIhvcNAQcDoIIBajCCAWYCAQAxggEhMIIBHQIBADAF]")
    assert to_yaml({"password": secret, "dsn": Encrypted(f"postgres://app:{secret}@db")}) == (
        "password: ENC[PKCS7,MIIBeQYJKo…]\ndsn: postgres://app:ENC[PKCS7,MIIBeQYJKo…]@db"
    )
    assert to_yaml(Encrypted("ENC[GPG,abc]")) == "ENC[GPG,abc]"


def test_plain_text_for_clients_without_markdown() -> None:
    md = (
        "**`k`** for `web01`\n\n```yaml\na: 1\n```\n\n"
        "1. [data/common.yaml:3](file:///r/data/common.yaml#L3) — **wins**"
    )
    assert plain_text(md) == "k for web01\n\n    a: 1\n\n1. data/common.yaml:3 — wins"


def test_plain_text_shows_escaped_and_fenced_text_as_written() -> None:
    """What display_text.py escapes or fences reads back as the text itself."""
    from hiera_ls.display_text import md_code, md_escape, md_fence

    text = "  - *x* [a](b) `c` ``d``"
    assert plain_text(md_escape(text)) == text
    assert plain_text(f"**{md_code(text)}** for web01") == f"{text} for web01"
    assert plain_text(md_fence("a: ```\n", "yaml")) == "    a: ```\n    "
