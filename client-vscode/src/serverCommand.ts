/**
 * Which command starts the language server.
 *
 * Resolution runs before the client starts so that a missing server becomes one clear
 * message instead of the language client's "server crashed 5 times" notification: a
 * `python3 -m hiera_ls` that cannot import the package would start, die and be
 * restarted over and over. The probes (PATH lookup, "is this executable", "what is this
 * Python") are passed in, so the order and the messages are tested without a file system
 * or VS Code.
 *
 * The order, as ruff's and Microsoft's Python-tool extensions have it:
 * 1. `hiera.server.path` wins when set, and is never silently replaced by a fallback.
 * 2. `hiera.importStrategy` `fromEnvironment` (the default): the hiera-ls installed in the
 *    chosen interpreter (`hiera.interpreter`, else the Python extension's), then `hiera-ls`
 *    on PATH, then a `python3` on PATH that has it.
 * 3. The hiera-ls this extension carries (platform builds only), run by the first Python
 *    whose version and platform match the wheels carried; `useBundled` goes straight here.
 *
 * In a workspace that is not trusted (Restricted Mode) nothing the workspace chose is run:
 * the Python extension is not asked (its interpreter may be the workspace's `.venv`), a
 * path setting that points into a workspace folder is ignored, and a platform build runs
 * its own copy.
 */

import { type Bundle, bundleRejects, pythonVersionRange } from './bundle';

export type ServerSource = 'setting' | 'path' | 'python' | 'bundled';

export interface ServerCommand {
    readonly command: string;
    readonly args: readonly string[];
    /** Where the command came from; shown in the output channel at start-up. */
    readonly source: ServerSource;
    /** For `bundled`: which Python runs it, and where that Python was found. */
    readonly detail?: string;
}

/** What a Python interpreter says about itself (probe.ts asks it). */
export interface PythonInfo {
    readonly version: readonly number[];
    /** `sys.implementation.name`: `cpython`, `pypy`, ... */
    readonly implementation: string;
    /** `sys.platform`: `linux`, `darwin`, `win32`. */
    readonly platform: string;
    /** `platform.machine()`: `x86_64`, `aarch64`, `arm64`, `AMD64`. */
    readonly machine: string;
    /** A free-threaded build (`python3.14t`), whose extension modules have another ABI. */
    readonly freeThreaded: boolean;
}

export interface ServerProbe {
    /** The absolute path of the first executable of this name on PATH that `accept`s, or undefined. */
    which(name: string, accept?: (path: string) => boolean): string | undefined;
    /** Whether an absolute path names an executable file. */
    isExecutable(path: string): boolean;
    /** Whether the interpreter at this path can import the module. */
    canImport(python: string, module: string): boolean;
    /** What the interpreter at this path is, or undefined when it does not run as Python 3. */
    inspectPython(python: string): PythonInfo | undefined;
}

export type ImportStrategy = 'fromEnvironment' | 'useBundled';
export const IMPORT_STRATEGIES: readonly ImportStrategy[] = ['fromEnvironment', 'useBundled'];

/** Everything besides `hiera.server.path` that decides which server runs. */
export interface LaunchContext {
    /** `hiera.interpreter`: the Python to use, chosen by the user. */
    readonly interpreter?: string;
    /** The Python extension's interpreter for this workspace (asked only when trusted). */
    readonly selectedInterpreter?: string;
    readonly importStrategy?: ImportStrategy;
    /** The hiera-ls carried by a platform build of the extension; absent in the universal one. */
    readonly bundle?: Bundle;
    /** False in Restricted Mode. */
    readonly trusted?: boolean;
    /** The workspace folders: paths inside them are the workspace's choice, not the user's. */
    readonly workspaceFolders?: readonly string[];
    /** The interpreter names looked up on PATH, in order (`python3`, then `python`). */
    readonly pythonNames?: readonly string[];
}

