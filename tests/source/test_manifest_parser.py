"""The manifest reader: definitions, parameters, docs, lookups and inclusions of a .pp file,
as written, with positions an editor can jump to and rename can replace."""

from __future__ import annotations

import textwrap

import pytest

from hiera_ls.source.manifest_model import DefinitionKind, LookupFunction
from hiera_ls.source.manifest_parser import read_manifest

WEB = textwrap.dedent(
    """\
    # @summary The web profile
    #
    # Serves pages.
    #
    # @param port
    #   The port to listen on.
    # @param docroot Where pages live.
    class profile::web (
      Integer[1, 65535] $port = 80,
      Stdlib::Absolutepath $docroot = "/srv/${facts['fqdn']}",
      Optional[Hash[String, Array[String]]] $opts = { 'a' => [1, 2] },
      $untyped,
      *$rest,
    ) inherits profile::base {
      include ::apache, 'nginx'
      contain Foo::Bar
      file { '/x': require => Class['x'] }
      class { '::mysql::server': root => lookup('mysql::root_password') }
      $a = lookup("${module_name}::port", Integer, 'first', 3)
      $b = hiera('plain')
      $c = 'dot'.lookup
      $d = @("END"/L)
        lookup('not_a_call')
        | END
      $e = "pre ${lookup('inner')} post"
      $f = $x =~ /lookup\\('no'\\)/ and 6 / 2
      $g = lookup($dynamic)
      class nested { }
      define thing ($a) { }
    }
    """
)


def test_class_header_parameters_and_docs() -> None:
    facts = read_manifest("/m/web.pp", WEB)
    assert facts.problems == ()
    web = facts.definitions[0]
    assert (web.kind, web.name, web.parent, web.doc) == (
        DefinitionKind.CLASS,
        "profile::web",
        "profile::base",
        "The web profile",
    )
    assert web.span.start.human() == "8:7"
    got = [(p.name, p.type_text, p.default_text, p.doc) for p in web.params]
    assert got == [
        ("port", "Integer[1, 65535]", "80", "The port to listen on."),
        ("docroot", "Stdlib::Absolutepath", "\"/srv/${facts['fqdn']}\"", "Where pages live."),
        ("opts", "Optional[Hash[String, Array[String]]]", "{ 'a' => [1, 2] }", None),
        ("untyped", None, None, None),
        ("rest", None, None, None),
    ]
    port = web.params[0]
    assert (port.span.start.human(), port.span.end.human()) == ("9:21", "9:26")


def test_nested_definitions_are_qualified_as_puppet_does() -> None:
    names = [(d.kind, d.name) for d in read_manifest("/m/web.pp", WEB).definitions]
    assert names[1:] == [
        (DefinitionKind.CLASS, "profile::web::nested"),
        (DefinitionKind.DEFINE, "profile::web::thing"),
    ]


def test_lookups_keys_spans_and_patterns() -> None:
    facts = read_manifest("/m/web.pp", WEB)
    lines = WEB.splitlines()
    got = []
    for call in facts.lookups:
        s = call.span
        text = lines[s.start.line][s.start.column : s.end.column]
        got.append((call.function, call.key, call.pattern, text if call.key else None))
    assert got == [
        (LookupFunction.LOOKUP, "mysql::root_password", None, "mysql::root_password"),
        (LookupFunction.LOOKUP, None, r"^.*::port\Z", None),
        (LookupFunction.HIERA, "plain", None, "plain"),
        (LookupFunction.LOOKUP, "dot", None, "dot"),
        (LookupFunction.LOOKUP, "inner", None, "inner"),
        (LookupFunction.LOOKUP, None, None, None),
    ]


def test_inclusions_without_prefix_lower_cased() -> None:
    names = [i.name for i in read_manifest("/m/web.pp", WEB).inclusions]
    assert names == ["apache", "nginx", "foo::bar", "mysql::server"]


