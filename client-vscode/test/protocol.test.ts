/**
 * The client's names for the server's own requests, notifications and commands are the
 * server's: both sides read them from one module each, and this test keeps those equal.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as protocol from '../src/protocol';

// Compiled to out/test/, run from the package root by `npm test`.
const serverModule = readFileSync(join(process.cwd(), '..', 'server', 'hiera_ls', 'lsp', 'protocol.py'), 'utf8');

describe('protocol', () => {
    it('names every method and command as the server does', () => {
        const server = [...serverModule.matchAll(/^[A-Z_]+ = "(hiera[./][A-Za-z]+)"$/gm)].map((m) => m[1]).sort();
        const client = Object.values(protocol as Record<string, unknown>)
            .filter((v): v is string => typeof v === 'string')
            .sort();
        assert.ok(server.length >= 7, 'server names found');
        assert.deepEqual(client, server);
    });
});