export type Resolution =
    | {
          readonly ok: true;
          readonly server: ServerCommand;
          /** What was passed over on the way and why (Restricted Mode), for the output channel. */
          readonly notes?: readonly string[];
      }
    | {
          readonly ok: false;
          readonly reason: string;
          readonly tried: readonly string[];
          /** Whether the extension carries hiera-ls (the advice differs: a Python, not hiera-ls). */
          readonly bundled: boolean;
          readonly notes?: readonly string[];
      };

export const SERVER_EXECUTABLE = 'hiera-ls';
export const SERVER_MODULE = 'hiera_ls';
export const SERVE_ARGS: readonly string[] = ['serve'];
const PYTHON_ARGS: readonly string[] = ['-m', SERVER_MODULE, 'serve'];
const PYTHON_FALLBACKS: readonly string[] = ['python3'];
export const PYTHON_NAMES: readonly string[] = ['python3', 'python'];

/** `python`, `python3`, `python3.12`, `python.exe`: an interpreter, to be run with `-m`. */
export function isPythonInterpreter(path: string): boolean {
    const base = path.split(/[\\/]/).pop() ?? '';
    return /^python(\d+(\.\d+)*)?(\.exe)?$/i.test(base);
}

/**
 * Expand `~` and `${workspaceFolder}` the way VS Code users expect in path settings.
 * `${userHome}` too. Other variables are left as they are (and will then not be found,
 * which the message reports with the text as written).
 */
export function expandPath(raw: string, home: string, workspaceFolder: string | undefined): string {
    let out = raw.trim();
    if (out === '~') {
        out = home;
    } else if (out.startsWith('~/')) {
        out = home + out.slice(1);
    }
    out = out.replace(/\$\{userHome\}/g, home);
    if (workspaceFolder !== undefined) {
        out = out.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
    }
    return out;
}

function isBareName(path: string): boolean {
    return !/[\\/]/.test(path);
}

/** Whether `path` lies in one of `folders` (textually: a workspace's own files). */
export function isInside(path: string, folders: readonly string[]): boolean {
    const norm = (p: string): string => p.replace(/\\/g, '/').replace(/\/+$/, '');
    const target = norm(path);
    return folders.some((f) => {
        const root = norm(f);
        return root !== '' && (target === root || target.startsWith(root + '/'));
    });
}

function fromSetting(path: string, probe: ServerProbe): Resolution {
    const resolved = isBareName(path) ? probe.which(path) : path;
    const tried = [`hiera.server.path = ${path}`];
    const fail = (reason: string): Resolution => ({ ok: false, reason, tried, bundled: false });
    if (resolved === undefined || !probe.isExecutable(resolved)) {
        return fail(`The setting hiera.server.path is "${path}", but no executable file is there${isBareName(path) ? ' or on PATH' : ''}.`);
    }
    if (isPythonInterpreter(resolved)) {
        if (!probe.canImport(resolved, SERVER_MODULE)) {
            return fail(`The setting hiera.server.path names the Python interpreter ${resolved}, which cannot import ${SERVER_MODULE}.`);
        }
        return { ok: true, server: { command: resolved, args: PYTHON_ARGS, source: 'setting' } };
    }
    return { ok: true, server: { command: resolved, args: SERVE_ARGS, source: 'setting' } };
}

interface Candidate {
    readonly path: string;
    /** Where it was found, as the messages say it. */
    readonly origin: string;
    /** Chosen for this workspace (setting or Python extension), not just found on PATH. */
    readonly chosen: boolean;
}

