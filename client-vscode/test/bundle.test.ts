import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bundleRejects, parseBundleManifest, pythonVersionRange } from '../src/bundle';
import type { PythonInfo } from '../src/serverCommand';

/** What scripts/bundle.py writes to bundled/manifest.json. */
const MANIFEST = {
    target: 'win32-x64',
    version: '0.1.0',
    pythons: ['3.13', '3.11', '3.14', '3.12'],
    platform: 'win32',
    machines: ['amd64', 'x86_64'],
    packages: { regex: '2026.11.19' },
};

const python = (over: Partial<PythonInfo>): PythonInfo => ({
    version: [3, 12, 1],
    implementation: 'cpython',
    platform: 'win32',
    machine: 'AMD64',
    freeThreaded: false,
    ...over,
});

describe('bundled/manifest.json', () => {
    const bundle = parseBundleManifest(MANIFEST, 'C:\\ext\\bundled\\tool\\launch.py');

    it('reads the target, the version and the Pythons, oldest first', () => {
        assert.ok(bundle !== undefined);
        assert.deepEqual(bundle.pythons, ['3.11', '3.12', '3.13', '3.14']);
        assert.equal(pythonVersionRange(bundle), 'CPython 3.11–3.14 for win32-x64');
    });

    it('is no bundle when a field is missing or of another type', () => {
        assert.equal(parseBundleManifest(null, 'x'), undefined);
        assert.equal(parseBundleManifest({ ...MANIFEST, pythons: [] }, 'x'), undefined);
        assert.equal(parseBundleManifest({ ...MANIFEST, machines: 'amd64' }, 'x'), undefined);
        assert.equal(parseBundleManifest({ ...MANIFEST, version: 1 }, 'x'), undefined);
    });

    it('accepts a CPython of a version and platform the wheels are for', () => {
        assert.ok(bundle !== undefined);
        assert.equal(bundleRejects(bundle, python({})), undefined);
        assert.equal(bundleRejects(bundle, python({ version: [3, 14, 0] })), undefined);
    });

    it('says why another Python cannot run it', () => {
        assert.ok(bundle !== undefined);
        assert.equal(bundleRejects(bundle, python({ version: [3, 10, 11] })), 'it is Python 3.10.11, too old');
        assert.equal(bundleRejects(bundle, python({ version: [2, 7, 18] })), 'it is Python 2.7.18, too old');
        assert.equal(bundleRejects(bundle, python({ version: [3, 15, 0] })), 'it is Python 3.15.0, newer than the wheels carried');
        assert.equal(bundleRejects(bundle, python({ implementation: 'pypy' })), 'it is pypy 3.12.1, not CPython');
        assert.match(bundleRejects(bundle, python({ freeThreaded: true })) ?? '', /free-threaded/);
        assert.equal(bundleRejects(bundle, python({ machine: 'ARM64' })), 'it runs on win32 ARM64, not win32-x64');
        assert.equal(bundleRejects(bundle, python({ platform: 'linux', machine: 'x86_64' })), 'it runs on linux x86_64, not win32-x64');
    });
});
