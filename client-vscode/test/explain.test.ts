import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explainText, explainTitle, parseExplainResult } from '../src/explain';

describe('explain tab', () => {
    const raw = {
        key: 'ntp::servers',
        profile: 'web01.example.com',
        environment: 'production',
        found: true,
        error: null,
        text: 'Searching for "ntp::servers"\n  Global Data Provider (hiera configuration version 5)\n',
    };

    it('titles the tab with the key and the profile', () => {
        const r = parseExplainResult(raw);
        assert.ok(r !== null);
        assert.equal(explainTitle(r), 'Explain ntp::servers (web01.example.com)');
        assert.equal(explainTitle({ ...r, profile: null }), 'Explain ntp::servers');
        assert.equal(explainTitle({ ...r, key: 'a/b' }), 'Explain a_b (web01.example.com)');
    });

    it('shows the trace, or why there is none', () => {
        const r = parseExplainResult(raw);
        assert.ok(r !== null);
        assert.equal(explainText(r), 'Searching for "ntp::servers"\n  Global Data Provider (hiera configuration version 5)\n');
        assert.equal(explainText({ ...r, text: '', error: 'no such environment' }), 'ntp::servers: no such environment\n');
        assert.equal(explainText({ ...r, text: '', found: false }), 'ntp::servers: not found\n');
    });

    it('treats anything without a key as "nothing under the cursor"', () => {
        assert.equal(parseExplainResult(null), null);
        assert.equal(parseExplainResult({ text: 'x' }), null);
        assert.equal(parseExplainResult('x'), null);
    });
});