/** The Pythons to try, best first, with what was skipped and why. */
function pythonCandidates(
    probe: ServerProbe,
    home: string,
    workspaceFolder: string | undefined,
    ctx: LaunchContext,
    notes: string[],
): { candidates: Candidate[]; explicit: boolean } {
    const trusted = ctx.trusted ?? true;
    const folders = ctx.workspaceFolders ?? [];
    const setting = expandPath(ctx.interpreter ?? '', home, workspaceFolder);
    if (setting !== '') {
        if (!trusted && isInside(setting, folders)) {
            notes.push(`Restricted Mode: hiera.interpreter (${setting}) is inside the workspace, which is not trusted; it is not run.`);
        } else {
            const path = isBareName(setting) ? (probe.which(setting) ?? setting) : setting;
            return { candidates: [{ path, origin: 'the setting hiera.interpreter', chosen: true }], explicit: true };
        }
    }
    const out: Candidate[] = [];
    if (trusted && ctx.selectedInterpreter !== undefined && ctx.selectedInterpreter !== '') {
        out.push({ path: ctx.selectedInterpreter, origin: "the Python extension's interpreter", chosen: true });
    }
    // Every one on PATH, not just the first: the first may be a stub (Windows' python.exe
    // that opens the Store) or too old, and a later one fit.
    for (const name of ctx.pythonNames ?? PYTHON_NAMES) {
        probe.which(name, (found) => {
            if (!out.some((c) => c.path === found)) {
                out.push({ path: found, origin: `${name} on PATH`, chosen: false });
            }
            return false;
        });
    }
    return { candidates: out, explicit: false };
}

/** `hiera-ls` installed where the user keeps Python tools: the chosen interpreter, PATH, python3. */
function fromEnvironment(probe: ServerProbe, candidates: readonly Candidate[], tried: string[]): ServerCommand | undefined {
    for (const c of candidates.filter((c) => c.chosen)) {
        tried.push(`${c.path} -m ${SERVER_MODULE} (${c.origin})`);
        if (probe.isExecutable(c.path) && probe.canImport(c.path, SERVER_MODULE)) {
            return { command: c.path, args: PYTHON_ARGS, source: 'python' };
        }
    }
    const onPath = probe.which(SERVER_EXECUTABLE);
    tried.push(`${SERVER_EXECUTABLE} on PATH`);
    if (onPath !== undefined && probe.isExecutable(onPath)) {
        return { command: onPath, args: SERVE_ARGS, source: 'path' };
    }
    for (const name of PYTHON_FALLBACKS) {
        tried.push(`${name} -m ${SERVER_MODULE}`);
        const python = probe.which(name);
        if (python !== undefined && probe.canImport(python, SERVER_MODULE)) {
            return { command: python, args: PYTHON_ARGS, source: 'python' };
        }
    }
    return undefined;
}

/** Why a candidate Python cannot run the carried hiera-ls. */
interface Refusal {
    readonly candidate: Candidate;
    readonly why: string;
}

/** The carried hiera-ls, run by the first candidate Python that matches its wheels. */
function fromBundle(probe: ServerProbe, bundle: Bundle, candidates: readonly Candidate[], refusals: Refusal[]): ServerCommand | undefined {
    for (const candidate of candidates) {
        const info = probe.isExecutable(candidate.path) ? probe.inspectPython(candidate.path) : undefined;
        const why = info === undefined ? 'it does not run as Python 3' : bundleRejects(bundle, info);
        if (why !== undefined || info === undefined) {
            refusals.push({ candidate, why: why ?? '' });
            continue;
        }
        return {
            command: candidate.path,
            // -I: isolated, so neither the working directory, PYTHONPATH nor the user's
            // site-packages can put other code in front of the carried packages.
            args: ['-I', bundle.launcher, ...SERVE_ARGS],
            source: 'bundled',
            detail: `hiera-ls ${bundle.version} carried by the extension, run by Python ${info.version.join('.')} (${candidate.origin})`,
        };
    }
    return undefined;
}

/** `probe`, whose PATH lookups skip programs inside the workspace (a PATH entry such as
 * direnv's `./bin` or `/ws/.venv/bin` is the workspace's choice, not the user's). */
function outsideWorkspace(probe: ServerProbe, folders: readonly string[], notes: string[]): ServerProbe {
    return {
        ...probe,
        which(name: string, accept: (path: string) => boolean = () => true): string | undefined {
            return probe.which(name, (found) => {
                if (!isInside(found, folders)) {
                    return accept(found);
                }
                const note = `Restricted Mode: ${found} (${name} on PATH) is inside the workspace, which is not trusted; it is not run.`;
                if (!notes.includes(note)) {
                    notes.push(note);
                }
                return false;
            });
        },
    };
}

/**
 * The setting wins when given (and is never silently replaced by a fallback: a user who
 * set it wants that server or an error); then the environment's hiera-ls (unless the
 * strategy is `useBundled`, or the workspace is not trusted and the bundle can serve), then
 * the carried one.
 */
