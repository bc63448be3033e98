import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KEY_VIEW_ID, followsDocument, keyViewRows, parseKeyView, pathMarks } from '../src/keyView';

// As the server answers hiera/keyView (tests/e2e/test_key_view_e2e.py checks the server side).
const raw = {
    key: 'profile::ssh::port',
    environment: 'production',
    profile: 'web01.example.com',
    profiles: [
        { name: 'db01.example.com', active: false, found: true, value: '22', encrypted: false, error: null },
        { name: 'web01.example.com', active: true, found: true, value: '2222', encrypted: false, error: null },
        { name: 'bare1', active: false, found: false, value: null, encrypted: false, error: "Undefined variable '::role'" },
        { name: 'none1', active: false, found: false, value: null, encrypted: false, error: null },
    ],
    hierarchy: [
        {
            name: 'Per-node data',
            layer: 'environment',
            module: null,
            default_hierarchy: false,
            paths: [{ path: '/r/data/nodes/web01.yaml', shown: 'data/nodes/web01.yaml', exists: true, holds_key: true, value: '2222', encrypted: false, line: 1, error: null }],
            skipped: null,
        },
        {
            name: 'Per-OS data',
            layer: 'environment',
            module: null,
            default_hierarchy: false,
            paths: [
                { path: '/r/data/os/Debian/12.yaml', shown: 'data/os/Debian/12.yaml', exists: false, holds_key: false, value: null, encrypted: false, line: null, error: null },
                { path: '/r/data/os/Debian.yaml', shown: 'data/os/Debian.yaml', exists: true, holds_key: false, value: null, encrypted: false, line: null, error: null },
            ],
            skipped: null,
        },
        { name: 'Vault', layer: 'environment', module: null, default_hierarchy: false, paths: [], skipped: "hiera-ls does not run the lookup_key function 'vault'" },
        { name: 'OS family', layer: 'module', module: 'ntp', default_hierarchy: false, paths: [], skipped: null },
    ],
    notes: ['Not decrypted: no key'],
};

