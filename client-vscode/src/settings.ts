/**
 * The `hiera` settings, as the server reads them.
 *
 * The same shape travels twice: once as initializationOptions (so the very first
 * diagnostics already use the user's facts profile and paths) and again whenever the
 * server asks with workspace/configuration. Both go through {@link normalizeSettings}, so
 * `~` and `${workspaceFolder}` mean the same thing on both paths and a wrongly typed
 * value is dropped here rather than sent.
 */

import { expandPath } from './serverCommand';

export const SECTION = 'hiera';

export interface HieraSettings {
    factsProfile: string | null;
    factsPaths: string[];
    hieraConfig: string | null;
    environmentPath: string | null;
    environment: string | null;
    /** `hiera.target`: the Puppet the nodes run (null: the repository's `.hiera-ls.yaml`, else puppet8). */
    target: Target | null;
    /** Deprecated (`hiera.target` replaces it): sent only when the user set it. */
    strictVariables: boolean | null;
    /** Which directories hold modules: Puppet's modulepath only, or also the conventional ones. */
    moduleDirs: ModuleDirs;
    /** `hiera.eyaml.decryptInHover`: hovers show eyaml plaintext (off unless the user turns it on). */
    eyaml: { decryptInHover: boolean };
    /** `hiera.inlayHints.enabled`: inlay hints in data files (on unless the user turns them off). */
    inlayHints: { enabled: boolean };
    /** Custom backend function -> the reader hiera-ls reads its levels with (`expand_path` ...). */
    backends: Record<string, string>;
    /** `hiera.maxFiles`: the most files one listing of the workspace holds. */
    maxFiles: number;
    /** `hiera.puppetdb.*`: the user's PuppetDB, whose nodes the profile picker lists. */
    puppetdb: PuppetDBSettings;
}

/**
 * The PuppetDB settings: machine scope in package.json, so VS Code takes them from the
 * user's settings only and a workspace cannot make the server connect anywhere.
 */
export interface PuppetDBSettings {
    url: string | null;
    query: string | null;
    cert: string | null;
    key: string | null;
    cacert: string | null;
    token: string | null;
    timeout: number | null;
    allowedUrls: string[];
}

/** The values of `hiera.target` (the server's project/targets.py). */
export const TARGETS = ['puppet7', 'puppet8', 'openvox8', 'openvox9'] as const;
export type Target = (typeof TARGETS)[number];

/** The values of `hiera.moduleDirs`; the server's default is `conventional`. */
export const MODULE_DIRS = ['conventional', 'modulepath'] as const;
export type ModuleDirs = (typeof MODULE_DIRS)[number];

function moduleDirs(value: unknown): ModuleDirs {
    return (MODULE_DIRS as readonly unknown[]).includes(value) ? (value as ModuleDirs) : 'conventional';
}

/** Every setting the server understands (in the `hiera` section), for `getConfiguration`. */
export const SERVER_SETTING_KEYS: readonly (keyof HieraSettings)[] = [
    'factsProfile',
    'factsPaths',
    'hieraConfig',
    'environmentPath',
    'environment',
    'target',
    'strictVariables',
    'moduleDirs',
    'eyaml',
    'inlayHints',
    'backends',
    'maxFiles',
    'puppetdb',
];

/** The settings in groups (`hiera.eyaml`, `hiera.inlayHints`), contributed one by one in package.json. */
export const NESTED_SETTING_KEYS: readonly string[] = [
    'eyaml.decryptInHover',
    'inlayHints.enabled',
    ...['url', 'query', 'cert', 'key', 'cacert', 'token', 'timeout', 'allowedUrls'].map((k) => `puppetdb.${k}`),
];

/** The settings that are groups: contributed as their NESTED_SETTING_KEYS. */
export const SETTING_GROUPS: readonly string[] = ['eyaml', 'inlayHints', 'puppetdb'];

export interface InitializationOptions extends HieraSettings {
    /**
     * False when another extension (Red Hat's YAML) already reports plain YAML syntax
     * errors for the same files, so a user does not see each one twice.
     */
    yamlSyntaxDiagnostics: boolean;
    /** Whether hiera.yaml is also validated against the JSON schema by the YAML extension. */
    hieraConfigSchemaDiagnostics: boolean;
    client: { name: string; version: string };
}

function text(value: unknown): string | null {
    if (typeof value !== 'string') {
        return null;
    }
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
}

function path(value: unknown, home: string, folder: string | undefined): string | null {
    const t = text(value);
    return t === null ? null : expandPath(t, home, folder);
}

