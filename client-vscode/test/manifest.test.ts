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
import { MODULE_DIRS, NESTED_SETTING_KEYS, SERVER_SETTING_KEYS, SETTING_GROUPS } from '../src/settings';
import { EYAML_CLIENT_COMMANDS } from '../src/eyaml';

// Compiled to out/test/, run from the package root by `npm test`.
const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));

describe('package.json', () => {
    const props: Record<
        string,
        { markdownDescription?: string; description?: string; enum?: string[]; default?: unknown }
    > = manifest.contributes.configuration.properties;

    it('contributes every server setting, the server path and the trace setting, each described', () => {
        const expected = [
            ...SERVER_SETTING_KEYS.filter((k) => !SETTING_GROUPS.includes(k)).map((k) => `hiera.${k}`),
            ...NESTED_SETTING_KEYS.map((k) => `hiera.${k}`),
            'hiera.server.path',
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
});
