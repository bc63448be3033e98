"""Beside Red Hat's YAML extension, plain YAML problems are not reported twice."""

from __future__ import annotations

from hiera_ls.lsp.configuration import PLAIN_YAML_CODES, hidden_codes


def test_yaml_extension_present_hides_only_plain_yaml_problems() -> None:
    hidden = hidden_codes({"yamlSyntaxDiagnostics": False})
    assert hidden == PLAIN_YAML_CODES
    # Puppet-specific findings in YAML files stay: the YAML extension knows nothing of them.
    assert "yaml-date-rejected" not in hidden and "yaml11-boolean" not in hidden


def test_other_clients_see_everything() -> None:
    assert hidden_codes(None) == frozenset()
    assert hidden_codes({"yamlSyntaxDiagnostics": True}) == frozenset()
    assert "hiera-config-wrong-type" in hidden_codes({"hieraConfigSchemaDiagnostics": False})
