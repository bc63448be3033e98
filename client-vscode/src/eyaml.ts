/**
 * eyaml: the decrypted value in a read-only tab, and the edit-in-place flow (the file with
 * `DEC(n)::PKCS7[...]!` markers in an untitled editor, written back re-encrypted).
 *
 * Encrypting is the server's code action ("Encrypt value"); {@link ENCRYPT_VALUE_COMMAND}
 * only asks VS Code to apply it. Plaintext is never logged here and never written to disk
 * by the extension: the read-only tab is a virtual document, the edit buffer is untitled.
 */

export const EYAML_SCHEME = 'hiera-eyaml';
export const ENCRYPT_KIND = 'refactor.rewrite.eyaml.encrypt';

// Palette commands (ids of their own: the server's hiera.eyamlDecrypt is registered by the
// language client).
export const ENCRYPT_VALUE_COMMAND = 'hiera.encryptValue';
export const EDIT_EYAML_COMMAND = 'hiera.editEyaml';
export const WRITE_BACK_EYAML_COMMAND = 'hiera.writeBackEyaml';
export const EYAML_CLIENT_COMMANDS: readonly string[] = [ENCRYPT_VALUE_COMMAND, EDIT_EYAML_COMMAND, WRITE_BACK_EYAML_COMMAND];

export interface DecryptResult {
    readonly key: string;
    readonly level: string;
    readonly text: string | null;
    readonly error: string | null;
}

function str(v: unknown): string | null {
    return typeof v === 'string' ? v : null;
}

function record(raw: unknown): Record<string, unknown> | null {
    return raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : null;
}

/** The `hiera/eyamlDecrypt` answer (null: no encrypted value there), read defensively. */
export function parseDecryptResult(raw: unknown): DecryptResult | null {
    const rec = record(raw);
    if (rec === null || typeof rec.key !== 'string') {
        return null;
    }
    return { key: rec.key, level: str(rec.level) ?? '', text: str(rec.text), error: str(rec.error) };
}

/** The read-only tab's title, as the last path segment of the virtual document. */
export function decryptedTitle(result: DecryptResult): string {
    return `Decrypted ${result.key.replace(/[\\/]/g, '_')}`;
}

export interface EditText {
    readonly text: string | null;
    readonly level: string;
    readonly error: string | null;
}

export function parseEditText(raw: unknown): EditText {
    const rec = record(raw);
    if (rec === null) {
        return { text: null, level: '', error: 'no eyaml level reads this file' };
    }
    return { text: str(rec.text), level: str(rec.level) ?? '', error: str(rec.error) };
}

/** The `hiera/eyamlReencrypt` answer: LSP TextEdits of the source file, or why not. */
export function parseReencrypt(raw: unknown): { edits: unknown[] | null; error: string | null } {
    const rec = record(raw);
    if (rec === null) {
        return { edits: null, error: 'the server gave no answer' };
    }
    return { edits: Array.isArray(rec.edits) ? rec.edits : null, error: str(rec.error) };
}
