/**
 * What decides the server command, read from VS Code: the settings, the workspace's trust,
 * the Python extension's interpreter and the carried hiera-ls; the rules themselves are in
 * ./serverCommand.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { BUNDLE_DIR, BUNDLE_LAUNCHER, BUNDLE_MANIFEST, type Bundle, parseBundleManifest } from './bundle';
import { nodeProbe } from './probe';
import { PYTHON_EXTENSION_ID, onInterpreterChanged, selectedInterpreter } from './pythonApi';
import { IMPORT_STRATEGIES, type ImportStrategy, PYTHON_NAMES, type Resolution, resolveServerCommand } from './serverCommand';
import { SECTION } from './settings';

/** The hiera-ls this build of the extension carries, or undefined (the universal build). */
export function carriedBundle(extensionPath: string): Bundle | undefined {
    const dir = path.join(extensionPath, BUNDLE_DIR);
    try {
        const raw: unknown = JSON.parse(fs.readFileSync(path.join(dir, BUNDLE_MANIFEST), 'utf8'));
        return parseBundleManifest(raw, path.join(dir, ...BUNDLE_LAUNCHER));
    } catch {
        return undefined;
    }
}

async function pythonExtensionApi(): Promise<unknown> {
    const extension = vscode.extensions.getExtension(PYTHON_EXTENSION_ID);
    if (extension === undefined) {
        return undefined;
    }
    try {
        return extension.isActive ? extension.exports : await extension.activate();
    } catch {
        return undefined;
    }
}

export interface Launch {
    readonly resolution: Resolution;
    /** Whether the Python extension's interpreter was asked (its change then restarts the server). */
    readonly askedPythonExtension: boolean;
}

/** Resolves the server command for the first workspace folder, as the settings and trust say now. */
export async function resolveLaunch(extensionPath: string): Promise<Launch> {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const folder = folders[0];
    const config = vscode.workspace.getConfiguration(SECTION);
    const trusted = vscode.workspace.isTrusted;
    const interpreter = config.get<string>('interpreter') ?? '';
    const strategy = config.get<string>('importStrategy');
    const serverPath = config.get<string>('server.path');
    // The Python extension is asked only when its answer can matter, and never in Restricted
    // Mode: its interpreter may be a program of the workspace (a committed `.venv`).
    const askPython = trusted && (serverPath ?? '').trim() === '' && interpreter.trim() === '';
    const selected = askPython
        ? await selectedInterpreter(await pythonExtensionApi(), vscode.workspace.workspaceFolders?.[0]?.uri)
        : undefined;
    const resolution = resolveServerCommand(
        serverPath,
        nodeProbe({ cwd: extensionPath, isolated: !trusted }),
        os.homedir(),
        folder,
        {
            interpreter,
            selectedInterpreter: selected,
            importStrategy: (IMPORT_STRATEGIES as readonly string[]).includes(strategy ?? '') ? (strategy as ImportStrategy) : undefined,
            bundle: carriedBundle(extensionPath),
            trusted,
            workspaceFolders: folders,
            pythonNames: process.platform === 'win32' ? ['python', 'python3'] : PYTHON_NAMES,
        },
    );
    return { resolution, askedPythonExtension: askPython };
}

/** Calls `listener` when the Python extension's interpreter changes (once it is installed and active). */
export async function watchPythonInterpreter(listener: () => void): Promise<vscode.Disposable | undefined> {
    const api = await pythonExtensionApi();
    const subscription = api === undefined ? undefined : onInterpreterChanged(api, listener);
    return subscription === undefined ? undefined : new vscode.Disposable(() => subscription.dispose());
}
