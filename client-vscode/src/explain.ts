/**
 * "Hiera: Explain Lookup": the `puppet lookup --explain`-style trace of the key under the
 * cursor, shown in a read-only editor tab.
 *
 * The tab is a virtual document (scheme {@link EXPLAIN_SCHEME}) so it cannot be edited or
 * saved by mistake, and each explanation gets its own URI: two keys explained one after
 * the other stay side by side instead of one silently replacing the other.
 */

export const EXPLAIN_SCHEME = 'hiera-explain';

export interface ExplainResult {
    readonly key: string;
    readonly profile: string | null;
    readonly environment: string | null;
    readonly found: boolean;
    readonly error: string | null;
    readonly text: string;
}

/** The `hiera/explain` answer (null when no key is under the cursor), read defensively. */
export function parseExplainResult(raw: unknown): ExplainResult | null {
    if (raw === null || typeof raw !== 'object') {
        return null;
    }
    const rec = raw as Record<string, unknown>;
    if (typeof rec.key !== 'string' || rec.key === '') {
        return null;
    }
    const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
    return {
        key: rec.key,
        profile: str(rec.profile),
        environment: str(rec.environment),
        found: rec.found === true,
        error: str(rec.error),
        text: typeof rec.text === 'string' ? rec.text : '',
    };
}

/** The tab's title, as the last path segment of the virtual document. */
export function explainTitle(result: ExplainResult): string {
    const safe = result.key.replace(/[\\/]/g, '_');
    return result.profile === null ? `Explain ${safe}` : `Explain ${safe} (${result.profile.replace(/[\\/]/g, '_')})`;
}

/** The document's text: the trace, or the reason there is none. */
export function explainText(result: ExplainResult): string {
    const body = result.text.trimEnd();
    if (body !== '') {
        return body + '\n';
    }
    if (result.error !== null) {
        return `${result.key}: ${result.error}\n`;
    }
    return result.found ? `${result.key}: found, but the server gave no explanation\n` : `${result.key}: not found\n`;
}
