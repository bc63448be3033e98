"""Every diagnostic code hiera-ls emits, in one registry that any layer may import.

A code is forever: users silence and search for it, and docs/diagnostics.md explains it.
This module imports nothing of ours, so ``source`` can use it as freely as ``checks``.
To add a family, append entries below; keep ids kebab-case and prefixed by the family.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_ls.source.spans import Severity


@dataclass(frozen=True, slots=True)
class Code:
    id: str
    severity: Severity
    summary: str


def _codes(*entries: Code) -> dict[str, Code]:
    table: dict[str, Code] = {}
    for entry in entries:
        if entry.id in table:
            raise ValueError(f"diagnostic code {entry.id} registered twice")
        table[entry.id] = entry
    return table


E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFORMATION

CODES: dict[str, Code] = _codes(
    # --- YAML as Puppet's Psych loads it (source/yaml_loader.py)
    Code(
        "yaml-syntax", E, "Psych cannot parse the file; Puppet refuses every lookup that reads it"
    ),
    Code(
        "yaml-date-rejected",
        E,
        "An unquoted date or timestamp: Psych refuses to build a Date/Time, so the whole file "
        "fails",
    ),
    Code(
        "yaml-bad-tag",
        E,
        "A tag asks for a Ruby class Puppet's safe loader does not permit, so the whole file fails",
    ),
    Code(
        "yaml-bad-number",
        E,
        "A scalar that Psych starts to read as a number but cannot convert, so the whole file "
        "fails",
    ),
    Code(
        "yaml-unknown-alias",
        E,
        "An alias names no anchor defined before it, so the whole file fails",
    ),
    Code("yaml-recursive-alias", E, "An alias refers to the collection that contains it"),
    Code(
        "yaml-alias-expansion",
        E,
        "A value's YAML aliases expand to more nodes than a lookup may walk (an alias bomb)",
    ),
    Code(
        "yaml-too-deep",
        E,
        "Collections nested deeper than Ruby's stack allows: Puppet refuses the whole file",
    ),
    Code("yaml-duplicate-key", W, "A key appears twice in one mapping; Psych keeps the last value"),
    Code(
        "yaml-merge-override", W, "A `<<` merge replaces a key written earlier in the same mapping"
    ),
    Code(
        "yaml-symbol-value",
        E,
        "A `:name` scalar is a Ruby Symbol; looking up the key that holds it fails",
    ),
    Code("yaml-symbol-key", INFO, "A `:name` key is a Ruby Symbol; Puppet turns it into a String"),
    Code("yaml11-boolean", INFO, "YAML 1.1 reads yes/no/on/off (any case) as Booleans"),
    Code("yaml11-octal", INFO, "YAML 1.1 reads a leading 0 as an octal Integer"),
    Code("yaml11-binary", INFO, "YAML 1.1 reads 0b... as a binary Integer"),
    Code(
        "yaml11-sexagesimal",
        INFO,
        "YAML 1.1 (as Psych implements it) reads 12:30 as a base-60 number",
    ),
    Code(
        "yaml11-number-separator",
        INFO,
        "YAML 1.1 reads 1,000 and 1_000 as numbers, dropping the separators",
    ),
    Code(
        "yaml11-exponent-string",
        INFO,
        "Psych reads 1e3 (no dot, or no exponent sign) as a String, not a number",
    ),
    # --- data files as yaml_data / json_data give them (source/data_file.py)
    Code(
        "data-not-a-hash",
        E,
        "The file's top level is not a hash; with strict=error the lookup fails",
    ),
    Code(
        "data-large-file",
        INFO,
        "A data file too big for hiera-ls' per-string and facts-profile checks, which it skips",
    ),
    Code(
        "data-empty-file",
        W,
        "The file holds no hash (empty, comments only, ~ or false); Puppet warns and reads {}",
    ),
    Code(
        "data-bad-key-type",
        E,
        "A hash key is a Boolean, null or collection; looking up the key that holds it fails",
    ),
    Code(
        "data-unreachable-key",
        W,
        "A top-level key that is not a String (true, 6, null): no lookup can find it",
    ),
    Code(
        "json-syntax",
        E,
        "Ruby's JSON parser cannot parse the file; Puppet refuses every lookup that reads it",
    ),
    Code("json-duplicate-key", W, "A key appears twice in one JSON object; the last value wins"),
    Code(
        "hocon-syntax",
        E,
        "The hocon gem cannot parse the file; Puppet refuses every lookup that reads it",
    ),
    Code(
        "hocon-include",
        E,
        "An include Puppet fails on (url(), classpath(), an http URL) or that hiera-ls does not "
        "follow (a file outside the workspace, not a regular file); lookups of the file fail",
    ),
    # --- files as hiera-ls reads them (source/files.py; docs/security.md)
    Code(
        "file-invalid-utf8",
        E,
        "The file holds bytes that are not UTF-8; Psych refuses the whole YAML file",
    ),
    Code(
        "file-not-regular",
        E,
        "A device, FIFO or socket (often through a symlink): hiera-ls never reads it, and "
        "every lookup that would read it fails",
    ),
    Code(
        "file-too-large",
        E,
        "The file is larger than the 256 MiB hiera-ls reads; every lookup reading it fails",
    ),
    Code(
        "file-unreadable",
        W,
        "The file cannot be read (a symlink loop, a dangling symlink, a directory, no permission); "
        "the message is Ruby's",
    ),
    Code(
        "hiera-reads-outside-workspace",
        INFO,
        "A hierarchy level reads files outside the directory of its hiera.yaml's environment "
        "or module (an absolute path, '..', or a symlink out)",
    ),
    Code(
        "walk-limit",
        E,
        "hiera-ls stopped listing the workspace's files at a limit: files beyond it were not "
        "checked (raise it with check --max-files or the hiera.maxFiles setting)",
    ),
    # --- hiera.yaml as Puppet reads it (project/hiera_config.py)
    Code(
        "hiera-config-not-a-hash",
        W,
        "hiera.yaml is empty or not a hash: Puppet falls back to the Hiera 3 default config",
    ),
    Code(
        "hiera-config-bad-version",
        E,
        "`version` is true, a list, a hash or a symbol: Puppet cannot turn it into a number",
    ),
    Code(
        "hiera-config-unsupported-version",
        E,
        "`version` is not 3, 4 or 5 (a string is read with to_i: 'abc' is 0)",
    ),
    Code(
        "hiera-config-deprecated-version",
        W,
        "hiera.yaml version 3 (no `version` key) or 4 is deprecated",
    ),
    Code(
        "hiera-config-v3-not-allowed",
        E,
        "A version 3 hiera.yaml (or one without `version`) in an environment or module: every "
        "lookup there fails",
    ),
    Code(
        "hiera-config-v3-not-evaluated",
        INFO,
        "A version 3 global hiera.yaml names a custom Hiera 3 backend: Puppet runs it, "
        "hiera-ls skips its data",
    ),
    Code(
        "hiera-config-v4-in-global", E, "hiera.yaml version 4 is not accepted in the global layer"
    ),
    Code(
        "hiera-config-wrong-type",
        E,
        "A key or value does not have the type Puppet requires (unknown key, missing name, wrong "
        "type, size)",
    ),
    Code(
        "hiera-config-multiple-functions",
        E,
        "More than one of data_hash, lookup_key, data_dig, hiera3_backend in one level or in "
        "defaults",
    ),
    Code(
        "hiera-config-missing-function",
        E,
        "A level names no data provider function and defaults names none either",
    ),
    Code(
        "hiera-config-reserved-option",
        E,
        "`options` uses the key path or uri, which Puppet reserves",
    ),
    Code(
        "hiera-config-hiera3-backend-not-global",
        E,
        "hiera3_backend is only allowed in the global hiera.yaml",
    ),
    Code(
        "hiera-config-hiera3-backend-replaced",
        E,
        "hiera3_backend: yaml/json/hocon is refused; use data_hash: yaml_data (json_data, "
        "hocon_data)",
    ),
    Code(
        "hiera-config-multiple-locations",
        E,
        "More than one of path, paths, glob, globs, uri, uris, mapped_paths in one level",
    ),
    Code(
        "hiera-config-default-hierarchy-not-in-module",
        E,
        "default_hierarchy is only allowed in a module's hiera.yaml",
    ),
    Code("hiera-config-duplicate-name", E, "Two levels of one hierarchy have the same name"),
    Code(
        "hiera-config-method-interpolation",
        E,
        "%{lookup('x')}-style method calls are not allowed in datadir, locations or options",
    ),
    Code(
        "hiera-config-unknown-backend",
        E,
        "A version 4 level names a backend other than yaml, json or hocon",
    ),
    Code(
        "hiera-config-missing-location",
        E,
        "A built-in data provider function with no path, paths, glob, globs or mapped_paths: "
        "lookups reaching the level fail",
    ),
    Code(
        "hiera-config-options-refused",
        E,
        "yaml_data, json_data and hocon_data accept no options: lookups reading an existing file "
        "of the level fail",
    ),
    # --- interpolation tokens in data files and hiera.yaml
    #     (checks/interpolation.py, checks/profile.py)
    Code(
        "interpolation-unquoted",
        E,
        "A plain YAML value starts with %{: YAML cannot parse it, so Puppet refuses the whole file",
    ),
    Code(
        "interpolation-syntax-error",
        E,
        "A token Puppet cannot read (spaces in a call, two arguments, brackets, a bad key): the "
        "lookup fails",
    ),
    Code(
        "interpolation-unknown-method",
        E,
        "%{name('x')} with a method other than lookup, hiera, alias, literal, scope: the lookup "
        "fails",
    ),
    Code(
        "interpolation-alias-not-whole",
        E,
        "%{alias('k')} with other text around it: the lookup fails",
    ),
    Code(
        "interpolation-unterminated", W, "A %{ without a closing }: Puppet keeps the text literally"
    ),
    Code(
        "interpolation-literal-argument",
        W,
        "%{literal('x')} with x other than %: it is just the text x",
    ),
    Code(
        "interpolation-unquoted-argument",
        W,
        "%{lookup(a)}: an unquoted argument makes Puppet read a variable named 'lookup(a)'",
    ),
    Code(
        "interpolation-not-a-variable",
        W,
        "%{[beat.version]}: text that cannot name a Puppet variable, read as an undefined one",
    ),
    Code(
        "interpolation-top-scope-variable",
        W,
        "%{osfamily}: a bare variable can be hidden by a local one; write %{::osfamily} or "
        "%{facts.osfamily}",
    ),
    Code(
        "interpolation-collection-in-string",
        W,
        "For the active profile, a looked-up Array or Hash is turned into Ruby's text inside a "
        "string",
    ),
    # --- lookup_options (checks/lookup_options.py)
    Code(
        "lookup-options-not-hash",
        E,
        "lookup_options is not a hash: every lookup that reads it fails",
    ),
    Code(
        "lookup-options-entry-not-hash",
        E,
        "An entry's options are a list, number or Boolean (or a String holding 'merge'): lookups "
        "of matching keys fail",
    ),
    Code(
        "lookup-options-entry-ignored",
        W,
        "An entry's options are a String such as deep: Puppet ignores it",
    ),
    Code(
        "lookup-options-unknown-option",
        W,
        "An option other than merge and convert_to: Puppet ignores it",
    ),
    Code(
        "lookup-options-unknown-merge",
        E,
        "merge names no strategy Puppet knows, or a merge hash lacks strategy: lookups of the key "
        "fail",
    ),
    Code(
        "lookup-options-merge-options",
        E,
        "Merge options with a wrong type, or deep-only options on another strategy: lookups of the "
        "key fail",
    ),
    Code("lookup-options-bad-regex", E, "A ^pattern that Ruby cannot compile: every lookup fails"),
    Code(
        "lookup-options-literal-pattern",
        W,
        "A key that looks like a pattern but lacks the leading ^: Puppet matches it as plain text",
    ),
    Code(
        "lookup-options-module-namespace",
        E,
        "In module data, a lookup_options key outside the module: every lookup of the module's "
        "keys fails",
    ),
    Code(
        "lookup-options-unused-pattern",
        Severity.HINT,
        "A ^pattern that matches no key of the data the environment can load",
    ),
    # --- module data (checks/module_data.py)
    Code(
        "module-data-unqualified-key",
        W,
        "A module data key not prefixed with the module's name: Puppet ignores it, with a warning",
    ),
    # --- references between keys (checks/references.py)
    Code(
        "reference-undefined-key",
        W,
        "%{lookup('k')} / %{alias('k')} / %{hiera('k')} names a key no data file defines: Puppet "
        "gives ''",
    ),
    Code(
        "reference-cycle",
        E,
        "Interpolations that look each other up in a cycle: Puppet fails with Recursive lookup "
        "detected",
    ),
    # --- hiera.yaml against the files on disk (checks/hiera_yaml.py)
    Code(
        "hiera-datadir-missing",
        W,
        "A datadir that does not exist: the levels using it find no data",
    ),
    Code(
        "hiera-path-matches-nothing",
        Severity.HINT,
        "A location that names no existing file for any value of its variables",
    ),
    Code(
        "hiera-data-file-unused",
        Severity.HINT,
        "A data file under a datadir that no hierarchy level can read",
    ),
    # --- .hiera-ls.yaml, the repository's configuration (project/repo_config.py)
    Code(
        "config-unknown-setting",
        W,
        "A setting .hiera-ls.yaml does not have (a typo?): it is ignored",
    ),
    Code(
        "config-bad-value",
        E,
        "A setting of .hiera-ls.yaml with a wrong type or value: that setting is ignored",
    ),
    Code(
        "config-unknown-code",
        W,
        "A code or glob in .hiera-ls.yaml that names no diagnostic code: it changes nothing",
    ),
    # --- inline suppressions, `# hiera-ls: disable-line=CODE` (checks/suppressions.py)
    Code(
        "suppression-unused",
        W,
        "A suppression comment that suppresses nothing: the problem it was for is gone",
    ),
    Code(
        "suppression-unknown-code",
        W,
        "A suppression comment names a code or glob that matches no diagnostic code",
    ),
    Code(
        "suppression-malformed",
        W,
        "A `# hiera-ls:` comment that is not disable-line, disable-next-line or disable-file",
    ),
    # --- eyaml: encrypted blocks and key files (checks/eyaml.py)
    Code(
        "eyaml-malformed",
        E,
        "An ENC[...] block no key can decrypt: truncated, not base64, or not a PKCS#7 envelope",
    ),
    Code(
        "eyaml-unknown-scheme",
        W,
        "An ENC[...] block of an encryption scheme other than PKCS7 or GPG",
    ),
    Code(
        "eyaml-public-key-missing",
        W,
        "An eyaml level's pkcs7_public_key file is missing, unreadable or not a certificate",
    ),
    Code(
        "eyaml-private-key-missing",
        INFO,
        "An eyaml level's pkcs7_private_key file is missing or unreadable on this machine",
    ),
    # --- every facts profile over the whole environment (checks/profile_coverage.py)
    Code(
        "profile-redundant-override",
        INFO,
        "A definition that changes nothing: without it every facts profile gets the same value",
    ),
    Code(
        "profile-shadowed-definition",
        INFO,
        "A definition no facts profile uses: a higher level wins for every profile reading it",
    ),
    Code(
        "profile-unread-data-file",
        Severity.HINT,
        "A data file some level can read, but for none of the facts profiles' nodes",
    ),
    # --- keys as class parameters, against the Puppet code (checks/class_parameters.py)
    Code(
        "class-parameter-unknown",
        W,
        "A key `a::b::c` where class `a::b` has no parameter `c` and no code looks it up",
    ),
    Code(
        "class-not-found",
        W,
        "A key whose namespace names no class or defined type of a module in the workspace, "
        "and that no code looks up",
    ),
    Code(
        "class-parameter-of-define",
        W,
        "A key for a defined type's parameter: automatic parameter lookup sets only classes'",
    ),
    Code(
        "class-parameter-type-mismatch",
        E,
        "A value that does not match its class parameter's type: the catalog compile fails",
    ),
    Code(
        "class-parameter-missing",
        W,
        "A class the node includes has a required parameter no data gives for the profile",
    ),
    # --- lookups for the active facts profile (checks/profile.py)
    Code(
        "lookup-fails-for-profile",
        E,
        "Looking up this key fails for the active facts profile; the message is Puppet's",
    ),
    # --- data the Puppet code never reads (checks/unused_data.py)
    Code(
        "key-unused",
        Severity.HINT,
        "A key no class parameter, no lookup() in the code and no %{lookup()}/alias() in the "
        "data reads",
    ),
)

# Codes about something that does nothing (dead data): editors grey it out (LSP's
# DiagnosticTag.Unnecessary) rather than underline it.
UNNECESSARY: frozenset[str] = frozenset({"key-unused"})


def code(code_id: str) -> Code:
    """The registered code; a KeyError here is a programming error, caught by the tests."""
    return CODES[code_id]
