import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparisonTitle, parseComparison } from '../src/compare';

describe('key comparison tab', () => {
    const raw = {
        key: 'profile::base::domain',
        path: '/repo/data/common.yaml',
        profiles: [
            { name: 'web01', before: 'a', after: 'b', changed: true },
            { name: 'db01', before: 'a', after: 'a', changed: false },
        ],
        text: '# profile::base::domain\n',
    };

    it('counts the changed profiles and titles the tab with the key', () => {
        const r = parseComparison(raw);
        assert.ok(r !== null);
        assert.equal(r.changed, 1);
        assert.equal(r.total, 2);
        assert.equal(comparisonTitle(r), 'Changes of profile::base::domain.md');
        assert.equal(comparisonTitle({ ...r, key: 'a/b' }), 'Changes of a_b.md');
    });

    it('reads a missing or odd answer as nothing to compare', () => {
        assert.equal(parseComparison(null), null);
        assert.equal(parseComparison({ key: '' , text: '' }), null);
        assert.equal(parseComparison({ key: 'k' }), null);
    });
});
