/**
 * The VS Code side of hiera-ls: starts `hiera-ls serve` over stdio and adds what LSP has
 * no words for — a facts profile picker with a status bar entry, the explain trace in a
 * read-only tab, a restart command, and the hiera.yaml schema for Red Hat's YAML extension.
 *
 * Everything that can be decided without VS Code (which command to run, what to send as
 * initializationOptions, the picker's rows, the status bar text) lives in the small
 * modules next to this one and is unit-tested; this file only wires them to the editor.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
    CloseAction,
    type CloseHandlerResult,
    ErrorAction,
    type ErrorHandlerResult,
    ExecuteCommandRequest,
    LanguageClient,
    type LanguageClientOptions,
    RevealOutputChannelOn,
    type ServerOptions,
    State,
    type TextEdit,
    TransportKind,
} from 'vscode-languageclient/node';
import { comparisonTitle, parseComparison } from './compare';
import { EXPLAIN_SCHEME, explainText, explainTitle, parseExplainResult } from './explain';
import {
    EDIT_EYAML_COMMAND,
    ENCRYPT_KIND,
    ENCRYPT_VALUE_COMMAND,
    EYAML_SCHEME,
    WRITE_BACK_EYAML_COMMAND,
    decryptedTitle,
    parseDecryptResult,
    parseEditText,
    parseReencrypt,
} from './eyaml';
import { KeyViewTree } from './keyViewTree';
import { nodeProbe } from './probe';
import {
    ACTIVE_FACTS_PROFILE_NOTIFICATION,
    COMPARE_KEY_COMMAND,
    EXPLAIN_REQUEST,
    EYAML_DECRYPT_COMMAND,
    EYAML_EDIT_TEXT_REQUEST,
    EYAML_REENCRYPT_REQUEST,
    type ExplainParams,
    LIST_FACTS_PROFILES_REQUEST,
    SELECT_FACTS_PROFILE_COMMAND,
} from './protocol';
import {
    type ProfilePickItem,
    PICK_PROFILE_COMMAND,
    RESTART_COMMAND,
    SHOW_OUTPUT_COMMAND,
    type ServerState,
    activeProfileName,
    parseProfiles,
    profilePickItems,
    statusBarView,
} from './profiles';
import { describeCommand, notFoundMessage, resolveServerCommand } from './serverCommand';
import { SECTION, configurationAnswer, initializationOptions, needsRestart, normalizeSettings } from './settings';

/** The client's id: the language client reads `<id>.trace.server`, i.e. hiera.trace.server. */
const CLIENT_ID = 'hiera';
const CLIENT_NAME = 'Hiera Language Server';
const YAML_EXTENSION_ID = 'redhat.vscode-yaml';

// The palette commands have ids of their own: the language client registers every
// command the server announces (SERVER_COMMANDS in ./protocol) as a VS Code command, and
// a second registration of the same id would fail the client's start.
const EXPLAIN_LOOKUP_COMMAND = 'hiera.explainLookup';

/** A picked profile is remembered per workspace, so a restart keeps it. */
const REMEMBERED_PROFILE_KEY = 'hiera.selectedFactsProfile';

/** How many unexpected exits in CRASH_WINDOW_MS are restarted before giving up. */
const MAX_RESTARTS = 3;
const CRASH_WINDOW_MS = 3 * 60_000;

class HieraExtension implements vscode.Disposable {
    private client: LanguageClient | undefined;
    private state: ServerState = 'stopped';
    private activeProfile: string | null = null;
    private readonly statusBar: vscode.StatusBarItem;
    private readonly explanations = new Map<string, string>();
    private readonly eyamlEdits = new Map<string, vscode.Uri>(); // untitled editor -> eyaml file
    private explainCounter = 0;
    private yamlExtensionPresent: boolean;
    private starting: Promise<void> | undefined;
    /** Fired when the server starts or stops and when the active profile changes (the side view). */
    readonly serverChanged = new vscode.EventEmitter<void>();

    constructor(
        private readonly context: vscode.ExtensionContext,
        private readonly channel: vscode.LogOutputChannel,
    ) {
        this.statusBar = vscode.window.createStatusBarItem('hiera.factsProfile', vscode.StatusBarAlignment.Left, 10);
        this.statusBar.name = 'Hiera Facts Profile';
        this.yamlExtensionPresent = vscode.extensions.getExtension(YAML_EXTENSION_ID) !== undefined;
        this.render();
        this.statusBar.show();
    }

    // ------------------------------------------------------------------ lifecycle

    async start(): Promise<void> {
        if (this.starting === undefined) {
            this.starting = this.doStart().finally(() => {
                this.starting = undefined;
            });
        }
        return this.starting;
    }

