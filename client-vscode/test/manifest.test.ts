/**
 * The manifest against the code: every setting the server reads is contributed with a
 * description, and every command the code registers is in the palette with a title.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PICK_PROFILE_COMMAND, RESTART_COMMAND, SHOW_OUTPUT_COMMAND } from '../src/profiles';
import { SERVER_COMMANDS } from '../src/protocol';
import { LAUNCH_SETTINGS, MODULE_DIRS, NESTED_SETTING_KEYS, SERVER_SETTING_KEYS, SETTING_GROUPS } from '../src/settings';
import { EYAML_CLIENT_COMMANDS } from '../src/eyaml';
import { BUNDLED_TARGETS, IMPORT_STRATEGIES } from '../src/serverCommand';

// Compiled to out/test/, run from the package root by `npm test`.
const root = process.cwd();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('package.json', () => {
    const props: Record<
        string,
        { markdownDescription?: string; description?: string; enum?: string[]; default?: unknown }
    > = manifest.contributes.configuration.properties;

    it('contributes every server setting, the server path and the trace setting, each described', () => {
        const expected = [
            ...SERVER_SETTING_KEYS.filter((k) => !SETTING_GROUPS.includes(k)).map((k) => `hiera.${k}`),
            ...NESTED_SETTING_KEYS.map((k) => `hiera.${k}`),
            ...LAUNCH_SETTINGS,
            'hiera.trace.server',
        ];
        assert.deepEqual(Object.keys(props).sort(), [...expected].sort());
        for (const [key, prop] of Object.entries(props)) {
            assert.ok((prop.markdownDescription ?? prop.description ?? '').length > 40, `${key} needs a description`);
        }
    });

    it('offers the values of hiera.moduleDirs the client passes on, defaulting as the server does', () => {
        assert.deepEqual(props['hiera.moduleDirs'].enum, [...MODULE_DIRS]);
        assert.equal(props['hiera.moduleDirs'].default, 'conventional');
    });

    it('contributes the commands the extension registers', () => {
        const commands: { command: string; title: string; category: string }[] = manifest.contributes.commands;
        const ids = commands.map((c) => c.command).sort();
        assert.deepEqual(
            ids,
            [PICK_PROFILE_COMMAND, 'hiera.explainLookup', RESTART_COMMAND, SHOW_OUTPUT_COMMAND, ...EYAML_CLIENT_COMMANDS].sort(),
        );
        const titles = commands.map((c) => `${c.category}: ${c.title}`);
        for (const t of ['Hiera: Select Facts Profile', 'Hiera: Explain Lookup', 'Hiera: Restart Server']) {
            assert.ok(titles.includes(t), t);
        }
    });

    it('never reuses a command id the server announces (the client registers those itself)', () => {
        for (const c of manifest.contributes.commands) {
            assert.ok(!SERVER_COMMANDS.includes(c.command), c.command);
        }
    });

    it('opens eyaml files as YAML, so hiera-ls serves them like the other data files', () => {
        const languages: { id: string; extensions?: string[] }[] = manifest.contributes.languages;
        assert.ok(languages.some((l) => l.id === 'yaml' && (l.extensions ?? []).includes('.eyaml')));
    });

    it('activates on hiera.yaml and gives the YAML extension the hiera.yaml and .hiera-ls.yaml schemas', () => {
        assert.deepEqual(manifest.activationEvents, ['workspaceContains:**/hiera.yaml']);
        assert.deepEqual(manifest.contributes.yamlValidation, [
            { fileMatch: 'hiera.yaml', url: './schemas/hiera.v5.schema.json' },
            { fileMatch: '.hiera-ls.yaml', url: './schemas/hiera-ls.schema.json' },
        ]);
    });

    it('works in Restricted Mode, where no setting that chooses a program is taken from the workspace', () => {
        const untrusted = manifest.capabilities.untrustedWorkspaces;
        assert.equal(untrusted.supported, 'limited');
        assert.equal(untrusted.restrictedConfigurations[0], 'hiera.server.path');
        assert.deepEqual([...untrusted.restrictedConfigurations].sort(), [...LAUNCH_SETTINGS].sort());
        // machine scope: a user or remote-machine setting, never a workspace's, trusted or not
        for (const key of LAUNCH_SETTINGS) {
            assert.equal((props[key] as { scope?: string }).scope, 'machine', key);
        }
        assert.deepEqual(props['hiera.importStrategy'].enum, [...IMPORT_STRATEGIES]);
        assert.equal(props['hiera.importStrategy'].default, 'fromEnvironment');
    });

    it('never tells users to pip install hiera-ls, which is not on PyPI', () => {
        for (const file of ['package.json', 'README.md', 'CHANGELOG.md']) {
            assert.doesNotMatch(readFileSync(join(root, file), 'utf8'), /pip install hiera-ls/, file);
        }
    });

    it('is ready for the Marketplace and Open VSX: license, repository, icon, categories, keywords', () => {
        assert.equal(manifest.license, 'Apache-2.0');
        assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0/);
        assert.equal(manifest.repository.url, 'https://github.com/hiera-ls/hiera-ls.git');
        const icon = readFileSync(join(root, manifest.icon));
        assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG');
        assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128]);
        assert.ok(manifest.categories.length > 0 && manifest.keywords.length >= 5);
        assert.doesNotMatch(manifest.scripts.package, /--skip-license|--allow-missing-repository/);
    });

    it('packages every file the manifest points at', () => {
        const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8');
        const kept = ignore
            .split('\n')
            .filter((l) => l.startsWith('!'))
            .map((l) => new RegExp('^' + l.slice(1).replace(/\./g, '\\.').replace(/\*\*/g, '.+').replace(/(?<!\.)\*/g, '[^/]+') + '$'));
        const files = [
            manifest.main.replace(/^\.\//, ''),
            manifest.icon,
            'LICENSE',
            ...manifest.contributes.yamlValidation.map((v: { url: string }) => v.url.replace(/^\.\//, '')),
            'bundled/tool/launch.py',
            'bundled/libs/regex/_regex.cpython-312-x86_64-linux-gnu.so',
        ];
        for (const file of files) {
            assert.ok(kept.some((re) => re.test(file)), `.vscodeignore leaves ${file} out`);
        }
    });

    it("names in the server-not-found message exactly the platforms scripts/package.mjs builds", () => {
        const script = readFileSync(join(root, 'scripts', 'package.mjs'), 'utf8');
        const listed = /export const TARGETS = (\[[^\]]*\])/.exec(script);
        assert.ok(listed !== null);
        assert.deepEqual(JSON.parse(listed[1].replace(/'/g, '"')), [...BUNDLED_TARGETS]);
    });
});
