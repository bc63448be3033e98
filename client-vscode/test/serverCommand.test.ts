import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bundle } from '../src/bundle';
import {
    type PythonInfo,
    type ServerProbe,
    describeCommand,
    expandPath,
    isInside,
    isPythonInterpreter,
    notFoundMessage,
    resolveServerCommand,
} from '../src/serverCommand';

/** A machine described by its executables, PATH directories, importable modules and Pythons. */
function fakeMachine(opts: {
    executables?: string[];
    path?: string[];
    importable?: Record<string, string[]>;
    pythons?: Record<string, PythonInfo>;
}): ServerProbe {
    const executables = new Set(opts.executables ?? []);
    return {
        which(name, accept = () => true) {
            for (const dir of opts.path ?? []) {
                if (executables.has(`${dir}/${name}`) && accept(`${dir}/${name}`)) {
                    return `${dir}/${name}`;
                }
            }
            return undefined;
        },
        isExecutable: (p) => executables.has(p),
        canImport: (python, module) => (opts.importable?.[python] ?? []).includes(module),
        inspectPython: (python) => opts.pythons?.[python],
    };
}

const HOME = '/home/u';

describe('resolveServerCommand', () => {
    it('runs `hiera-ls serve` from PATH when nothing is set', () => {
        const machine = fakeMachine({ executables: ['/usr/local/bin/hiera-ls'], path: ['/usr/bin', '/usr/local/bin'] });
        assert.deepEqual(resolveServerCommand('', machine, HOME), {
            ok: true,
            server: { command: '/usr/local/bin/hiera-ls', args: ['serve'], source: 'path' },
        });
    });

    it('falls back to `python3 -m hiera_ls serve` when python3 can import the package', () => {
        const machine = fakeMachine({
            executables: ['/usr/bin/python3'],
            path: ['/usr/bin'],
            importable: { '/usr/bin/python3': ['hiera_ls'] },
        });
        const r = resolveServerCommand(undefined, machine, HOME);
        assert.ok(r.ok);
        assert.deepEqual(r.server, { command: '/usr/bin/python3', args: ['-m', 'hiera_ls', 'serve'], source: 'python' });
    });

    it('does not start a python3 that cannot import the package, and says how to install it', () => {
        const machine = fakeMachine({ executables: ['/usr/bin/python3'], path: ['/usr/bin'] });
        const r = resolveServerCommand('', machine, HOME);
        assert.equal(r.ok, false);
        assert.ok(!r.ok);
        assert.match(r.reason, /not installed/);
        assert.deepEqual(r.tried, ['hiera-ls on PATH', 'python3 -m hiera_ls']);
        const message = notFoundMessage(r.reason, r.bundled);
        // hiera-ls is not on PyPI: the message must not send users to `pip install hiera-ls`.
        assert.doesNotMatch(message, /pip install hiera-ls/);
        assert.match(message, /not on PyPI yet/);
        assert.match(message, /https:\/\/github\.com\/hiera-ls\/hiera-ls/);
        assert.match(message, /linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64/);
        assert.match(message, /hiera\.server\.path/);
    });

    it('prefers the setting over PATH', () => {
        const machine = fakeMachine({
            executables: ['/usr/local/bin/hiera-ls', '/root/.venvs/hiera-ls/bin/hiera-ls'],
            path: ['/usr/local/bin'],
        });
        const r = resolveServerCommand('/root/.venvs/hiera-ls/bin/hiera-ls', machine, HOME);
        assert.ok(r.ok);
        assert.equal(r.server.command, '/root/.venvs/hiera-ls/bin/hiera-ls');
        assert.deepEqual(r.server.args, ['serve']);
        assert.equal(r.server.source, 'setting');
    });

    it('never falls back when the setting points at nothing: the user asked for that server', () => {
        const machine = fakeMachine({ executables: ['/usr/local/bin/hiera-ls'], path: ['/usr/local/bin'] });
        const r = resolveServerCommand('/opt/missing/hiera-ls', machine, HOME);
        assert.ok(!r.ok);
        assert.match(r.reason, /hiera\.server\.path is "\/opt\/missing\/hiera-ls"/);
    });

    it('runs a Python interpreter given in the setting with -m hiera_ls', () => {
        const venv = '/home/u/.venvs/h/bin/python3.11';
        const machine = fakeMachine({ executables: [venv], importable: { [venv]: ['hiera_ls'] } });
        const r = resolveServerCommand('~/.venvs/h/bin/python3.11', machine, HOME);
        assert.ok(r.ok);
        assert.deepEqual(r.server.args, ['-m', 'hiera_ls', 'serve']);
        assert.equal(r.server.command, venv);
    });

    it('reports an interpreter in the setting that lacks the package', () => {
        const machine = fakeMachine({ executables: ['/usr/bin/python3'] });
        const r = resolveServerCommand('/usr/bin/python3', machine, HOME);
        assert.ok(!r.ok);
        assert.match(r.reason, /cannot import hiera_ls/);
    });

    it('looks a bare name in the setting up on PATH', () => {
        const machine = fakeMachine({ executables: ['/opt/bin/my-hiera-ls'], path: ['/opt/bin'] });
        const r = resolveServerCommand('my-hiera-ls', machine, HOME);
        assert.ok(r.ok);
        assert.equal(r.server.command, '/opt/bin/my-hiera-ls');
    });

    it('expands ${workspaceFolder} in the setting', () => {
        const machine = fakeMachine({ executables: ['/ws/.venv/bin/hiera-ls'] });
        const r = resolveServerCommand('${workspaceFolder}/.venv/bin/hiera-ls', machine, HOME, '/ws');
        assert.ok(r.ok);
        assert.equal(r.server.command, '/ws/.venv/bin/hiera-ls');
    });
});

