"""Settings: ``initializationOptions`` first, then the ``hiera`` section of
``workspace/configuration`` (re-read on ``workspace/didChangeConfiguration``), falling back
to what the client pushed when it has no such section.
"""

from __future__ import annotations

from collections.abc import Mapping

from lsprotocol import types

from hiera_ls.lsp.protocol import from_namedtuples
from hiera_ls.lsp.server import HieraLanguageServer, handler, none
from hiera_ls.project.settings import SECTION, parse_settings

# Problems another extension already reports for the same YAML file (Red Hat's YAML
# extension, which VS Code users usually have): clients that run it beside us say so in
# initializationOptions, and we do not show the same problem twice.
PLAIN_YAML_CODES = frozenset(
    {"yaml-syntax", "yaml-duplicate-key", "yaml-unknown-alias", "yaml-recursive-alias"}
)
SCHEMA_CODES = frozenset({"hiera-config-wrong-type"})


def hidden_codes(options: object) -> frozenset[str]:
    """Codes not to publish, from ``yamlSyntaxDiagnostics`` / ``hieraConfigSchemaDiagnostics``."""
    if not isinstance(options, Mapping):
        return frozenset()
    hidden: set[str] = set()
    if options.get("yamlSyntaxDiagnostics") is False:
        hidden |= PLAIN_YAML_CODES
    if options.get("hieraConfigSchemaDiagnostics") is False:
        hidden |= SCHEMA_CODES
    return frozenset(hidden)


async def reload_settings(ls: HieraLanguageServer, pushed: object = None) -> None:
    base = ls.init_settings
    raw: object = pushed
    if ls.configuration_supported:
        try:
            items = [types.ConfigurationItem(section=SECTION)]
            result = await ls.workspace_configuration_async(types.ConfigurationParams(items=items))
            if (
                result and result[0] is not None
            ):  # a client without the section: keep what it pushed
                raw = result[0]
        except Exception as e:
            ls.log(
                f"hiera-ls: could not read the '{SECTION}' configuration: {e}",
                types.MessageType.Warning,
            )
    parsed = parse_settings(from_namedtuples(raw), base)
    for message in parsed.messages:
        ls.log(message, types.MessageType.Warning)
    ls.project.set_settings(parsed.settings)


@handler(types.WORKSPACE_DID_CHANGE_CONFIGURATION, none, foreground=False)
async def workspace_did_change_configuration(
    ls: HieraLanguageServer, params: types.DidChangeConfigurationParams
) -> None:
    pushed = from_namedtuples(params.settings)
    section = pushed.get(SECTION, pushed) if isinstance(pushed, dict) else None
    await reload_settings(ls, section)
    ls.fleet.update()
    ls.scheduler.refresh()
