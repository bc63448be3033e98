// `npm run package`: the .vsix files.
//
//   npm run package                              hiera-ls.vsix: the universal build, which
//                                                runs the hiera-ls installed on the machine
//   npm run package -- --target linux-x64        hiera-ls-linux-x64.vsix: also carries
//                                                hiera-ls and its dependencies for CPython
//                                                3.11-3.14 of that platform (scripts/bundle.py)
//   npm run package -- --target all              every platform build, then the universal one
//
// --target is vsce's own flag (several may be given). --wheel PATH uses that hiera-ls
// wheel (CI's `python -m build` one) instead of building it. The platforms' wheels come from
// the package index (pip download); $HIERA_LS_PYTHON (default python3) runs pip and build.
// Everything else goes to vsce as given.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const bundled = join(here, 'bundled');
const python = process.env.HIERA_LS_PYTHON || 'python3';
const vsce = join(here, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
export const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

function run(command, args) {
    console.log(`$ ${[command, ...args].join(' ')}`);
    const result = spawnSync(command, args, { cwd: here, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
    process.stdout.write(result.stdout ?? '');
    if (result.status !== 0) {
        console.error(`${command} failed (${result.error ?? `exit ${result.status}`})`);
        process.exit(result.status || 1);
    }
    return result.stdout ?? '';
}

const targets = [];
let wheel;
const rest = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--target' || flag === '-t') {
        targets.push(...argv[++i].split(','));
    } else if (flag.startsWith('--target=')) {
        targets.push(...flag.slice('--target='.length).split(','));
    } else if (flag === '--wheel') {
        wheel = resolve(argv[++i]);
    } else {
        rest.push(flag);
    }
}
const platforms = targets.includes('all') ? [...TARGETS, 'universal'] : targets.length === 0 ? ['universal'] : targets;
const unknown = platforms.filter((t) => t !== 'universal' && !TARGETS.includes(t));
if (unknown.length > 0) {
    console.error(`Unknown target ${unknown.join(', ')}: one of ${TARGETS.join(', ')}, all, or none for the universal build.`);
    process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'hiera-ls-package-'));
try {
    if (wheel === undefined && platforms.some((t) => t !== 'universal')) {
        wheel = run(python, ['scripts/bundle.py', 'wheel', '--out', scratch]).trim().split('\n').pop();
    }
    for (const target of platforms) {
        // The universal build carries nothing: bundled/ exists only while a platform is packaged.
        rmSync(bundled, { recursive: true, force: true });
        if (target === 'universal') {
            run(vsce, ['package', '--no-dependencies', '--out', 'hiera-ls.vsix', ...rest]);
        } else {
            run(python, ['scripts/bundle.py', 'bundle', '--target', target, '--wheel', wheel, '--out', bundled]);
            run(vsce, ['package', '--no-dependencies', '--target', target, '--out', `hiera-ls-${target}.vsix`, ...rest]);
        }
    }
} finally {
    rmSync(bundled, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
}
