import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configurationAnswer, initializationOptions, needsRestart, normalizeSettings } from '../src/settings';

const HOME = '/home/u';
const facts = { yamlExtensionPresent: false, clientName: 'Visual Studio Code', clientVersion: '1.99.0' };

describe('settings -> initializationOptions', () => {
    it('sends every server setting with its defaults', () => {
        assert.deepEqual(initializationOptions(normalizeSettings({}, HOME), facts), {
            factsProfile: null,
            factsPaths: [],
            hieraConfig: null,
            environmentPath: null,
            environment: null,
            target: null,
            strictVariables: null,
            moduleDirs: 'conventional',
            eyaml: { decryptInHover: false },
            inlayHints: { enabled: true },
            backends: {},
            maxFiles: 20000,
            puppetdb: {
                url: null,
                query: null,
                cert: null,
                key: null,
                cacert: null,
                token: null,
                timeout: null,
                allowedUrls: [],
            },
            yamlSyntaxDiagnostics: true,
            hieraConfigSchemaDiagnostics: true,
            client: { name: 'Visual Studio Code', version: '1.99.0' },
        });
    });

    it('passes what the user set, with ~ and ${workspaceFolder} expanded in paths', () => {
        const raw = {
            factsProfile: ' web01.example.com ',
            factsPaths: ['~/facts', '${workspaceFolder}/spec/factsets', 'relative/dir'],
            hieraConfig: '~/puppet/hiera.yaml',
            environmentPath: '${workspaceFolder}/..',
            environment: 'staging',
            target: 'puppet7',
            strictVariables: false,
            moduleDirs: 'modulepath',
            eyaml: { decryptInHover: true },
            inlayHints: { enabled: false },
            backends: { 'wmflib::expand_path': 'expand_path' },
            maxFiles: 50000,
            puppetdb: {
                url: 'https://puppetdb.example.com:8081',
                query: 'inventory[certname] { facts.os.family = "Debian" }',
                token: '~/.puppetlabs/token',
                timeout: 10,
                allowedUrls: ['https://puppetdb.example.com:8081', 7],
            },
            server: { path: '/x/hiera-ls' },
            trace: { server: 'verbose' },
        };
        const s = normalizeSettings(raw, HOME, '/ws/prod');
        assert.deepEqual(s, {
            factsProfile: 'web01.example.com',
            factsPaths: ['/home/u/facts', '/ws/prod/spec/factsets', 'relative/dir'],
            hieraConfig: '/home/u/puppet/hiera.yaml',
            environmentPath: '/ws/prod/..',
            environment: 'staging',
            target: 'puppet7',
            strictVariables: false,
            moduleDirs: 'modulepath',
            eyaml: { decryptInHover: true },
            inlayHints: { enabled: false },
            backends: { 'wmflib::expand_path': 'expand_path' },
            maxFiles: 50000,
            puppetdb: {
                url: 'https://puppetdb.example.com:8081',
                query: 'inventory[certname] { facts.os.family = "Debian" }',
                cert: null,
                key: null,
                cacert: null,
                token: '/home/u/.puppetlabs/token',
                timeout: 10,
                allowedUrls: ['https://puppetdb.example.com:8081'],
            },
        });
    });

    it('drops wrongly typed values instead of sending them', () => {
        const s = normalizeSettings(
            {
                factsProfile: 42,
                factsPaths: ['ok', 7, '', null],
                hieraConfig: {},
                strictVariables: 'no',
                target: 'puppet6',
                moduleDirs: 'site-modules',
            },
            HOME,
        );
        assert.equal(s.factsProfile, null);
        assert.deepEqual(s.factsPaths, ['ok']);
        assert.equal(s.hieraConfig, null);
        assert.equal(s.strictVariables, null);
        assert.equal(s.target, null);
        assert.equal(s.moduleDirs, 'conventional');
        assert.deepEqual(normalizeSettings({ inlayHints: { enabled: 'no' } }, HOME).inlayHints, { enabled: true });
        assert.deepEqual(normalizeSettings({ backends: { a: 'yaml_data', b: 7 } }, HOME).backends, { a: 'yaml_data' });
        assert.deepEqual(normalizeSettings({ backends: ['x'] }, HOME).backends, {});
        assert.equal(normalizeSettings({ maxFiles: 0 }, HOME).maxFiles, 20000);
        assert.equal(normalizeSettings({ maxFiles: 1.5 }, HOME).maxFiles, 20000);
        assert.equal(normalizeSettings({ maxFiles: '9' }, HOME).maxFiles, 20000);
        assert.deepEqual(normalizeSettings({ factsPaths: 'one/file.yaml' }, HOME).factsPaths, ['one/file.yaml']);
        assert.deepEqual(normalizeSettings(null, HOME).factsPaths, []);
    });

    it("leaves YAML syntax errors to Red Hat's YAML extension when it is installed", () => {
        const opts = initializationOptions(normalizeSettings({}, HOME), { ...facts, yamlExtensionPresent: true });
        assert.equal(opts.yamlSyntaxDiagnostics, false);
        assert.equal(opts.hieraConfigSchemaDiagnostics, false);
    });
});

describe('workspace/configuration answers', () => {
    it('normalizes the hiera section like the initialization options', () => {
        const answer = configurationAnswer('hiera', { factsPaths: ['~/f'], factsProfile: '' }, HOME, '/ws');
        assert.deepEqual(answer, normalizeSettings({ factsPaths: ['~/f'] }, HOME, '/ws'));
    });

    it('answers a single hiera.* item and passes other sections through', () => {
        assert.deepEqual(configurationAnswer('hiera.factsPaths', ['~/f'], HOME), ['/home/u/f']);
        assert.equal(configurationAnswer('hiera.moduleDirs', 'modulepath', HOME), 'modulepath');
        assert.deepEqual(configurationAnswer('editor', { tabSize: 2 }, HOME), { tabSize: 2 });
        assert.equal(configurationAnswer('hiera.server.path', '~/x', HOME), '~/x');
    });

    it('restarts the server only for a new server path', () => {
        assert.equal(needsRestart((s) => s === 'hiera.server.path'), true);
        assert.equal(needsRestart((s) => s === 'hiera.factsProfile'), false);
    });
});