def test_type_alias_and_function() -> None:
    src = textwrap.dedent(
        """\
        # @summary A port
        type Profile::Port = Integer[1, 65535]
        type Profile::Conf = Struct[{ 'a' => Integer, Optional['b'] => String }]
        function profile::double(Integer $x, String $fmt = '%d') >> Integer {
          $x * 2
        }
        """
    )
    facts = read_manifest("/m/types.pp", src)
    assert [(d.kind, d.name, d.alias_text, d.doc) for d in facts.definitions[:2]] == [
        (DefinitionKind.TYPE_ALIAS, "profile::port", "Integer[1, 65535]", "A port"),
        (
            DefinitionKind.TYPE_ALIAS,
            "profile::conf",
            "Struct[{ 'a' => Integer, Optional['b'] => String }]",
            None,
        ),
    ]
    f = facts.definitions[2]
    assert (f.kind, f.name) == (DefinitionKind.FUNCTION, "profile::double")
    assert [(p.name, p.type_text, p.default_text) for p in f.params] == [
        ("x", "Integer", None),
        ("fmt", "String", "'%d'"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "class a ( $x = 'unclosed",
        'class a { $x = "${ }',
        "class a ( $x, ",
        "$x = @(END)\nno end",
        "/* never closed",
        "class",
        "class a (Integer $x = ) {}",
        "\x00\ufeff€ class ((((",
        "lookup(",
        "include",
    ],
)
def test_never_crashes_and_tells_what_it_could_not_read(text: str) -> None:
    facts = read_manifest("/m/bad.pp", text)
    assert facts.path == "/m/bad.pp"


def test_unclosed_string_is_a_problem_and_earlier_definitions_stay() -> None:
    facts = read_manifest("/m/bad.pp", "class a ($x = 1) { }\nclass b ( $y = 'oops ) {}\n")
    assert [d.name for d in facts.definitions] == ["a"]
    assert [p.message for p in facts.problems] == ['Unclosed quote after "\'"']
    assert facts.problems[0].span.start.human() == "2:16"


def test_a_regex_after_a_keyword_is_a_regex() -> None:
    """``node /^web\\d+/ {``: after ``node`` Puppet lexes a regular expression, not a division
    (a division here swallowed the include that followed)."""
    src = "node /^ms-fe1\\d\\d\\d\\.eqiad\\./ {\n  include lvs::realserver\n}\n"
    assert [i.name for i in read_manifest("/m/site.pp", src).inclusions] == ["lvs::realserver"]


def test_lookups_inside_interpolating_heredocs_only() -> None:
    src = textwrap.dedent(
        """\
        $a = @("END"/L)
          x ${lookup('in_heredoc')} y
          | END
        $b = @(RAW)
          ${lookup('not_interpolated')}
          RAW
        $c = lookup('after')
        """
    )
    facts = read_manifest("/m/h.pp", src)
    assert [(c.key, c.span.start.human()) for c in facts.lookups] == [
        ("in_heredoc", "2:15"),
        ("after", "7:14"),
    ]


def test_every_form_puppet_reads_a_key_or_a_class_name_in() -> None:
    """Forms the differential test against Puppet found unread: a bare-word key, an array
    of keys, the method-call include and ``include Class['x']``."""
    src = textwrap.dedent(
        """\
        class t {
          $h = lookup(t::bare)
          $j = lookup(['t::j1', 't::j2'])
          't::ten'.include
          include Class['t::fifteen']
        }
        """
    )
    facts = read_manifest("/m/t.pp", src)
    assert [(c.key, c.span.start.human()) for c in facts.lookups] == [
        ("t::bare", "2:15"),
        ("t::j1", "3:17"),
        ("t::j2", "3:26"),
    ]
    assert [(i.name, i.span.start.human()) for i in facts.inclusions] == [
        ("t::ten", "4:4"),
        ("t::fifteen", "5:18"),
    ]


def test_method_lookups_on_an_array_or_a_bare_word() -> None:
    src = "$q = ['t::q1', 't::q2'].lookup\n$r = t::r.lookup\n$s = f().lookup\n"
    facts = read_manifest("/m/t.pp", src)
    assert [c.key for c in facts.lookups] == ["t::q1", "t::q2", "t::r", None]


