/**
 * The hiera-ls a platform build of the extension carries (`bundled/`, written by
 * scripts/bundle.py): the server and its dependencies installed from wheels for CPython
 * 3.11 and newer of one platform, started by `bundled/tool/launch.py`.
 *
 * Four dependencies (regex, PyYAML, ruamel.yaml.clib, cryptography with cffi) are compiled
 * code, so the carried copy runs only on a CPython of a version and platform it has wheels
 * for. `bundled/manifest.json` says which; {@link bundleRejects} checks a Python against it
 * before anything is started, so a mismatch is one clear message rather than an ImportError
 * in the output channel.
 */

import type { PythonInfo } from './serverCommand';

export interface Bundle {
    /** The script that starts the carried server (absolute path). */
    readonly launcher: string;
    /** The vsce target the wheels are for: `linux-x64`, `darwin-arm64`, ... */
    readonly target: string;
    /** The hiera-ls version carried. */
    readonly version: string;
    /** `major.minor` of every CPython the wheels are for, ascending. */
    readonly pythons: readonly string[];
    /** The `sys.platform` of that target. */
    readonly platform: string;
    /** The `platform.machine()` names of that target, lower case. */
    readonly machines: readonly string[];
}

export const BUNDLE_DIR = 'bundled';
export const BUNDLE_MANIFEST = 'manifest.json';
export const BUNDLE_LAUNCHER = ['tool', 'launch.py'] as const;

function strings(v: unknown): string[] | undefined {
    return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/** `bundled/manifest.json`, read defensively: undefined when it is not a manifest. */
export function parseBundleManifest(raw: unknown, launcher: string): Bundle | undefined {
    if (raw === null || typeof raw !== 'object') {
        return undefined;
    }
    const rec = raw as Record<string, unknown>;
    const pythons = strings(rec.pythons);
    const machines = strings(rec.machines);
    if (
        typeof rec.target !== 'string' ||
        typeof rec.version !== 'string' ||
        typeof rec.platform !== 'string' ||
        pythons === undefined ||
        machines === undefined
    ) {
        return undefined;
    }
    const byVersion = (a: string, b: string): number => {
        const [am, an] = a.split('.').map(Number);
        const [bm, bn] = b.split('.').map(Number);
        return am - bm || an - bn;
    };
    return {
        launcher,
        target: rec.target,
        version: rec.version,
        pythons: [...pythons].sort(byVersion),
        platform: rec.platform,
        machines: machines.map((m) => m.toLowerCase()),
    };
}

/** `CPython 3.11–3.14 for linux-x64`: what the carried copy needs, as messages say it. */
export function pythonVersionRange(bundle: Bundle): string {
    const first = bundle.pythons[0];
    const last = bundle.pythons[bundle.pythons.length - 1];
    return `CPython ${first === last ? first : `${first}–${last}`} for ${bundle.target}`;
}

/** Why this Python cannot run the carried hiera-ls, or undefined when it can. */
export function bundleRejects(bundle: Bundle, info: PythonInfo): string | undefined {
    const version = info.version.slice(0, 2).join('.');
    const full = info.version.join('.');
    if (info.implementation !== 'cpython') {
        return `it is ${info.implementation} ${full}, not CPython`;
    }
    if (info.freeThreaded) {
        return `it is a free-threaded build of CPython ${full}, whose compiled modules the wheels do not include`;
    }
    if (!bundle.pythons.includes(version)) {
        const [major, minor] = info.version;
        const [firstMajor, firstMinor] = bundle.pythons[0].split('.').map(Number);
        const older = major < firstMajor || (major === firstMajor && minor < firstMinor);
        return older ? `it is Python ${full}, too old` : `it is Python ${full}, newer than the wheels carried`;
    }
    if (info.platform !== bundle.platform || !bundle.machines.includes(info.machine.toLowerCase())) {
        return `it runs on ${info.platform} ${info.machine}, not ${bundle.target}`;
    }
    return undefined;
}
