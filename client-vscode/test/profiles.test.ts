import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
    NO_PROFILE_LABEL,
    activeProfileName,
    displayPath,
    parseProfiles,
    profilePickItems,
    statusBarView,
} from '../src/profiles';

const ROOT = '/ws/control-repo';
const served = [
    { name: 'db01.example.com', path: `${ROOT}/.hiera-ls/facts/db01.json`, active: false },
    { name: 'web01.example.com', path: `${ROOT}/.hiera-ls/facts/web01.example.com.yaml`, active: true },
    { name: 'broken', path: '/elsewhere/broken.yaml', active: false, error: 'not a hash of facts' },
];

describe('facts profile picker', () => {
    it('lists the profiles in the server order, marks the active one, and offers none', () => {
        const items = profilePickItems(parseProfiles(served), [ROOT]);
        assert.deepEqual(
            items.map((i) => [i.label, i.description, i.profile, i.active]),
            [
                ['db01.example.com', '.hiera-ls/facts/db01.json', 'db01.example.com', false],
                ['$(check) web01.example.com', '.hiera-ls/facts/web01.example.com.yaml', 'web01.example.com', true],
                ['broken', '/elsewhere/broken.yaml', 'broken', false],
                [NO_PROFILE_LABEL, 'hovers list every definition instead of one merged value', null, false],
            ],
        );
        assert.equal(items[2].detail, '$(warning) not a hash of facts');
    });

    it('marks "no facts profile" when none is active', () => {
        const items = profilePickItems(parseProfiles([{ name: 'a', path: '/a.yaml', active: false }]), []);
        assert.equal(items[1].label, `$(check) ${NO_PROFILE_LABEL}`);
        assert.equal(items[1].active, true);
    });

    it('reads the server answer defensively', () => {
        assert.deepEqual(parseProfiles(null), []);
        assert.deepEqual(parseProfiles([null, 3, { name: '' }, { name: 'x' }]), [{ name: 'x', path: '', active: false }]);
    });

    it('shows paths relative to the innermost workspace folder', () => {
        assert.equal(displayPath('/ws/a/b/c.yaml', ['/ws', '/ws/a/']), 'b/c.yaml');
        assert.equal(displayPath('/other/c.yaml', ['/ws']), '/other/c.yaml');
        assert.equal(displayPath('/wsx/c.yaml', ['/ws']), '/wsx/c.yaml');
        assert.equal(displayPath('C:\\ws\\f.yaml', ['C:\\ws']), 'f.yaml');
    });
});

describe('status bar', () => {
    it('shows the active profile and opens the picker on click', () => {
        const v = statusBarView('running', 'web01.example.com');
        assert.equal(v.text, '$(server-environment) Hiera: web01.example.com');
        assert.equal(v.command, 'hiera.chooseFactsProfile');
        assert.match(v.tooltip, /web01\.example\.com/);
    });

    it('says so when no profile is active', () => {
        const v = statusBarView('running', null);
        assert.equal(v.text, '$(server-environment) Hiera: no facts profile');
        assert.equal(v.command, 'hiera.chooseFactsProfile');
    });

    it('offers a restart when the server is not running', () => {
        assert.equal(statusBarView('failed', null).command, 'hiera.restartServer');
        assert.equal(statusBarView('stopped', 'x').command, 'hiera.restartServer');
        assert.equal(statusBarView('starting', null).text, '$(sync~spin) Hiera');
    });

    it('reads the activeFactsProfile notification', () => {
        assert.equal(activeProfileName({ name: 'web01' }), 'web01');
        assert.equal(activeProfileName({ name: null }), null);
        assert.equal(activeProfileName({ name: '' }), null);
        assert.equal(activeProfileName(undefined), null);
    });
});
