/**
 * The real {@link ServerProbe}: PATH lookup, file checks and questions to Python
 * interpreters on this machine.
 *
 * Kept apart from the resolution rules (serverCommand.ts) so those are tested with a
 * fake file system; this file is the only one that touches the disk for them.
 */

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { PythonInfo, ServerProbe } from './serverCommand';

/** Seconds an interpreter may take to answer "what are you, can you import hiera_ls?". */
const PYTHON_PROBE_TIMEOUT_MS = 20_000;

/** One question per interpreter: its version, platform and whether hiera_ls is importable. */
const INSPECT = [
    'import importlib.util, json, platform, sys, sysconfig',
    'print(json.dumps({"version": list(sys.version_info[:3]), "implementation": sys.implementation.name,',
    ' "platform": sys.platform, "machine": platform.machine(),',
    ' "freeThreaded": bool(sysconfig.get_config_var("Py_GIL_DISABLED")),',
    ' "modules": [m for m in sys.argv[1:] if importlib.util.find_spec(m) is not None]}))',
].join('\n');

function isExecutable(file: string): boolean {
    try {
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
    } catch {
        return false;
    }
}

interface Answer {
    readonly info: PythonInfo;
    readonly modules: readonly string[];
}

/** The interpreter's answer to {@link INSPECT}, or undefined when it is not a working Python 3. */
function ask(python: string, modules: readonly string[], cwd: string | undefined, isolated: boolean): Answer | undefined {
    const run = spawnSync(python, [...(isolated ? ['-I'] : []), '-c', INSPECT, ...modules], {
        timeout: PYTHON_PROBE_TIMEOUT_MS,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        ...(cwd !== undefined ? { cwd } : {}),
        windowsHide: true,
    });
    if (run.status !== 0 || typeof run.stdout !== 'string') {
        return undefined;
    }
    try {
        const raw = JSON.parse(run.stdout.trim()) as Record<string, unknown>;
        const version = raw.version;
        if (!Array.isArray(version) || !version.every((n) => typeof n === 'number')) {
            return undefined;
        }
        return {
            info: {
                version: version as number[],
                implementation: String(raw.implementation),
                platform: String(raw.platform),
                machine: String(raw.machine),
                freeThreaded: raw.freeThreaded === true,
            },
            modules: Array.isArray(raw.modules) ? raw.modules.map(String) : [],
        };
    } catch {
        return undefined;
    }
}

export interface ProbeOptions {
    readonly searchPath?: string;
    /**
     * Where interpreters are asked from: a directory of the extension's own, so the
     * working directory (first on a `-c` interpreter's sys.path) holds nothing of a workspace.
     */
    readonly cwd?: string;
    /** Ask in isolated mode (`-I`: no user site-packages, no PYTHON* variables): Restricted Mode. */
    readonly isolated?: boolean;
}

export function nodeProbe(options: ProbeOptions = {}): ServerProbe {
    const searchPath = options.searchPath ?? process.env.PATH ?? '';
    const extensions = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
    // Each interpreter is asked once per resolution, for every module asked about so far.
    const answers = new Map<string, Answer | undefined>();
    const answer = (python: string, module?: string): Answer | undefined => {
        const key = `${python}\0${module ?? ''}`;
        if (!answers.has(key)) {
            answers.set(key, ask(python, module === undefined ? [] : [module], options.cwd, options.isolated ?? false));
        }
        return answers.get(key);
    };
    return {
        which(name: string, accept: (found: string) => boolean = () => true): string | undefined {
            for (const dir of searchPath.split(path.delimiter)) {
                // A relative PATH entry ('.', 'bin') names a folder of wherever the editor
                // was started, possibly a workspace: never a place to run programs from.
                if (dir === '' || !path.isAbsolute(dir)) {
                    continue;
                }
                for (const ext of extensions) {
                    const candidate = path.join(dir, name + ext);
                    if (isExecutable(candidate) && accept(candidate)) {
                        return candidate;
                    }
                }
            }
            return undefined;
        },
        isExecutable,
        canImport(python: string, module: string): boolean {
            // find_spec, not import: answers without running the package's import-time code.
            return answer(python, module)?.modules.includes(module) ?? false;
        },
        inspectPython(python: string): PythonInfo | undefined {
            const asked = [...answers.keys()].find((k) => k.startsWith(`${python}\0`));
            return (asked !== undefined ? answers.get(asked) : answer(python))?.info;
        },
    };
}