export function resolveServerCommand(
    settingPath: string | undefined,
    probe: ServerProbe,
    home: string,
    workspaceFolder?: string,
    ctx: LaunchContext = {},
): Resolution {
    const trusted = ctx.trusted ?? true;
    const notes: string[] = [];
    const setting = expandPath(settingPath ?? '', home, workspaceFolder);
    if (setting !== '') {
        if (!trusted && isInside(setting, ctx.workspaceFolders ?? [])) {
            notes.push(`Restricted Mode: hiera.server.path (${setting}) is inside the workspace, which is not trusted; it is not run.`);
        } else {
            return fromSetting(setting, probe);
        }
    }
    if (!trusted) {
        probe = outsideWorkspace(probe, ctx.workspaceFolders ?? [], notes);
    }
    const bundle = ctx.bundle;
    const tried: string[] = [];
    const { candidates, explicit } = pythonCandidates(probe, home, workspaceFolder, ctx, notes);
    const environmentFirst = bundle === undefined || (trusted && (ctx.importStrategy ?? 'fromEnvironment') === 'fromEnvironment');
    if (environmentFirst) {
        const server = fromEnvironment(probe, candidates, tried);
        if (server !== undefined) {
            return { ok: true, server, ...(notes.length > 0 ? { notes } : {}) };
        }
    }
    if (bundle === undefined) {
        return {
            ok: false,
            reason: `The Hiera language server (${SERVER_EXECUTABLE}) is not installed: it is not on PATH, and python3 cannot import ${SERVER_MODULE}.`,
            tried,
            bundled: false,
            notes,
        };
    }
    const refusals: Refusal[] = [];
    const server = fromBundle(probe, bundle, candidates, refusals);
    if (server !== undefined) {
        return { ok: true, server, ...(notes.length > 0 ? { notes } : {}) };
    }
    tried.push(...refusals.map((r) => `${r.candidate.path} (${r.candidate.origin}): ${r.why}`));
    const range = pythonVersionRange(bundle);
    let reason: string;
    if (explicit) {
        reason = `The setting hiera.interpreter names ${candidates[0]?.path}, which cannot run the hiera-ls this extension carries (it needs ${range}): ${refusals[0]?.why}.`;
    } else if (refusals.length === 0) {
        reason = `No Python was found to run the hiera-ls this extension carries (it needs ${range}): neither python3 nor python is on PATH.`;
    } else {
        const each = refusals.map((r) => `${r.candidate.path} (${r.candidate.origin}): ${r.why}`).join('; ');
        reason = `No Python here can run the hiera-ls this extension carries (it needs ${range}). ${each}.`;
    }
    return { ok: false, reason, tried, bundled: true, notes };
}

/** Where to get hiera-ls while it is not on PyPI: its repository, whose README says how. */
export const INSTALL_URL = 'https://github.com/hiera-ls/hiera-ls';

/** The platforms whose build of the extension carries hiera-ls (scripts/package.mjs builds them). */
export const BUNDLED_TARGETS: readonly string[] = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

/** The one notification shown when the server cannot start: what is wrong, and what to do. */
export function notFoundMessage(reason: string, bundled = false): string {
    if (bundled) {
        return `${reason} Install Python 3.11 or newer (python.org, or your system's package manager), or choose one with the Python extension or the setting hiera.interpreter; then run "Hiera: Restart Server".`;
    }
    return `${reason} hiera-ls is not on PyPI yet: install it from its repository with pipx, uv or a virtual environment (${INSTALL_URL}), or use this extension's build for ${BUNDLED_TARGETS.join(', ')}, which carries the server. If it is not on PATH, point the setting hiera.server.path at it; then run "Hiera: Restart Server".`;
}

/** How a command is shown in the output channel. */
export function describeCommand(server: ServerCommand): string {
    const quote = (s: string): string => (/[\s"']/.test(s) ? JSON.stringify(s) : s);
    return [server.command, ...server.args].map(quote).join(' ');
}