/** Settings as read from VS Code (any JSON) -> the typed shape the server expects. */
export function normalizeSettings(raw: unknown, home: string, folder?: string): HieraSettings {
    const get = (key: string): unknown =>
        raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[key] : undefined;
    const paths = get('factsPaths');
    const list = typeof paths === 'string' ? [paths] : Array.isArray(paths) ? paths : [];
    const strict = get('strictVariables');
    return {
        factsProfile: text(get('factsProfile')),
        factsPaths: list
            .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
            .map((p) => expandPath(p, home, folder)),
        hieraConfig: path(get('hieraConfig'), home, folder),
        environmentPath: path(get('environmentPath'), home, folder),
        environment: text(get('environment')),
        target: (TARGETS as readonly unknown[]).includes(get('target')) ? (get('target') as Target) : null,
        strictVariables: typeof strict === 'boolean' ? strict : null,
        moduleDirs: moduleDirs(get('moduleDirs')),
        eyaml: { decryptInHover: flag(get('eyaml'), 'decryptInHover', false) },
        inlayHints: { enabled: flag(get('inlayHints'), 'enabled', true) },
        backends: backends(get('backends')),
        maxFiles: positive(get('maxFiles'), 20000),
        puppetdb: puppetdb(get('puppetdb'), home, folder),
    };
}

function puppetdb(raw: unknown, home: string, folder: string | undefined): PuppetDBSettings {
    const get = (key: string): unknown =>
        raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[key] : undefined;
    const timeout = get('timeout');
    const allowed = get('allowedUrls');
    return {
        url: text(get('url')),
        query: text(get('query')),
        cert: path(get('cert'), home, folder),
        key: path(get('key'), home, folder),
        cacert: path(get('cacert'), home, folder),
        token: path(get('token'), home, folder),
        timeout: typeof timeout === 'number' && timeout > 0 ? timeout : null,
        allowedUrls: Array.isArray(allowed)
            ? allowed.filter((u): u is string => typeof u === 'string' && u.trim() !== '').map((u) => u.trim())
            : [],
    };
}

/** A whole number of at least 1; anything else is the default. */
function positive(value: unknown, fallback: number): number {
    return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : fallback;
}

/** Only string-to-string entries: the server names what it cannot use, with the reason. */
function backends(raw: unknown): Record<string, string> {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        return {};
    }
    return Object.fromEntries(
        Object.entries(raw as Record<string, unknown>).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
    );
}

/** A boolean inside a settings group; anything but a boolean is the default. */
function flag(raw: unknown, key: string, fallback: boolean): boolean {
    const value = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[key] : undefined;
    return typeof value === 'boolean' ? value : fallback;
}

export interface ClientFacts {
    /** Red Hat's YAML extension (redhat.vscode-yaml) is installed and enabled. */
    yamlExtensionPresent: boolean;
    clientName: string;
    clientVersion: string;
}

export function initializationOptions(settings: HieraSettings, facts: ClientFacts): InitializationOptions {
    return {
        ...settings,
        yamlSyntaxDiagnostics: !facts.yamlExtensionPresent,
        hieraConfigSchemaDiagnostics: !facts.yamlExtensionPresent,
        client: { name: facts.clientName, version: facts.clientVersion },
    };
}

/**
 * The answer to one workspace/configuration item: the `hiera` section normalized, other
 * sections passed through untouched.
 */
export function configurationAnswer(
    section: string | undefined,
    value: unknown,
    home: string,
    folder?: string,
): unknown {
    if (section === SECTION) {
        return normalizeSettings(value, home, folder);
    }
    if (section !== undefined && section.startsWith(SECTION + '.')) {
        const key = section.slice(SECTION.length + 1);
        if ((SERVER_SETTING_KEYS as readonly string[]).includes(key)) {
            return (normalizeSettings({ [key]: value }, home, folder) as unknown as Record<string, unknown>)[key];
        }
    }
    return value;
}

/**
 * Settings whose change needs a new server process rather than didChangeConfiguration:
 * the ones that choose which program runs. They are machine-scoped and restricted in
 * package.json (a workspace's own settings never choose a program VS Code runs).
 */
export const LAUNCH_SETTINGS: readonly string[] = ['hiera.server.path', 'hiera.interpreter', 'hiera.importStrategy'];

export function needsRestart(changed: (section: string) => boolean): boolean {
    return LAUNCH_SETTINGS.some((section) => changed(section));
}
