/**
 * Facts profiles in the UI: the quick pick's items and the status bar entry.
 *
 * A facts profile is the set of facts one node reports; the server answers hovers and
 * checks "as seen by" the active one. The status bar keeps the active profile in view
 * because every merged value on screen depends on it.
 */

export interface FactsProfile {
    readonly name: string;
    readonly path: string;
    readonly active: boolean;
    readonly error?: string;
}

/** One row of the picker; `profile` is what gets sent to the server (null clears it). */
export interface ProfilePickItem {
    readonly label: string;
    readonly description?: string;
    readonly detail?: string;
    readonly profile: string | null;
    readonly active: boolean;
}

export const NO_PROFILE_LABEL = 'No facts profile';

/** The server's `hiera/listFactsProfiles` answer, read defensively. */
export function parseProfiles(raw: unknown): FactsProfile[] {
    if (!Array.isArray(raw)) {
        return [];
    }
    const out: FactsProfile[] = [];
    for (const item of raw) {
        if (item === null || typeof item !== 'object') {
            continue;
        }
        const rec = item as Record<string, unknown>;
        if (typeof rec.name !== 'string' || rec.name === '') {
            continue;
        }
        out.push({
            name: rec.name,
            path: typeof rec.path === 'string' ? rec.path : '',
            active: rec.active === true,
            ...(typeof rec.error === 'string' ? { error: rec.error } : {}),
        });
    }
    return out;
}

/** A path as the user knows it: relative to the workspace folder that holds it. */
export function displayPath(path: string, roots: readonly string[]): string {
    const norm = (p: string): string => p.replace(/\\/g, '/').replace(/\/+$/, '');
    const target = norm(path);
    let best: string | undefined;
    for (const root of roots.map(norm)) {
        if (root !== '' && target.startsWith(root + '/') && (best === undefined || root.length > best.length)) {
            best = root;
        }
    }
    return best === undefined ? target : target.slice(best.length + 1);
}

/**
 * The picker's rows: every profile in the server's order, the active one marked, then a
 * row that clears the choice (hovers then list every definition instead of one value).
 */
export function profilePickItems(profiles: readonly FactsProfile[], roots: readonly string[]): ProfilePickItem[] {
    const anyActive = profiles.some((p) => p.active);
    const items: ProfilePickItem[] = profiles.map((p) => ({
        label: p.active ? `$(check) ${p.name}` : p.name,
        description: displayPath(p.path, roots),
        ...(p.error !== undefined ? { detail: `$(warning) ${p.error}` } : {}),
        profile: p.name,
        active: p.active,
    }));
    items.push({
        label: anyActive ? NO_PROFILE_LABEL : `$(check) ${NO_PROFILE_LABEL}`,
        description: 'hovers list every definition instead of one merged value',
        profile: null,
        active: !anyActive,
    });
    return items;
}

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusBarView {
    readonly text: string;
    readonly tooltip: string;
    /** The command a click runs. */
    readonly command: string;
}

export const PICK_PROFILE_COMMAND = 'hiera.chooseFactsProfile';
export const RESTART_COMMAND = 'hiera.restartServer';
export const SHOW_OUTPUT_COMMAND = 'hiera.showOutput';

export function statusBarView(state: ServerState, active: string | null): StatusBarView {
    switch (state) {
        case 'starting':
            return { text: '$(sync~spin) Hiera', tooltip: 'The Hiera language server is starting', command: SHOW_OUTPUT_COMMAND };
        case 'failed':
            return {
                text: '$(error) Hiera',
                tooltip: 'The Hiera language server is not running. Click to restart it.',
                command: RESTART_COMMAND,
            };
        case 'stopped':
            return {
                text: '$(debug-stop) Hiera',
                tooltip: 'The Hiera language server is stopped. Click to restart it.',
                command: RESTART_COMMAND,
            };
        case 'running':
            return active === null
                ? {
                      text: '$(server-environment) Hiera: no facts profile',
                      tooltip: 'No facts profile: hovers list every definition. Click to choose the node whose facts answer lookups.',
                      command: PICK_PROFILE_COMMAND,
                  }
                : {
                      text: `$(server-environment) Hiera: ${active}`,
                      tooltip: `Lookups use the facts of ${active}. Click to choose another facts profile.`,
                      command: PICK_PROFILE_COMMAND,
                  };
    }
}

/** The `hiera/activeFactsProfile` notification's name, read defensively. */
export function activeProfileName(params: unknown): string | null {
    if (params !== null && typeof params === 'object') {
        const name = (params as Record<string, unknown>).name;
        return typeof name === 'string' && name !== '' ? name : null;
    }
    return null;
}
