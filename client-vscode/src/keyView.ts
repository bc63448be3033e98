/**
 * The side view "Hiera: Key": for the key under the cursor, every facts profile's value and
 * the active profile's hierarchy (each level, the file it resolves to, whether that exists
 * and holds the key). This module reads the `hiera/keyView` answer and turns it into rows;
 * keyViewTree.ts shows them in a VS Code tree, so everything here is testable without it.
 */

export const KEY_VIEW_ID = 'hiera.keyView';
export const EMPTY_MESSAGE = 'Place the cursor on a key in a Hiera data file to see its value for every facts profile and where the active profile reads it.';
export const NOT_RUNNING_MESSAGE = 'The Hiera language server is not running.';

export interface ProfileValue {
    readonly name: string;
    readonly active: boolean;
    readonly found: boolean;
    readonly value: string | null;
    readonly encrypted: boolean;
    readonly error: string | null;
}

/** PuppetDB's nodes that get one answer: how many, and the first few names. */
export interface FleetGroup {
    readonly nodes: number;
    readonly examples: readonly string[];
    readonly active: boolean;
    readonly found: boolean;
    readonly value: string | null;
    readonly encrypted: boolean;
    readonly error: string | null;
}

/** PuppetDB's nodes by answer; `grouped` false while the server groups them. */
export interface FleetValues {
    readonly source: string;
    readonly nodes: number;
    readonly grouped: boolean;
    readonly groups: readonly FleetGroup[];
    /** Why the nodes are not looked up (more groups than the server looks up), or null. */
    readonly note: string | null;
}

export interface LevelPath {
    readonly path: string;
    readonly shown: string;
    readonly exists: boolean;
    readonly holdsKey: boolean;
    readonly value: string | null;
    readonly encrypted: boolean;
    readonly line: number | null;
    readonly error: string | null;
}

export interface HierarchyLevel {
    readonly name: string;
    readonly layer: string;
    readonly module: string | null;
    readonly defaultHierarchy: boolean;
    readonly paths: readonly LevelPath[];
    readonly skipped: string | null;
}

/** Every profile's value with another merge some code reads the key with. */
export interface MergeProfiles {
    readonly merge: string;
    readonly profiles: readonly ProfileValue[];
    readonly fleet: FleetValues | null;
}

export interface KeyViewResult {
    readonly key: string;
    readonly environment: string;
    /** The active profile; null: none (the node 'localhost' without facts). */
    readonly profile: string | null;
    readonly profiles: readonly ProfileValue[];
    readonly hierarchy: readonly HierarchyLevel[];
    readonly notes: readonly string[];
    /** The merge the code asks for, and who asks (null: the key's lookup_options). */
    readonly merge: string | null;
    /** Code that reads the key with other merges: each one's values. */
    readonly otherMerges: readonly MergeProfiles[];
    /** PuppetDB's nodes, when the user has a fleet (null: none). */
    readonly fleet: FleetValues | null;
}

