/**
 * The interpreter the Python extension (ms-python.python) has selected, read from its
 * public API without depending on it: the extension is optional, and an API of another
 * version may lack what is asked, so every member is checked before use.
 *
 * Two API generations exist: `environments` (getActiveEnvironmentPath, resolveEnvironment,
 * onDidChangeActiveEnvironmentPath) and the older `settings` (getExecutionDetails,
 * onDidChangeExecutionDetails). Either is enough.
 */

export const PYTHON_EXTENSION_ID = 'ms-python.python';

type Members = Record<string, unknown>;

function members(v: unknown): Members | undefined {
    return v !== null && (typeof v === 'object' || typeof v === 'function') ? (v as Members) : undefined;
}

function call(target: Members | undefined, name: string, ...args: unknown[]): unknown {
    const fn = target?.[name];
    return typeof fn === 'function' ? (fn as (...a: unknown[]) => unknown).apply(target, args) : undefined;
}

/** The executable's path of a resolved environment (`env.executable.uri.fsPath`). */
function executablePath(env: unknown): string | undefined {
    const fsPath = members(members(members(env)?.executable)?.uri)?.fsPath;
    return typeof fsPath === 'string' && fsPath !== '' ? fsPath : undefined;
}

/** The interpreter for `resource` (a workspace folder's URI), or undefined. */
export async function selectedInterpreter(api: unknown, resource: unknown): Promise<string | undefined> {
    try {
        const environments = members(members(api)?.environments);
        if (environments !== undefined) {
            const active = call(environments, 'getActiveEnvironmentPath', resource);
            const path = executablePath(await call(environments, 'resolveEnvironment', active));
            if (path !== undefined) {
                return path;
            }
        }
    } catch {
        // an environment it cannot resolve: ask the older API
    }
    let details: Members | undefined;
    try {
        details = members(call(members(members(api)?.settings), 'getExecutionDetails', resource));
    } catch {
        return undefined;
    }
    const command = details?.execCommand;
    // One word: an interpreter. More (`conda run -n env python`) is not a path to run here.
    if (Array.isArray(command) && command.length === 1 && typeof command[0] === 'string' && command[0] !== '') {
        return command[0];
    }
    return undefined;
}

/** Subscribes `listener` to the API's "the interpreter changed" event; the disposable, if any. */
export function onInterpreterChanged(api: unknown, listener: () => void): { dispose(): unknown } | undefined {
    const sources: [unknown, string][] = [
        [members(api)?.environments, 'onDidChangeActiveEnvironmentPath'],
        [members(api)?.settings, 'onDidChangeExecutionDetails'],
    ];
    for (const [target, event] of sources) {
        const subscription = members(call(members(target), event, listener));
        if (subscription !== undefined && typeof subscription.dispose === 'function') {
            return subscription as { dispose(): unknown };
        }
    }
    return undefined;
}
