import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onInterpreterChanged, selectedInterpreter } from '../src/pythonApi';

const VENV = '/ws/.venv/bin/python';

describe("the Python extension's interpreter", () => {
    it('comes from the environments API: the active environment, resolved', async () => {
        const asked: unknown[] = [];
        const api = {
            environments: {
                getActiveEnvironmentPath: (resource: unknown) => {
                    asked.push(resource);
                    return { id: 'venv', path: VENV };
                },
                resolveEnvironment: async (env: { path: string }) => ({ executable: { uri: { fsPath: env.path } } }),
            },
        };
        assert.equal(await selectedInterpreter(api, 'folder-uri'), VENV);
        assert.deepEqual(asked, ['folder-uri']);
    });

    it("falls back to the older settings API's execution details, one word only", async () => {
        const settings = (execCommand: unknown) => ({ settings: { getExecutionDetails: () => ({ execCommand }) } });
        assert.equal(await selectedInterpreter(settings([VENV]), undefined), VENV);
        assert.equal(await selectedInterpreter(settings(['conda', 'run', '-n', 'x', 'python']), undefined), undefined);
        assert.equal(await selectedInterpreter(settings(undefined), undefined), undefined);
    });

    it('is undefined for an API it does not know, or one that fails', async () => {
        assert.equal(await selectedInterpreter(undefined, undefined), undefined);
        assert.equal(await selectedInterpreter({ environments: 7 }, undefined), undefined);
        const failing = {
            environments: {
                getActiveEnvironmentPath: () => ({ path: VENV }),
                resolveEnvironment: async () => {
                    throw new Error('no such environment');
                },
            },
        };
        assert.equal(await selectedInterpreter(failing, undefined), undefined);
        const unresolved = { environments: { getActiveEnvironmentPath: () => ({ path: VENV }), resolveEnvironment: async () => undefined } };
        assert.equal(await selectedInterpreter(unresolved, undefined), undefined);
    });

    it("subscribes to the API's change event", () => {
        let listener: (() => void) | undefined;
        let disposed = false;
        const api = {
            environments: {
                onDidChangeActiveEnvironmentPath: (l: () => void) => {
                    listener = l;
                    return { dispose: () => (disposed = true) };
                },
            },
        };
        let calls = 0;
        const subscription = onInterpreterChanged(api, () => (calls += 1));
        listener?.();
        assert.equal(calls, 1);
        subscription?.dispose();
        assert.ok(disposed);
        assert.equal(onInterpreterChanged({}, () => undefined), undefined);
    });
});