const LAUNCHER = '/ext/bundled/tool/launch.py';
const BUNDLE: Bundle = {
    launcher: LAUNCHER,
    target: 'linux-x64',
    version: '0.1.0',
    pythons: ['3.11', '3.12', '3.13', '3.14'],
    platform: 'linux',
    machines: ['x86_64', 'amd64'],
};

function cpython(...version: number[]): PythonInfo {
    return { version, implementation: 'cpython', platform: 'linux', machine: 'x86_64', freeThreaded: false };
}

const BUNDLED_ARGS = ['-I', LAUNCHER, 'serve'];

describe('the hiera-ls a platform build carries', () => {
    it('runs it with python3 from PATH when nothing else is installed', () => {
        const machine = fakeMachine({
            executables: ['/usr/bin/python3'],
            path: ['/usr/bin'],
            pythons: { '/usr/bin/python3': cpython(3, 11, 2) },
        });
        const r = resolveServerCommand('', machine, HOME, '/ws', { bundle: BUNDLE });
        assert.ok(r.ok);
        assert.deepEqual([r.server.command, r.server.args, r.server.source], ['/usr/bin/python3', BUNDLED_ARGS, 'bundled']);
        assert.match(r.server.detail ?? '', /hiera-ls 0\.1\.0 carried by the extension, run by Python 3\.11\.2 \(python3 on PATH\)/);
    });

    it('prefers the hiera-ls of the environment (fromEnvironment, the default), as ruff does', () => {
        const machine = fakeMachine({
            executables: ['/usr/bin/python3', '/home/u/.local/bin/hiera-ls'],
            path: ['/home/u/.local/bin', '/usr/bin'],
            pythons: { '/usr/bin/python3': cpython(3, 12, 1) },
        });
        const r = resolveServerCommand('', machine, HOME, '/ws', { bundle: BUNDLE });
        assert.ok(r.ok);
        assert.deepEqual([r.server.command, r.server.source], ['/home/u/.local/bin/hiera-ls', 'path']);
        const bundled = resolveServerCommand('', machine, HOME, '/ws', { bundle: BUNDLE, importStrategy: 'useBundled' });
        assert.ok(bundled.ok);
        assert.deepEqual([bundled.server.command, bundled.server.args], ['/usr/bin/python3', BUNDLED_ARGS]);
    });

    it("uses the Python extension's interpreter: its hiera_ls first, else it runs the carried one", () => {
        const venv = '/ws/.venv/bin/python';
        const withPackage = fakeMachine({
            executables: [venv, '/usr/bin/python3'],
            path: ['/usr/bin'],
            importable: { [venv]: ['hiera_ls'] },
            pythons: { [venv]: cpython(3, 13, 0), '/usr/bin/python3': cpython(3, 11, 2) },
        });
        const r = resolveServerCommand('', withPackage, HOME, '/ws', { bundle: BUNDLE, selectedInterpreter: venv });
        assert.ok(r.ok);
        assert.deepEqual([r.server.command, r.server.args, r.server.source], [venv, ['-m', 'hiera_ls', 'serve'], 'python']);
        const without = fakeMachine({
            executables: [venv, '/usr/bin/python3'],
            path: ['/usr/bin'],
            pythons: { [venv]: cpython(3, 13, 0), '/usr/bin/python3': cpython(3, 11, 2) },
        });
        const b = resolveServerCommand('', without, HOME, '/ws', { bundle: BUNDLE, selectedInterpreter: venv });
        assert.ok(b.ok);
        assert.deepEqual([b.server.command, b.server.source], [venv, 'bundled']);
        assert.match(b.server.detail ?? '', /the Python extension's interpreter/);
    });

    it('skips a Python the wheels do not fit and says why when none fits', () => {
        const old = '/opt/py310/bin/python';
        const machine = fakeMachine({
            executables: [old, '/usr/bin/python3'],
            path: ['/usr/bin'],
            pythons: { [old]: cpython(3, 10, 13), '/usr/bin/python3': cpython(3, 12, 1) },
        });
        const r = resolveServerCommand('', machine, HOME, '/ws', { bundle: BUNDLE, selectedInterpreter: old });
        assert.ok(r.ok);
        assert.equal(r.server.command, '/usr/bin/python3');

        const tooOld = fakeMachine({ executables: ['/usr/bin/python3'], path: ['/usr/bin'], pythons: { '/usr/bin/python3': cpython(3, 9, 2) } });
        const f = resolveServerCommand('', tooOld, HOME, '/ws', { bundle: BUNDLE });
        assert.ok(!f.ok);
        assert.equal(f.bundled, true);
        assert.equal(
            f.reason,
            'No Python here can run the hiera-ls this extension carries (it needs CPython 3.11–3.14 for linux-x64). /usr/bin/python3 (python3 on PATH): it is Python 3.9.2, too old.',
        );
        const message = notFoundMessage(f.reason, f.bundled);
        assert.match(message, /Install Python 3\.11 or newer/);
        assert.match(message, /hiera\.interpreter/);
        assert.match(message, /Hiera: Restart Server/);
    });

    it('tries every python3 on PATH, not only the first', () => {
        const machine = fakeMachine({
            executables: ['/usr/bin/python3', '/opt/py/bin/python3'],
            path: ['/usr/bin', '/opt/py/bin'],
            pythons: { '/usr/bin/python3': cpython(3, 9, 2), '/opt/py/bin/python3': cpython(3, 12, 4) },
        });
        const r = resolveServerCommand('', machine, HOME, '/ws', { bundle: BUNDLE });
        assert.ok(r.ok);
        assert.equal(r.server.command, '/opt/py/bin/python3');
    });

    it('says plainly when there is no Python at all', () => {
        const r = resolveServerCommand('', fakeMachine({}), HOME, '/ws', { bundle: BUNDLE });
        assert.ok(!r.ok);
        assert.match(r.reason, /No Python was found .* neither python3 nor python is on PATH\./);
    });

    it('never replaces the interpreter the user set with another', () => {
        const mine = '/opt/python3.10/bin/python3.10';
        const machine = fakeMachine({
            executables: [mine, '/usr/bin/python3'],
            path: ['/usr/bin'],
            pythons: { [mine]: cpython(3, 10, 0), '/usr/bin/python3': cpython(3, 12, 0) },
        });
        const r = resolveServerCommand('', machine, HOME, '/ws', { bundle: BUNDLE, interpreter: mine, importStrategy: 'useBundled' });
        assert.ok(!r.ok);
        assert.match(r.reason, /hiera\.interpreter names \/opt\/python3\.10\/bin\/python3\.10, .*: it is Python 3\.10\.0, too old\./);
    });

    it('the universal build, which carries nothing, still runs the installed hiera-ls under useBundled', () => {
        const machine = fakeMachine({ executables: ['/usr/bin/hiera-ls'], path: ['/usr/bin'] });
        const r = resolveServerCommand('', machine, HOME, '/ws', { importStrategy: 'useBundled' });
        assert.ok(r.ok);
        assert.equal(r.server.source, 'path');
    });
});

describe('Restricted Mode (a workspace that is not trusted)', () => {
    const venv = '/ws/.venv/bin/python';
    const machine = fakeMachine({
        executables: [venv, '/usr/bin/python3', '/usr/bin/hiera-ls', '/ws/.venv/bin/hiera-ls', '/opt/hiera-ls/bin/hiera-ls'],
        path: ['/usr/bin'],
        importable: { [venv]: ['hiera_ls'] },
        pythons: { [venv]: cpython(3, 12, 0), '/usr/bin/python3': cpython(3, 11, 2) },
    });
    const untrusted = { bundle: BUNDLE, trusted: false, workspaceFolders: ['/ws'] };

    it("runs the carried hiera-ls, never the Python extension's interpreter nor the environment's", () => {
        const r = resolveServerCommand('', machine, HOME, '/ws', { ...untrusted, selectedInterpreter: venv });
        assert.ok(r.ok);
        assert.deepEqual([r.server.command, r.server.args, r.server.source], ['/usr/bin/python3', BUNDLED_ARGS, 'bundled']);
    });

    it('ignores a path setting that points into the workspace, and says so', () => {
        const r = resolveServerCommand('${workspaceFolder}/.venv/bin/hiera-ls', machine, HOME, '/ws', untrusted);
        assert.ok(r.ok);
        assert.equal(r.server.source, 'bundled');
        assert.match(r.notes?.[0] ?? '', /Restricted Mode: hiera\.server\.path \(\/ws\/\.venv\/bin\/hiera-ls\) is inside the workspace/);
        const i = resolveServerCommand('', machine, HOME, '/ws', { ...untrusted, interpreter: venv });
        assert.ok(i.ok);
        assert.equal(i.server.command, '/usr/bin/python3');
        assert.match(i.notes?.[0] ?? '', /hiera\.interpreter/);
    });

    it("keeps the user's own server outside the workspace", () => {
        const r = resolveServerCommand('/opt/hiera-ls/bin/hiera-ls', machine, HOME, '/ws', untrusted);
        assert.ok(r.ok);
        assert.deepEqual([r.server.command, r.server.source], ['/opt/hiera-ls/bin/hiera-ls', 'setting']);
    });

    it('skips programs on PATH that live in the workspace', () => {
        const onPath = fakeMachine({
            executables: ['/ws/.venv/bin/python3', '/ws/.venv/bin/hiera-ls', '/usr/bin/python3'],
            path: ['/ws/.venv/bin', '/usr/bin'],
            pythons: { '/ws/.venv/bin/python3': cpython(3, 12, 0), '/usr/bin/python3': cpython(3, 11, 2) },
        });
        const r = resolveServerCommand('', onPath, HOME, '/ws', { trusted: false, workspaceFolders: ['/ws'] });
        assert.ok(!r.ok, 'the universal build finds no hiera-ls outside the workspace');
        const b = resolveServerCommand('', onPath, HOME, '/ws', untrusted);
        assert.ok(b.ok);
        assert.deepEqual([b.server.command, b.server.source], ['/usr/bin/python3', 'bundled']);
    });

    it('the universal build runs the hiera-ls installed for the user', () => {
        const r = resolveServerCommand('', machine, HOME, '/ws', { trusted: false, workspaceFolders: ['/ws'], selectedInterpreter: venv });
        assert.ok(r.ok);
        assert.deepEqual([r.server.command, r.server.source], ['/usr/bin/hiera-ls', 'path']);
    });
});

describe('helpers', () => {
    it('recognizes interpreters by name only', () => {
        for (const p of ['python', 'python3', '/usr/bin/python3.12', 'C:\\Py\\python.exe']) {
            assert.ok(isPythonInterpreter(p), p);
        }
        for (const p of ['hiera-ls', '/usr/bin/python3-config', 'pythonista']) {
            assert.ok(!isPythonInterpreter(p), p);
        }
    });

    it('expands ~ and variables but leaves other text alone', () => {
        assert.equal(expandPath('~', HOME, undefined), HOME);
        assert.equal(expandPath('~/x', HOME, undefined), '/home/u/x');
        assert.equal(expandPath('a~/x', HOME, undefined), 'a~/x');
        assert.equal(expandPath('${userHome}/y', HOME, undefined), '/home/u/y');
        assert.equal(expandPath('${workspaceFolder}/f', HOME, undefined), '${workspaceFolder}/f');
        assert.equal(expandPath('  /x  ', HOME, undefined), '/x');
    });

    it('tells a path inside a workspace folder from one beside it', () => {
        assert.ok(isInside('/ws/a/.venv/bin/python', ['/ws/a']));
        assert.ok(isInside('/ws/a', ['/ws/a/']));
        assert.ok(!isInside('/ws/ab/bin/python', ['/ws/a']));
        assert.ok(isInside('C:\\ws\\a\\x.exe', ['C:\\ws\\a']));
    });

    it('shows a command line as it could be typed', () => {
        assert.equal(
            describeCommand({ command: '/a b/python3', args: ['-m', 'hiera_ls', 'serve'], source: 'setting' }),
            '"/a b/python3" -m hiera_ls serve',
        );
    });
});
