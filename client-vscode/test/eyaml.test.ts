import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decryptedTitle, parseDecryptResult, parseEditText, parseReencrypt } from '../src/eyaml';

describe('eyaml answers', () => {
    it('reads a decryption, or says there is none', () => {
        const r = parseDecryptResult({ key: 'db/password', level: 'Secrets', text: 's3cret', error: null });
        assert.deepEqual(r, { key: 'db/password', level: 'Secrets', text: 's3cret', error: null });
        assert.equal(decryptedTitle(r!), 'Decrypted db_password');
        assert.equal(parseDecryptResult(null), null);
        assert.deepEqual(parseDecryptResult({ key: 'k', text: 5, error: 'no key' }), {
            key: 'k',
            level: '',
            text: null,
            error: 'no key',
        });
    });

    it('reads the marked text and the edits back, defensively', () => {
        assert.deepEqual(parseEditText({ text: 'a: DEC(1)::PKCS7[x]!\n', level: 'S', error: null }), {
            text: 'a: DEC(1)::PKCS7[x]!\n',
            level: 'S',
            error: null,
        });
        assert.equal(parseEditText(undefined).text, null);
        assert.deepEqual(parseReencrypt({ edits: [], error: null }), { edits: [], error: null });
        assert.deepEqual(parseReencrypt({ edits: null, error: 'no private key' }), { edits: null, error: 'no private key' });
    });
});