def test_the_merge_each_lookup_asks_for() -> None:
    """The merge argument as Puppet's lookup dispatches it (third positional, or the options
    hash's ``merge``), the one the ``hiera_*`` functions pass, and a computed one marked."""
    src = textwrap.dedent(
        """\
        class a {
          $a = lookup('k1', Hash, 'deep')
          $b = lookup('k2', {merge => {'strategy' => 'deep', 'merge_hash_arrays' => true,
                                       knockout_prefix => '--'}, default_value => {}})
          $c = lookup({'name' => 'k3', 'merge' => unique})
          $d = lookup('k4', Hash, $merge)
          $e = lookup('k5', undef, undef, {})
          $f = 'k6'.lookup(Array, 'unique')
          $g = hiera_hash('k7')
          $h = hiera('k8')
          $i = lookup(['k9', 'k10'], Hash, hash, {})
          $j = lookup('k11')
        }
        """
    )
    got = [
        (
            c.key,
            c.asked_merge.value if c.asked_merge else None,
            c.asked_merge.text if c.asked_merge else None,
        )
        for c in read_manifest("/m/a.pp", src).lookups
    ]
    assert got == [
        ("k1", "deep", "'deep'"),
        (
            "k2",
            (("strategy", "deep"), ("merge_hash_arrays", True), ("knockout_prefix", "--")),
            "{'strategy' => 'deep', 'merge_hash_arrays' => true,\n"
            "                               knockout_prefix => '--'}",
        ),
        ("k3", "unique", "unique"),
        ("k4", None, "$merge"),
        ("k5", None, None),
        ("k6", "unique", "'unique'"),
        ("k7", "hash", "hiera_hash()"),
        ("k8", "first", "hiera()"),
        ("k9", "hash", "hash"),
        ("k10", "hash", "hash"),
        ("k11", None, None),
    ]


def test_hiera_calls_as_written_for_their_hint() -> None:
    """Each hiera*() call with its range, its arguments' text and its lambda; a class named
    hiera (a voxpupuli module) is a definition, not a call."""
    text = textwrap.dedent(
        """\
        class hiera (
          $hierarchy = $::hiera::params::hierarchy,
        ) {
          $a = hiera('k')
          $b = hiera_array("${x}::y", [], 'o')
          $c = 'k'.hiera_hash
          $d = hiera('k') |$k| { 1 }
          notice("${hiera_include('classes')}")
        }
        """
    )
    facts = read_manifest("/m.pp", text)
    found = [
        (c.function.value, c.span.start.line, c.span.start.column, c.args, c.key, c.block)
        for c in facts.hiera_calls
    ]
    assert found == [
        ("hiera", 3, 7, ("'k'",), "k", False),
        ("hiera_array", 4, 7, ('"${x}::y"', "[]", "'o'"), None, False),
        ("hiera_hash", 5, 7, ("'k'",), "k", False),
        ("hiera", 6, 7, ("'k'",), "k", True),
        ("hiera_include", 7, 12, ("'classes'",), "classes", False),
    ]
    assert facts.hiera_calls[2].span.end.column == len("  $c = 'k'.hiera_hash")
    assert not any(c.span.start.line == 0 for c in facts.lookups)  # the class's name


def test_the_variables_node_definitions_set() -> None:
    facts = read_manifest(
        "/env/manifests/site.pp",
        textwrap.dedent(
            """\
            $top = 1
            node default {
              if $trusted['extensions']['pp_role'] {
                $role = $trusted['extensions']['pp_role']
              } elsif $facts['role'] { $role = $facts['role'] } else { $role = 'agent_only' }
              if $role == '' { notify { 'blank': } }
              [1].each |$i| { $inner = $i }
              file { '/x': ensure => present }
              include "role::${role}"
            }
            node 'a.example.com', /^web/ { $dc = 'x' }
            class foo { $local = 1 }
            $h = { node => 1 }
            """
        ),
    )
    # node scope: not the top scope's, a class's, or a lambda's own variables
    assert facts.node_variables == frozenset({"role", "dc"})
