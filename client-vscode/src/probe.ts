/**
 * The real {@link ServerProbe}: PATH lookup and file checks on this machine.
 *
 * Kept apart from the resolution rules (serverCommand.ts) so those are tested with a
 * fake file system; this file is the only one that touches the disk for them.
 */

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { ServerProbe } from './serverCommand';

/** Seconds an interpreter may take to answer "can you import hiera_ls?". */
const IMPORT_PROBE_TIMEOUT_MS = 20_000;

function isExecutable(file: string): boolean {
    try {
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
    } catch {
        return false;
    }
}

export function nodeProbe(searchPath: string = process.env.PATH ?? ''): ServerProbe {
    const extensions = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
    return {
        which(name: string): string | undefined {
            for (const dir of searchPath.split(path.delimiter)) {
                if (dir === '') {
                    continue;
                }
                for (const ext of extensions) {
                    const candidate = path.join(dir, name + ext);
                    if (isExecutable(candidate)) {
                        return candidate;
                    }
                }
            }
            return undefined;
        },
        isExecutable,
        canImport(python: string, module: string): boolean {
            // find_spec, not import: answers without running the package's import-time code.
            const code = `import importlib.util, sys; sys.exit(importlib.util.find_spec(${JSON.stringify(module)}) is None)`;
            const run = spawnSync(python, ['-c', code], { timeout: IMPORT_PROBE_TIMEOUT_MS, stdio: 'ignore' });
            return run.status === 0;
        },
    };
}
