/**
 * hiera-ls' own messages beside LSP's, named as the server names them in
 * server/hiera_ls/lsp/protocol.py (test/protocol.test.ts keeps the two lists equal).
 *
 * Answers are read defensively where they are used (parseProfiles, parseExplainResult,
 * activeProfileName): a server of another version may send less.
 */

/** Request: `[{name, path, active, error}]`, every facts profile found. */
export const LIST_FACTS_PROFILES_REQUEST = 'hiera/listFactsProfiles';
/** Request `{name}` (null clears it): `{active, profiles}`. */
export const SELECT_FACTS_PROFILE_REQUEST = 'hiera/selectFactsProfile';
/** Request {@link ExplainParams}: `{key, profile, environment, found, error, text}` or null. */
export const EXPLAIN_REQUEST = 'hiera/explain';
/** Request `{uri, position}`: `{key, level, text, error}` or null (the plaintext there). */
export const EYAML_DECRYPT_REQUEST = 'hiera/eyamlDecrypt';
/** Request `{uri}`: `{text, level, error}`, the file with `DEC(n)::PKCS7[...]!` markers. */
export const EYAML_EDIT_TEXT_REQUEST = 'hiera/eyamlEditText';
/** Request `{uri, text}`: `{edits, error}`, the document's TextEdits writing the secrets back. */
export const EYAML_REENCRYPT_REQUEST = 'hiera/eyamlReencrypt';
/** Request `{uri, key}`: `{key, path, profiles: [{name, before, after, changed}], text}` or null. */
export const COMPARE_KEY_REQUEST = 'hiera/compareKey';
/**
 * Request {@link ExplainParams}: `{key, environment, profile, profiles, hierarchy, notes}` or
 * null, the side view of the key (every profile's value, the active profile's levels).
 */
export const KEY_VIEW_REQUEST = 'hiera/keyView';
/** Notification `{name}` (name or null) whenever the active profile changes. */
export const ACTIVE_FACTS_PROFILE_NOTIFICATION = 'hiera/activeFactsProfile';

// Commands the server announces; the language client registers each as a VS Code command,
// so the extension's own palette commands must use other ids.
export const LIST_FACTS_PROFILES_COMMAND = 'hiera.listFactsProfiles';
/** Argument: the profile's name (null or '' clears it); answers like the request. */
export const SELECT_FACTS_PROFILE_COMMAND = 'hiera.selectFactsProfile';
/** Argument: {@link ExplainParams}; answers like the request. */
export const EXPLAIN_COMMAND = 'hiera.explain';
/** Argument `{uri, position}`; answers like {@link EYAML_DECRYPT_REQUEST} (a code action names it). */
export const EYAML_DECRYPT_COMMAND = 'hiera.eyamlDecrypt';
/** Argument `{uri, key}`; answers like {@link COMPARE_KEY_REQUEST} (the change code lens names it). */
export const COMPARE_KEY_COMMAND = 'hiera.compareKey';

export const SERVER_COMMANDS: readonly string[] = [
    LIST_FACTS_PROFILES_COMMAND,
    SELECT_FACTS_PROFILE_COMMAND,
    EXPLAIN_COMMAND,
    EYAML_DECRYPT_COMMAND,
    COMPARE_KEY_COMMAND,
];

/** The key under `position` in `uri`, or the `key` named (in `uri`'s environment). */
export interface ExplainParams {
    readonly uri?: string;
    readonly position?: { readonly line: number; readonly character: number };
    readonly key?: string;
}
