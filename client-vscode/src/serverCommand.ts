/**
 * Which command starts the language server.
 *
 * Resolution runs before the client starts so that a missing server becomes one clear
 * message instead of the language client's "server crashed 5 times" notification: a
 * `python3 -m hiera_ls` that cannot import the package would start, die and be
 * restarted over and over. The probes (PATH lookup, "is this executable", "can this
 * interpreter import hiera_ls") are passed in, so the order and the messages are tested
 * without a file system or VS Code.
 */

export type ServerSource = 'setting' | 'path' | 'python';

export interface ServerCommand {
    readonly command: string;
    readonly args: readonly string[];
    /** Where the command came from; shown in the output channel at start-up. */
    readonly source: ServerSource;
}

export interface ServerProbe {
    /** The absolute path of an executable found on PATH, or undefined. */
    which(name: string): string | undefined;
    /** Whether an absolute path names an executable file. */
    isExecutable(path: string): boolean;
    /** Whether the interpreter at this path can import the module. */
    canImport(python: string, module: string): boolean;
}

export type Resolution =
    | { readonly ok: true; readonly server: ServerCommand }
    | { readonly ok: false; readonly reason: string; readonly tried: readonly string[] };

export const SERVER_EXECUTABLE = 'hiera-ls';
export const SERVER_MODULE = 'hiera_ls';
export const SERVE_ARGS: readonly string[] = ['serve'];
const PYTHON_ARGS: readonly string[] = ['-m', SERVER_MODULE, 'serve'];
const PYTHON_FALLBACKS: readonly string[] = ['python3'];

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

function fromSetting(path: string, probe: ServerProbe): Resolution {
    const resolved = isBareName(path) ? probe.which(path) : path;
    const tried = [`hiera.server.path = ${path}`];
    if (resolved === undefined || !probe.isExecutable(resolved)) {
        return {
            ok: false,
            reason: `The setting hiera.server.path is "${path}", but no executable file is there${isBareName(path) ? ' or on PATH' : ''}.`,
            tried,
        };
    }
    if (isPythonInterpreter(resolved)) {
        if (!probe.canImport(resolved, SERVER_MODULE)) {
            return {
                ok: false,
                reason: `The setting hiera.server.path names the Python interpreter ${resolved}, which cannot import ${SERVER_MODULE}.`,
                tried,
            };
        }
        return { ok: true, server: { command: resolved, args: PYTHON_ARGS, source: 'setting' } };
    }
    return { ok: true, server: { command: resolved, args: SERVE_ARGS, source: 'setting' } };
}

/**
 * The setting wins when given (and is never silently replaced by a fallback: a user who
 * set it wants that server or an error); otherwise `hiera-ls` on PATH, then a Python 3
 * on PATH that can import the package.
 */
export function resolveServerCommand(
    settingPath: string | undefined,
    probe: ServerProbe,
    home: string,
    workspaceFolder?: string,
): Resolution {
    const setting = expandPath(settingPath ?? '', home, workspaceFolder);
    if (setting !== '') {
        return fromSetting(setting, probe);
    }
    const tried: string[] = [];
    const onPath = probe.which(SERVER_EXECUTABLE);
    tried.push(`${SERVER_EXECUTABLE} on PATH`);
    if (onPath !== undefined && probe.isExecutable(onPath)) {
        return { ok: true, server: { command: onPath, args: SERVE_ARGS, source: 'path' } };
    }
    for (const name of PYTHON_FALLBACKS) {
        tried.push(`${name} -m ${SERVER_MODULE}`);
        const python = probe.which(name);
        if (python !== undefined && probe.canImport(python, SERVER_MODULE)) {
            return { ok: true, server: { command: python, args: PYTHON_ARGS, source: 'python' } };
        }
    }
    return {
        ok: false,
        reason: `The Hiera language server (${SERVER_EXECUTABLE}) is not installed: it is not on PATH, and python3 cannot import ${SERVER_MODULE}.`,
        tried,
    };
}

/** The one notification shown when the server cannot start. */
export function notFoundMessage(reason: string): string {
    return `${reason} Install it with "pip install hiera-ls" (Python 3.11 or newer), or point the setting hiera.server.path at it; then run "Hiera: Restart Server".`;
}

/** How a command is shown in the output channel. */
export function describeCommand(server: ServerCommand): string {
    const quote = (s: string): string => (/[\s"']/.test(s) ? JSON.stringify(s) : s);
    return [server.command, ...server.args].map(quote).join(' ');
}