    private async doStart(): Promise<void> {
        this.setState('starting');
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
        const config = vscode.workspace.getConfiguration(SECTION);
        const resolution = resolveServerCommand(config.get<string>('server.path'), nodeProbe(), os.homedir(), folder);
        if (!resolution.ok) {
            this.channel.error(`${resolution.reason} Tried: ${resolution.tried.join('; ')}.`);
            this.setState('failed');
            this.showCannotStart(resolution.reason);
            return;
        }
        const server = resolution.server;
        this.channel.info(`Starting the server (${server.source}): ${describeCommand(server)}`);
        const serverOptions: ServerOptions = {
            command: server.command,
            args: [...server.args],
            transport: TransportKind.stdio,
            options: { env: { ...process.env, PYTHONUNBUFFERED: '1' } },
        };
        const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, this.clientOptions(folder));
        this.client = client;
        client.onDidChangeState((e) => {
            if (this.client !== client) {
                return;
            }
            if (e.newState === State.Running) {
                this.setState('running');
                // Also after the client restarted a crashed server by itself.
                void this.restoreProfile(client);
            } else if (e.newState === State.Starting) {
                this.setState('starting');
            } else if (this.state !== 'failed') {
                this.setState('stopped');
            }
        });
        client.onNotification(ACTIVE_FACTS_PROFILE_NOTIFICATION, (params: unknown) => {
            this.activeProfile = activeProfileName(params);
            this.render();
            this.serverChanged.fire();
        });
        try {
            await client.start();
        } catch (error) {
            if (this.client === client) {
                this.setState('failed');
                this.showCannotStart(`The Hiera language server (${describeCommand(server)}) did not start: ${errorText(error)}.`);
            }
            return;
        }
    }

    private clientOptions(folder: string | undefined): LanguageClientOptions {
        const home = os.homedir();
        const settings = normalizeSettings(vscode.workspace.getConfiguration(SECTION), home, folder);
        const restarts: number[] = [];
        return {
            // YAML and JSON files on disk; the server decides which belong to a hierarchy.
            documentSelector: [
                { scheme: 'file', language: 'yaml' },
                { scheme: 'file', language: 'json' },
            ],
            initializationOptions: initializationOptions(settings, {
                yamlExtensionPresent: this.yamlExtensionPresent,
                clientName: vscode.env.appName,
                clientVersion: vscode.version,
            }),
            synchronize: { configurationSection: SECTION },
            outputChannel: this.channel,
            traceOutputChannel: this.channel,
            revealOutputChannelOn: RevealOutputChannelOn.Never,
            diagnosticCollectionName: 'hiera-ls',
            initializationFailedHandler: (error) => {
                this.channel.error(`The server failed to initialize: ${errorText(error)}`);
                return false;
            },
            errorHandler: {
                error: (): ErrorHandlerResult => ({ action: ErrorAction.Continue }),
                closed: (): CloseHandlerResult => {
                    const now = Date.now();
                    restarts.push(now);
                    while (restarts.length > 0 && now - restarts[0] > CRASH_WINDOW_MS) {
                        restarts.shift();
                    }
                    if (restarts.length <= MAX_RESTARTS) {
                        this.channel.warn('The server stopped unexpectedly; restarting it.');
                        return { action: CloseAction.Restart, handled: true };
                    }
                    this.setState('failed');
                    void vscode.window
                        .showErrorMessage(
                            `The Hiera language server stopped ${restarts.length} times in a few minutes and was not restarted. Its output says why.`,
                            'Show Output',
                            'Restart',
                        )
                        .then((choice) => {
                            if (choice === 'Show Output') {
                                this.channel.show();
                            } else if (choice === 'Restart') {
                                void this.restart();
                            }
                        });
                    return { action: CloseAction.DoNotRestart, handled: true };
                },
            },
            middleware: {
                // The "Decrypt to a read-only view" code action runs the server's command;
                // its answer is shown here, in a tab that cannot be edited or saved.
                executeCommand: async (command, args, next) => {
                    const result: unknown = await next(command, args);
                    if (command === EYAML_DECRYPT_COMMAND) {
                        await this.showDecrypted(result);
                    } else if (command === COMPARE_KEY_COMMAND) {
                        await this.showComparison(result);
                    }
                    return result;
                },
                workspace: {
                    // Pulled settings get the same normalization as initializationOptions.
                    configuration: async (params, token, next) => {
                        const result = await next(params, token);
                        if (!Array.isArray(result)) {
                            return result;
                        }
                        return result.map((value: unknown, i: number) => {
                            const item = params.items[i];
                            const scope = item?.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
                            const itemFolder = scope ? vscode.workspace.getWorkspaceFolder(scope)?.uri.fsPath : folder;
                            return configurationAnswer(item?.section, value, home, itemFolder ?? folder);
                        });
                    },
                },
            },
        };
    }

    async stop(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        if (client === undefined) {
            return;
        }
        try {
            if (client.isRunning()) {
                await client.stop(5_000);
            }
        } catch (error) {
            this.channel.warn(`Stopping the server: ${errorText(error)}`);
        }
        try {
            await client.dispose();
        } catch {
            // already stopped
        }
        this.setState('stopped');
    }

    async restart(): Promise<void> {
        if (this.starting !== undefined) {
            await this.starting;
        }
        this.channel.info('Restarting the server.');
        await this.stop();
        await this.start();
    }

    async onConfigurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
        if (needsRestart((section) => e.affectsConfiguration(section))) {
            await this.restart();
        } else if (e.affectsConfiguration('hiera.factsProfile')) {
            // The setting was changed on purpose: it replaces a profile picked earlier.
            await this.context.workspaceState.update(REMEMBERED_PROFILE_KEY, undefined);
        }
    }

    async onExtensionsChanged(): Promise<void> {
        const present = vscode.extensions.getExtension(YAML_EXTENSION_ID) !== undefined;
        if (present !== this.yamlExtensionPresent) {
            this.yamlExtensionPresent = present;
            this.channel.info(`Red Hat's YAML extension is ${present ? 'now' : 'no longer'} installed; restarting so only one of them reports YAML syntax errors.`);
            await this.restart();
        }
    }

    /** The client when the server runs, without the warning runningClient() shows. */
    liveClient(): LanguageClient | undefined {
        return this.client !== undefined && this.client.isRunning() ? this.client : undefined;
    }

    dispose(): void {
        this.statusBar.dispose();
        this.serverChanged.dispose();
        void this.stop();
    }

    // ------------------------------------------------------------------ status

    private setState(state: ServerState): void {
        this.state = state;
        this.serverChanged.fire();
        if (state !== 'running') {
            this.activeProfile = state === 'starting' ? this.activeProfile : null;
        }
        this.render();
    }

    private render(): void {
        const view = statusBarView(this.state, this.activeProfile);
        this.statusBar.text = view.text;
        this.statusBar.tooltip = view.tooltip;
        this.statusBar.command = view.command;
    }

    private showCannotStart(reason: string): void {
        const readme = 'Installation instructions';
        const settings = 'Open Settings';
        void vscode.window.showErrorMessage(notFoundMessage(reason), readme, settings).then((choice) => {
            if (choice === readme) {
                void this.openInstallInstructions();
            } else if (choice === settings) {
                void vscode.commands.executeCommand('workbench.action.openSettings', 'hiera.server.path');
            }
        });
    }

    private async openInstallInstructions(): Promise<void> {
        // The extension's README starts with the server's installation; it ships in the
        // .vsix, so this works offline.
        // vsce stores it as readme.md; a development checkout has README.md.
        const name = ['README.md', 'readme.md'].find((n) => fs.existsSync(path.join(this.context.extensionPath, n))) ?? 'README.md';
        const readme = vscode.Uri.joinPath(this.context.extensionUri, name);
        try {
            await vscode.commands.executeCommand('markdown.showPreview', readme);
        } catch {
            await vscode.window.showTextDocument(readme);
        }
    }

    private runningClient(): LanguageClient | undefined {
        if (this.client !== undefined && this.client.isRunning()) {
            return this.client;
        }
        void vscode.window.showWarningMessage('The Hiera language server is not running.', 'Restart', 'Show Output').then((choice) => {
            if (choice === 'Restart') {
                void this.restart();
            } else if (choice === 'Show Output') {
                this.channel.show();
            }
        });
        return undefined;
    }

    // ------------------------------------------------------------------ facts profiles

    private async selectProfile(client: LanguageClient, name: string | null): Promise<void> {
        const answer: unknown = await client.sendRequest(ExecuteCommandRequest.type, {
            command: SELECT_FACTS_PROFILE_COMMAND,
            arguments: [name],
        });
        if (answer !== null && typeof answer === 'object' && 'active' in answer) {
            this.activeProfile = activeProfileName({ name: (answer as { active: unknown }).active });
            this.render();
        }
    }

    private async restoreProfile(client: LanguageClient): Promise<void> {
        const remembered = this.context.workspaceState.get<{ name: string | null }>(REMEMBERED_PROFILE_KEY);
        if (remembered === undefined || !client.isRunning()) {
            return;
        }
        try {
            await this.selectProfile(client, remembered.name);
        } catch (error) {
            this.channel.warn(`Could not restore the facts profile ${remembered.name ?? '(none)'}: ${errorText(error)}`);
        }
    }

    async chooseProfile(): Promise<void> {
        const client = this.runningClient();
        if (client === undefined) {
            return;
        }
        const profiles = parseProfiles(await client.sendRequest(LIST_FACTS_PROFILES_REQUEST, {}));
        if (profiles.length === 0) {
            const choice = await vscode.window.showInformationMessage(
                'Hiera: no facts profiles found. Put facts files (facter -y output, or PuppetDB/onceover factsets) in .hiera-ls/facts/ or spec/factsets/, or list them in hiera.factsPaths.',
                'Open Settings',
            );
            if (choice === 'Open Settings') {
                await vscode.commands.executeCommand('workbench.action.openSettings', 'hiera.factsPaths');
            }
            return;
        }
        const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
        type Item = vscode.QuickPickItem & { readonly row: ProfilePickItem };
        const items: Item[] = profilePickItems(profiles, roots).map((row) => ({
            label: row.label,
            description: row.description,
            detail: row.detail,
            row,
        }));
        const picked = await new Promise<Item | undefined>((resolve) => {
            const pick = vscode.window.createQuickPick<Item>();
            pick.title = 'Hiera: Select Facts Profile';
            pick.placeholder = 'The node whose facts answer hovers, definitions and checks';
            pick.matchOnDescription = true;
            pick.items = items;
            const active = items.find((i) => i.row.active);
            if (active !== undefined) {
                pick.activeItems = [active];
            }
            let done = false;
            pick.onDidAccept(() => {
                done = true;
                resolve(pick.selectedItems[0]);
                pick.hide();
            });
            pick.onDidHide(() => {
                if (!done) {
                    resolve(undefined);
                }
                pick.dispose();
            });
            pick.show();
        });
        if (picked === undefined) {
            return;
        }
        await this.context.workspaceState.update(REMEMBERED_PROFILE_KEY, { name: picked.row.profile });
        await this.selectProfile(client, picked.row.profile);
    }

    // ------------------------------------------------------------------ explain

    provideExplanation(uri: vscode.Uri): string {
        return this.explanations.get(uri.toString()) ?? 'This explanation is no longer available: run "Hiera: Explain Lookup" again.\n';
    }

    async explainLookup(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        if (editor === undefined) {
            await vscode.window.showInformationMessage('Hiera: put the cursor on a key in a Hiera data file, then run Explain Lookup.');
            return;
        }
        const client = this.runningClient();
        if (client === undefined) {
            return;
        }
        const params: ExplainParams = {
            uri: client.code2ProtocolConverter.asUri(editor.document.uri),
            position: client.code2ProtocolConverter.asPosition(editor.selection.active),
        };
        const raw: unknown = await client.sendRequest(EXPLAIN_REQUEST, params);
        const result = parseExplainResult(raw);
        if (result === null) {
            await vscode.window.showInformationMessage('Hiera: no Hiera key under the cursor.');
            return;
        }
        this.explainCounter += 1;
        const uri = vscode.Uri.from({
            scheme: EXPLAIN_SCHEME,
            path: `/${explainTitle(result)}`,
            query: String(this.explainCounter),
        });
        this.explanations.set(uri.toString(), explainText(result));
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    }

    forgetExplanation(doc: vscode.TextDocument): void {
        if (doc.uri.scheme === EXPLAIN_SCHEME || doc.uri.scheme === EYAML_SCHEME) {
            this.explanations.delete(doc.uri.toString());
        }
        this.eyamlEdits.delete(doc.uri.toString());
    }

    // ------------------------------------------------------------------ change lens

    private async showComparison(raw: unknown): Promise<void> {
        const result = parseComparison(raw);
        if (result === null) {
            await vscode.window.showInformationMessage('Hiera: nothing to compare for this key.');
            return;
        }
        this.explainCounter += 1;
        const uri = vscode.Uri.from({ scheme: EXPLAIN_SCHEME, path: `/${comparisonTitle(result)}`, query: String(this.explainCounter) });
        this.explanations.set(uri.toString(), result.text);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    }

    // ------------------------------------------------------------------ eyaml

    private async showDecrypted(raw: unknown): Promise<void> {
        const result = parseDecryptResult(raw);
        if (result === null) {
            await vscode.window.showInformationMessage('Hiera: no encrypted value under the cursor.');
            return;
        }
        if (result.text === null) {
            await vscode.window.showWarningMessage(`Hiera: ${result.key} was not decrypted: ${result.error ?? 'no reason given'}.`);
            return;
        }
        this.explainCounter += 1;
        const uri = vscode.Uri.from({ scheme: EYAML_SCHEME, path: `/${decryptedTitle(result)}`, query: String(this.explainCounter) });
        this.explanations.set(uri.toString(), result.text);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    }

    async encryptValue(): Promise<void> {
        await vscode.commands.executeCommand('editor.action.codeAction', { kind: ENCRYPT_KIND, apply: 'first' });
    }

    async editEyaml(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        const client = this.runningClient();
        if (editor === undefined || client === undefined) {
            return;
        }
        const source = editor.document.uri;
        const raw: unknown = await client.sendRequest(EYAML_EDIT_TEXT_REQUEST, { uri: client.code2ProtocolConverter.asUri(source) });
        const marked = parseEditText(raw);
        if (marked.text === null) {
            await vscode.window.showWarningMessage(`Hiera: cannot edit the secrets of this file: ${marked.error ?? 'no reason given'}.`);
            return;
        }
        const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: marked.text });
        this.eyamlEdits.set(doc.uri.toString(), source);
        await vscode.window.showTextDocument(doc, { preview: false });
        void vscode.window.showInformationMessage(
            'Hiera: edit the DEC::PKCS7[...]! values (add new ones as DEC::PKCS7[text]!), then run "Hiera: Write Back eyaml Edits".',
        );
    }

    async writeBackEyaml(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        const source = editor === undefined ? undefined : this.eyamlEdits.get(editor.document.uri.toString());
        const client = this.runningClient();
        if (editor === undefined || source === undefined || client === undefined) {
            await vscode.window.showInformationMessage('Hiera: run this in an editor opened by "Hiera: Edit eyaml Secrets".');
            return;
        }
        const raw: unknown = await client.sendRequest(EYAML_REENCRYPT_REQUEST, {
            uri: client.code2ProtocolConverter.asUri(source),
            text: editor.document.getText(),
        });
        const answer = parseReencrypt(raw);
        if (answer.edits === null) {
            await vscode.window.showWarningMessage(`Hiera: not written back: ${answer.error ?? 'no reason given'}.`);
            return;
        }
        const edit = new vscode.WorkspaceEdit();
        edit.set(source, await client.protocol2CodeConverter.asTextEdits(answer.edits as TextEdit[]));
        if (!(await vscode.workspace.applyEdit(edit))) {
            await vscode.window.showWarningMessage('Hiera: VS Code refused the edit; nothing was written.');
            return;
        }
        await (await vscode.workspace.openTextDocument(source)).save();
        this.eyamlEdits.delete(editor.document.uri.toString());
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
}

