/**
 * The change code lens's comparison: every facts profile's value of a key from the saved
 * file and from the unsaved buffer, shown in a read-only tab (the explain tab's scheme).
 */

export interface KeyComparison {
    readonly key: string;
    readonly changed: number;
    readonly total: number;
    readonly text: string;
}

/** The `hiera/compareKey` answer (null when there is nothing to compare), read defensively. */
export function parseComparison(raw: unknown): KeyComparison | null {
    if (raw === null || typeof raw !== 'object') {
        return null;
    }
    const rec = raw as Record<string, unknown>;
    if (typeof rec.key !== 'string' || rec.key === '' || typeof rec.text !== 'string') {
        return null;
    }
    const rows = Array.isArray(rec.profiles) ? rec.profiles : [];
    const changed = rows.filter((r: unknown) => typeof r === 'object' && r !== null && (r as Record<string, unknown>).changed === true);
    return { key: rec.key, changed: changed.length, total: rows.length, text: rec.text };
}

/** The tab's title, as the last path segment of the virtual document (Markdown). */
export function comparisonTitle(result: KeyComparison): string {
    return `Changes of ${result.key.replace(/[\\/]/g, '_')}.md`;
}
