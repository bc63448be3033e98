import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
    type ServerProbe,
    describeCommand,
    expandPath,
    isPythonInterpreter,
    notFoundMessage,
    resolveServerCommand,
} from '../src/serverCommand';

/** A machine described by its executables, PATH directories and importable modules. */
function fakeMachine(opts: { executables?: string[]; path?: string[]; importable?: Record<string, string[]> }): ServerProbe {
    const executables = new Set(opts.executables ?? []);
    return {
        which(name) {
            for (const dir of opts.path ?? []) {
                if (executables.has(`${dir}/${name}`)) {
                    return `${dir}/${name}`;
                }
            }
            return undefined;
        },
        isExecutable: (p) => executables.has(p),
        canImport: (python, module) => (opts.importable?.[python] ?? []).includes(module),
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
        assert.match(notFoundMessage(r.reason), /pip install hiera-ls/);
        assert.match(notFoundMessage(r.reason), /hiera\.server\.path/);
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

    it('shows a command line as it could be typed', () => {
        assert.equal(
            describeCommand({ command: '/a b/python3', args: ['-m', 'hiera_ls', 'serve'], source: 'setting' }),
            '"/a b/python3" -m hiera_ls serve',
        );
    });
});