function errorText(error: unknown): string {
    if (error instanceof Error) {
        return error.message;
    }
    return String(error);
}

let extension: HieraExtension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const channel = vscode.window.createOutputChannel('Hiera', { log: true });
    const ext = new HieraExtension(context, channel);
    extension = ext;
    context.subscriptions.push(
        channel,
        ext,
        vscode.commands.registerCommand(PICK_PROFILE_COMMAND, () => ext.chooseProfile()),
        vscode.commands.registerCommand(EXPLAIN_LOOKUP_COMMAND, () => ext.explainLookup()),
        vscode.commands.registerCommand(RESTART_COMMAND, () => ext.restart()),
        vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => channel.show()),
        vscode.workspace.registerTextDocumentContentProvider(EXPLAIN_SCHEME, {
            provideTextDocumentContent: (uri) => ext.provideExplanation(uri),
        }),
        vscode.workspace.registerTextDocumentContentProvider(EYAML_SCHEME, {
            provideTextDocumentContent: (uri) => ext.provideExplanation(uri),
        }),
        vscode.commands.registerCommand(ENCRYPT_VALUE_COMMAND, () => ext.encryptValue()),
        vscode.commands.registerCommand(EDIT_EYAML_COMMAND, () => ext.editEyaml()),
        vscode.commands.registerCommand(WRITE_BACK_EYAML_COMMAND, () => ext.writeBackEyaml()),
        vscode.workspace.onDidCloseTextDocument((doc) => ext.forgetExplanation(doc)),
        vscode.workspace.onDidChangeConfiguration((e) => ext.onConfigurationChanged(e)),
        vscode.extensions.onDidChange(() => ext.onExtensionsChanged()),
        new KeyViewTree(() => ext.liveClient(), ext.serverChanged.event),
    );
    await ext.start();
}

export async function deactivate(): Promise<void> {
    const ext = extension;
    extension = undefined;
    if (ext !== undefined) {
        await ext.stop();
    }
}
