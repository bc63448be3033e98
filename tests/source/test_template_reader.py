"""Lookups in EPP and ERB templates and Ruby functions: keys code reads by name."""

from __future__ import annotations

import textwrap

from hiera_ls.source.template_reader import read_epp_lookups, read_ruby_lookups


def test_epp_code_tags_only() -> None:
    epp = textwrap.dedent(
        """\
        <%- | String $x = lookup('epp::param') | -%>
        text <%= lookup('epp::a') %> <%# lookup('comment') %> <%% lookup('literal') %>
        <% if $x { -%><%= hiera("epp::${x}::b") %><% } %>
        """
    )
    facts = read_epp_lookups("/t.epp", epp)
    assert [(c.key, c.pattern, c.span.start.human()) for c in facts.lookups] == [
        ("epp::param", None, "1:27"),
        ("epp::a", None, "2:18"),
        (None, r"^epp::.*::b\Z", "3:19"),
    ]


def test_erb_and_ruby_function_calls() -> None:
    rb = textwrap.dedent(
        """\
        <% scope.call_function('lookup', ['private_tables']).each do |name| -%>
        x = call_function('lookup', 'wikimedia_clusters').keys
        y = call_function("hiera", ["a::#{b}::c", {}])
        z = scope.function_hiera(['old::key'])
        w = hiera('bare')
        v = foo.hiera('a method of something else')
        """
    )
    facts = read_ruby_lookups("/t.erb", rb)
    got = [(c.function.value, c.key, c.pattern, c.span.start.human()) for c in facts.lookups]
    assert got == [
        ("lookup", "private_tables", None, "1:36"),
        ("lookup", "wikimedia_clusters", None, "2:30"),
        ("hiera", None, r"^a::.*::c\Z", "3:5"),
        ("hiera", "old::key", None, "4:28"),
        ("hiera", "bare", None, "5:12"),
    ]


def test_a_percent_gt_inside_an_epp_string_does_not_close_the_tag() -> None:
    epp = "<%= \"%>${lookup('t::after_percent')}\" %> <%= '%>' %><%= lookup('t::next') %>\n"
    facts = read_epp_lookups("/t.epp", epp)
    assert [(c.key, epp[c.span.start.column : c.span.end.column]) for c in facts.lookups] == [
        ("t::after_percent", "t::after_percent"),
        ("t::next", "t::next"),
    ]
    assert facts.problems == ()


def test_a_plain_merge_passed_from_ruby() -> None:
    src = (
        "x = call_function('lookup', 'k1', nil, 'deep')\n"
        "y = scope.call_function('lookup', ['k2', nil, 'hash'])\n"
        "z = call_function('lookup', 'k3')\n"
        "w = scope.function_hiera_array(['k4'])\n"
    )
    got = [
        (c.key, c.asked_merge.value if c.asked_merge else None)
        for c in read_ruby_lookups("/m/f.rb", src).lookups
    ]
    assert got == [("k1", "deep"), ("k2", "hash"), ("k3", None), ("k4", "unique")]


def test_each_form_is_found_in_a_file_holding_only_it() -> None:
    """A file without any word a form writes is not searched: each form alone is still
    found, and a file with none of them has no lookups."""
    forms = [
        ("x = call_function('lookup', 'k1')", "k1"),
        ("x = scope.call_function('lookup', ['k2'])", "k2"),
        ("x = scope.function_lookup(['k3'])", "k3"),
        ("x = scope.function_hiera_hash(['k4'])", "k4"),
        ("x = hiera_array('k5')", "k5"),
        ("x = call_function(\"hiera_include\", 'k6')", "k6"),
    ]
    for line, key in forms:
        assert [c.key for c in read_ruby_lookups("/m/f.rb", line + "\n").lookups] == [key]
    assert read_ruby_lookups("/t.erb", "<%= @value %>\nlookup('not ruby')\n").lookups == ()