describe('key side view', () => {
    it('reads the answer, and nothing from what is not one', () => {
        const view = parseKeyView(raw);
        assert.ok(view !== null);
        assert.equal(view.hierarchy[0].paths[0].holdsKey, true);
        assert.equal(parseKeyView(null), null);
        assert.equal(parseKeyView({ key: '' }), null);
        assert.deepEqual(parseKeyView({ key: 'k', profiles: 'x', hierarchy: [{ nope: 1 }] })?.profiles, []);
    });

    it('lists every profile with its value, the active one and failing ones marked', () => {
        const view = parseKeyView(raw);
        assert.ok(view !== null);
        const [profiles] = keyViewRows(view);
        assert.equal(profiles.label, 'Profiles (4)');
        assert.deepEqual(
            profiles.children.map((r) => [r.label, r.description, r.icon]),
            [
                ['db01.example.com', '22', 'symbol-variable'],
                ['web01.example.com', '2222 (active)', 'star-full'],
                ['bare1', "fails: Undefined variable '::role'", 'error'],
                ['none1', 'not found', 'circle-slash'],
            ],
        );
    });

    it('names the merge the code asks for, and each other merge code reads the key with', () => {
        const view = parseKeyView({
            ...raw,
            merge: "merge deep, asked by lookup(…, 'deep') at site/profile/manifests/base.pp:2",
            other_merges: [
                {
                    merge: 'merge from lookup_options (else first found), read by lookup() at site/profile/manifests/base.pp:3',
                    profiles: [{ name: 'web01.example.com', active: true, found: true, value: '{"a"=>1}', encrypted: false, error: null }],
                },
                { nope: 1 },
            ],
        });
        assert.ok(view !== null);
        const [profiles, other, hierarchy] = keyViewRows(view);
        assert.equal(profiles.description, "merge deep, asked by lookup(…, 'deep') at site/profile/manifests/base.pp:2");
        assert.equal(other.label, 'Profiles, other merge (1)');
        assert.match(other.description, /^merge from lookup_options/);
        assert.deepEqual(
            other.children.map((r) => [r.id, r.label, r.description]),
            [['merge:0:web01.example.com', 'web01.example.com', '{"a"=>1}']],
        );
        assert.equal(hierarchy.label, 'Hierarchy (web01.example.com)');
        assert.equal(parseKeyView(raw)?.merge, null);
        assert.deepEqual(parseKeyView(raw)?.otherMerges, []);
    });

    it("shows the active profile's levels: path, exists, holds the key", () => {
        const view = parseKeyView(raw);
        assert.ok(view !== null);
        const [, hierarchy, notes] = keyViewRows(view);
        assert.equal(hierarchy.label, 'Hierarchy (web01.example.com)');
        const [node, os, vault, ntp] = hierarchy.children;
        assert.equal(node.description, 'data/nodes/web01.yaml ✓ ● = 2222');
        assert.deepEqual(node.open, { path: '/r/data/nodes/web01.yaml', line: 1 });
        assert.equal(os.description, '2 files');
        assert.deepEqual(
            os.children.map((r) => [r.label, r.description]),
            [
                ['data/os/Debian/12.yaml', '✗'],
                ['data/os/Debian.yaml', '✓ ○'],
            ],
        );
        assert.equal(os.children[0].open, null); // nothing to open
        assert.match(vault.description, /^skipped: /);
        assert.equal(ntp.label, 'OS family (module ntp)');
        assert.equal(ntp.description, 'no file for this node');
        assert.deepEqual(notes.children.map((r) => r.label), ['Not decrypted: no key']);
    });

    it("lists PuppetDB's nodes by answer, with counts and a few names, or that they are being grouped", () => {
        const fleet = {
            source: 'https://puppetdb.example.com:8081',
            nodes: 2000,
            grouped: true,
            groups: [
                { nodes: 1370, examples: ['a.example.com', 'b.example.com', 'c.example.com'], active: false, found: true, value: '22', encrypted: false, error: null },
                { nodes: 629, examples: ['d.example.com', 'e.example.com', 'f.example.com'], active: true, found: true, value: '2222', encrypted: false, error: null },
                { nodes: 1, examples: ['g.example.com'], active: false, found: false, value: null, encrypted: false, error: "Undefined variable '::role'" },
            ],
        };
        const view = parseKeyView({ ...raw, fleet });
        assert.ok(view !== null);
        const [, nodes, hierarchy] = keyViewRows(view);
        assert.equal(nodes.label, 'PuppetDB nodes (2000)');
        assert.equal(nodes.description, 'https://puppetdb.example.com:8081');
        assert.deepEqual(
            nodes.children.map((r) => [r.label, r.description, r.icon]),
            [
                ['1370 nodes', '22', 'symbol-variable'],
                ['629 nodes (active)', '2222', 'star-full'],
                ['1 node', "fails: Undefined variable '::role'", 'error'],
            ],
        );
        assert.match(nodes.children[0].tooltip, /^a\.example\.com, b\.example\.com, c\.example\.com and 1367 more\n/);
        assert.equal(hierarchy.label, 'Hierarchy (web01.example.com)');
        const pending = parseKeyView({ ...raw, fleet: { ...fleet, grouped: false, groups: [] } });
        assert.ok(pending !== null);
        assert.equal(keyViewRows(pending)[1].description, 'being grouped…');
        assert.equal(parseKeyView(raw)?.fleet, null);
        const varied = parseKeyView({ ...raw, fleet: { ...fleet, groups: [], note: 'not looked up here' } });
        assert.ok(varied !== null);
        assert.equal(keyViewRows(varied)[1].description, 'not looked up here');
    });

    it('says when no facts profile is active', () => {
        const view = parseKeyView({ ...raw, profile: null, profiles: [] });
        assert.ok(view !== null);
        const [profiles, hierarchy] = keyViewRows(view);
        assert.equal(profiles.label, 'Profiles (none found)');
        assert.equal(hierarchy.label, 'Hierarchy (no facts profile)');
    });

    it('marks files', () => {
        const p = { path: '', shown: '', exists: true, holdsKey: true, value: null, encrypted: false, line: null, error: null };
        assert.equal(pathMarks(p), '✓ ●');
        assert.equal(pathMarks({ ...p, exists: false, holdsKey: false }), '✗');
    });

    it('follows YAML and JSON files on disk only', () => {
        assert.ok(followsDocument('yaml', 'file'));
        assert.ok(followsDocument('json', 'file'));
        assert.ok(!followsDocument('yaml', 'untitled'));
        assert.ok(!followsDocument('markdown', 'file'));
    });

    it('is contributed to the Explorer under its id', () => {
        const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
        const views: { id: string; name: string }[] = manifest.contributes.views.explorer;
        assert.deepEqual(
            views.map((v) => [v.id, v.name]),
            [[KEY_VIEW_ID, 'Hiera: Key']],
        );
    });
});