/** A row of the tree: groups have children; a path row may open its file at the key. */
export interface Row {
    readonly id: string;
    readonly label: string;
    readonly description: string;
    readonly tooltip: string;
    /** A codicon name (https://code.visualstudio.com/api/references/icons-in-labels). */
    readonly icon: string;
    readonly children: readonly Row[];
    readonly open: { readonly path: string; readonly line: number | null } | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const rec = (v: unknown): Record<string, unknown> | null =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The `hiera/keyView` answer, read defensively (null: no key there, or not an answer). */
export function parseKeyView(raw: unknown): KeyViewResult | null {
    const r = rec(raw);
    const key = r === null ? null : str(r.key);
    if (r === null || key === null || key === '') {
        return null;
    }
    const profiles = parseProfiles(r.profiles);
    const otherMerges: MergeProfiles[] = [];
    for (const item of list(r.other_merges)) {
        const m = rec(item);
        const merge = m === null ? null : str(m.merge);
        if (m !== null && merge !== null) {
            otherMerges.push({ merge, profiles: parseProfiles(m.profiles), fleet: parseFleet(m.fleet) });
        }
    }
    const hierarchy: HierarchyLevel[] = [];
    for (const item of list(r.hierarchy)) {
        const l = rec(item);
        const name = l === null ? null : str(l.name);
        if (l === null || name === null) {
            continue;
        }
        const paths: LevelPath[] = [];
        for (const entry of list(l.paths)) {
            const p = rec(entry);
            const path = p === null ? null : str(p.path);
            if (p === null || path === null) {
                continue;
            }
            paths.push({
                path,
                shown: str(p.shown) ?? path,
                exists: p.exists === true,
                holdsKey: p.holds_key === true,
                value: str(p.value),
                encrypted: p.encrypted === true,
                line: typeof p.line === 'number' ? p.line : null,
                error: str(p.error),
            });
        }
        hierarchy.push({
            name,
            layer: str(l.layer) ?? 'environment',
            module: str(l.module),
            defaultHierarchy: l.default_hierarchy === true,
            paths,
            skipped: str(l.skipped),
        });
    }
    return {
        key,
        environment: str(r.environment) ?? '',
        profile: str(r.profile),
        profiles,
        hierarchy,
        notes: list(r.notes).filter((n): n is string => typeof n === 'string'),
        merge: str(r.merge),
        otherMerges,
        fleet: parseFleet(r.fleet),
    };
}

function parseFleet(raw: unknown): FleetValues | null {
    const f = rec(raw);
    if (f === null || typeof f.nodes !== 'number') {
        return null;
    }
    const groups: FleetGroup[] = [];
    for (const item of list(f.groups)) {
        const g = rec(item);
        if (g === null || typeof g.nodes !== 'number') {
            continue;
        }
        groups.push({
            nodes: g.nodes,
            examples: list(g.examples).filter((n): n is string => typeof n === 'string'),
            active: g.active === true,
            found: g.found === true,
            value: str(g.value),
            encrypted: g.encrypted === true,
            error: str(g.error),
        });
    }
    return { source: str(f.source) ?? '', nodes: f.nodes, grouped: f.grouped === true, groups, note: str(f.note) };
}

function parseProfiles(raw: unknown): ProfileValue[] {
    const profiles: ProfileValue[] = [];
    for (const item of list(raw)) {
        const p = rec(item);
        const name = p === null ? null : str(p.name);
        if (p === null || name === null) {
            continue;
        }
        profiles.push({
            name,
            active: p.active === true,
            found: p.found === true,
            value: str(p.value),
            encrypted: p.encrypted === true,
            error: str(p.error),
        });
    }
    return profiles;
}

/** ✓/✗: the file exists; ●/○: it holds the key (○ only where the file exists). */
export function pathMarks(p: LevelPath): string {
    if (!p.exists) {
        return '✗';
    }
    return p.holdsKey ? '✓ ●' : '✓ ○';
}

function pathText(p: LevelPath): string {
    const value = p.holdsKey && p.value !== null ? ` = ${p.value}` : '';
    const error = p.error !== null ? ' (unreadable)' : '';
    return `${pathMarks(p)}${value}${error}`;
}

function pathTooltip(p: LevelPath): string {
    const lines = [p.path, p.exists ? 'The file exists.' : 'No such file for this node.'];
    if (p.exists) {
        lines.push(p.holdsKey ? 'It holds the key (value as written there).' : 'It does not hold the key.');
    }
    if (p.encrypted) {
        lines.push('The value is eyaml-encrypted.');
    }
    if (p.error !== null) {
        lines.push(p.error);
    }
    return lines.join('\n');
}

function layerText(level: HierarchyLevel): string {
    const layer = level.layer === 'module' && level.module !== null ? `module ${level.module}` : level.layer;
    return level.defaultHierarchy ? `${layer}, default_hierarchy` : layer;
}

function profileRow(p: ProfileValue, total: number, group = 'profile'): Row {
    let description: string;
    let icon: string;
    if (p.error !== null) {
        description = `fails: ${p.error}`;
        icon = 'error';
    } else if (!p.found || p.value === null) {
        description = 'not found';
        icon = 'circle-slash';
    } else {
        description = p.value;
        icon = p.encrypted ? 'lock' : 'symbol-variable';
    }
    if (p.active) {
        icon = p.error !== null ? 'error' : 'star-full';
    }
    const tooltip = [
        `${p.name}${p.active ? ' (active profile)' : ''}`,
        p.error ?? (p.found ? `lookup gives ${p.value ?? ''}` : 'the key is not found'),
        p.encrypted ? 'The value is eyaml-encrypted.' : '',
    ]
        .filter((t) => t !== '')
        .join('\n');
    return {
        id: `${group}:${p.name}`,
        label: p.name,
        description: p.active && total > 1 ? `${description} (active)` : description,
        tooltip,
        icon,
        children: [],
        open: null,
    };
}

/** "PuppetDB nodes (N)": a row per answer with how many nodes get it and a few names. */
function fleetRow(fleet: FleetValues, group: string, label: string): Row {
    const tooltip = `The value lookup() gives PuppetDB's nodes (${fleet.source}), grouped by answer.`;
    if (!fleet.grouped) {
        return { id: `group:${group}`, label, description: 'being grouped…', tooltip, icon: 'loading~spin', children: [], open: null };
    }
    if (fleet.note !== null) {
        return { id: `group:${group}`, label, description: fleet.note, tooltip: fleet.note, icon: 'info', children: [], open: null };
    }
    const children = fleet.groups.map((g, i): Row => {
        const p: ProfileValue = { name: '', active: g.active, found: g.found, value: g.value, encrypted: g.encrypted, error: g.error };
        const answer = profileRow(p, fleet.nodes, group);
        const more = g.nodes - g.examples.length;
        const names = g.examples.join(', ') + (more > 0 ? ` and ${more} more` : '');
        return {
            ...answer,
            id: `${group}:${i}`,
            label: `${g.nodes} node${g.nodes === 1 ? '' : 's'}${g.active ? ' (active)' : ''}`,
            description: answer.description.replace(/ \(active\)$/, ''),
            tooltip: `${names}\n${answer.tooltip}`,
        };
    });
    return { id: `group:${group}`, label, description: fleet.source, tooltip, icon: 'server', children, open: null };
}

function levelRow(level: HierarchyLevel, index: number): Row {
    const id = `level:${index}:${level.name}`;
    const label = level.layer === 'environment' && !level.defaultHierarchy ? level.name : `${level.name} (${layerText(level)})`;
    const tooltipHead = `Hierarchy level "${level.name}" (${layerText(level)} layer)`;
    if (level.skipped !== null) {
        return { id, label, description: `skipped: ${level.skipped}`, tooltip: `${tooltipHead}\n${level.skipped}`, icon: 'debug-step-over', children: [], open: null };
    }
    if (level.paths.length === 0) {
        return { id, label, description: 'no file for this node', tooltip: `${tooltipHead}\nIts paths resolve to no file for this node.`, icon: 'circle-slash', children: [], open: null };
    }
    const holds = level.paths.some((p) => p.holdsKey);
    const icon = holds ? 'pass-filled' : level.paths.some((p) => p.exists) ? 'file' : 'circle-slash';
    if (level.paths.length === 1) {
        const p = level.paths[0];
        return {
            id,
            label,
            description: `${p.shown} ${pathText(p)}`,
            tooltip: `${tooltipHead}\n${pathTooltip(p)}`,
            icon,
            children: [],
            open: p.exists ? { path: p.path, line: p.line } : null,
        };
    }
    const children: Row[] = level.paths.map((p, i) => ({
        id: `${id}:path:${i}`,
        label: p.shown,
        description: pathText(p),
        tooltip: pathTooltip(p),
        icon: p.holdsKey ? 'pass-filled' : p.exists ? 'file' : 'circle-slash',
        children: [],
        open: p.exists ? { path: p.path, line: p.line } : null,
    }));
    const held = level.paths.filter((p) => p.holdsKey).length;
    return {
        id,
        label,
        description: `${level.paths.length} files${held > 0 ? `, ${held} holding the key` : ''}`,
        tooltip: tooltipHead,
        icon,
        children,
        open: null,
    };
}

/** The tree: "Profiles" (name → value, failing ones marked), "Hierarchy (profile)" and notes. */
export function keyViewRows(view: KeyViewResult): Row[] {
    const total = view.profiles.length;
    const tooltip = 'The value lookup() gives each facts profile (.hiera-ls/facts/, spec/factsets/, hiera.factsPaths).';
    const profiles: Row = {
        id: 'group:profiles',
        label: total === 0 ? 'Profiles (none found)' : `Profiles (${total})`,
        description: view.merge ?? '',
        tooltip: view.merge === null ? tooltip : `${tooltip}\nLooked up with the ${view.merge}.`,
        icon: 'server-environment',
        children: view.profiles.map((p) => profileRow(p, total)),
        open: null,
    };
    // code that reads the key with another merge: what each profile gets that way
    const others: Row[] = view.otherMerges.map((m, i) => ({
        id: `group:merge:${i}`,
        label: `Profiles, other merge (${m.profiles.length})`,
        description: m.merge,
        tooltip: `Code also reads ${view.key} with the ${m.merge}: the value lookup() gives each facts profile that way.`,
        icon: 'git-merge',
        children: m.profiles.map((p) => profileRow(p, m.profiles.length, `merge:${i}`)),
        open: null,
    }));
    const hierarchy: Row = {
        id: 'group:hierarchy',
        label: `Hierarchy (${view.profile ?? 'no facts profile'})`,
        description: view.environment,
        tooltip: `Where ${view.profile ?? "the node 'localhost' without facts"} may read ${view.key}, level by level: ✓ the file exists, ✗ it does not, ● it holds the key.`,
        icon: 'layers',
        children: view.hierarchy.map((level, i) => levelRow(level, i)),
        open: null,
    };
    const fleet: Row[] = [];
    if (view.fleet !== null) {
        fleet.push(fleetRow(view.fleet, 'fleet', `PuppetDB nodes (${view.fleet.nodes})`));
    }
    view.otherMerges.forEach((m, i) => {
        if (m.fleet !== null) {
            fleet.push(fleetRow(m.fleet, `fleet:merge:${i}`, `PuppetDB nodes, other merge (${m.fleet.nodes})`));
        }
    });
    const rows = [profiles, ...fleet, ...others, hierarchy];
    if (view.notes.length > 0) {
        rows.push({
            id: 'group:notes',
            label: 'Notes',
            description: '',
            tooltip: '',
            icon: 'warning',
            children: view.notes.map((note, i) => ({ id: `note:${i}`, label: note, description: '', tooltip: note, icon: 'info', children: [], open: null })),
            open: null,
        });
    }
    return rows;
}

/** Whether a document is one the view follows: a YAML or JSON file on disk. */
export function followsDocument(languageId: string, scheme: string): boolean {
    return scheme === 'file' && (languageId === 'yaml' || languageId === 'json');
}
