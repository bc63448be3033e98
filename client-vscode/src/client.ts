/**
 * The language client's life: which server to start (./serverLaunch), starting, stopping,
 * restarting it (by hand, on a setting that needs it, after a crash, when trust is granted
 * or the Python extension's interpreter changes), and the server's state and active facts
 * profile, which the status bar, the profile picker and the side view follow.
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
    LanguageClient,
    type LanguageClientOptions,
    RevealOutputChannelOn,
    type ServerOptions,
    State,
    TransportKind,
} from 'vscode-languageclient/node';
import { type ServerState, activeProfileName } from './profiles';
import { ACTIVE_FACTS_PROFILE_NOTIFICATION } from './protocol';
import { describeCommand, notFoundMessage } from './serverCommand';
import { resolveLaunch, watchPythonInterpreter } from './serverLaunch';
import { SECTION, configurationAnswer, initializationOptions, needsRestart, normalizeSettings } from './settings';

/** The client's id: the language client reads `<id>.trace.server`, i.e. hiera.trace.server. */
const CLIENT_ID = 'hiera';
const CLIENT_NAME = 'Hiera Language Server';
const YAML_EXTENSION_ID = 'redhat.vscode-yaml';

/** How many unexpected exits in CRASH_WINDOW_MS are restarted before giving up. */
const MAX_RESTARTS = 3;
const CRASH_WINDOW_MS = 3 * 60_000;

/** Called with every server command's answer, for those the editor shows (read-only tabs). */
export type CommandResultHandler = (command: string, result: unknown) => Promise<void>;

export function errorText(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}

export class HieraClient implements vscode.Disposable {
    private client: LanguageClient | undefined;
    private serverState: ServerState = 'stopped';
    private profile: string | null = null;
    private yamlExtensionPresent: boolean;
    private starting: Promise<void> | undefined;
    private pythonWatch: vscode.Disposable | undefined;
    private readonly changed = new vscode.EventEmitter<void>();
    private readonly running = new vscode.EventEmitter<LanguageClient>();
    /** Fired when the server starts or stops and when the active profile changes. */
    readonly onDidChange = this.changed.event;
    /** Fired each time a server is up (also after the client restarted a crashed one). */
    readonly onDidStart = this.running.event;
    /** Answers of server commands go here before their caller gets them. */
    commandResults: CommandResultHandler = async () => undefined;

    constructor(
        private readonly context: vscode.ExtensionContext,
        readonly channel: vscode.LogOutputChannel,
    ) {
        this.yamlExtensionPresent = vscode.extensions.getExtension(YAML_EXTENSION_ID) !== undefined;
    }

    get state(): ServerState {
        return this.serverState;
    }

    get activeProfile(): string | null {
        return this.profile;
    }

    setActiveProfile(name: string | null): void {
        this.profile = name;
        this.changed.fire();
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
        const launch = await resolveLaunch(this.context.extensionPath);
        if (launch.askedPythonExtension && this.pythonWatch === undefined) {
            this.pythonWatch = await watchPythonInterpreter(() => {
                this.channel.info("The Python extension's interpreter changed; restarting the server.");
                void this.restart();
            });
        }
        const resolution = launch.resolution;
        for (const note of resolution.notes ?? []) {
            this.channel.warn(note);
        }
        if (!resolution.ok) {
            this.channel.error(`${resolution.reason} Tried: ${resolution.tried.join('; ')}.`);
            this.setState('failed');
            this.showCannotStart(notFoundMessage(resolution.reason, resolution.bundled), resolution.bundled ? 'hiera.interpreter' : 'hiera.server.path');
            return;
        }
        const server = resolution.server;
        this.channel.info(`Starting the server (${server.source}): ${describeCommand(server)}`);
        if (server.detail !== undefined) {
            this.channel.info(server.detail);
        }
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
                this.running.fire(client);
            } else if (e.newState === State.Starting) {
                this.setState('starting');
            } else if (this.serverState !== 'failed') {
                this.setState('stopped');
            }
        });
        client.onNotification(ACTIVE_FACTS_PROFILE_NOTIFICATION, (params: unknown) => {
            this.setActiveProfile(activeProfileName(params));
        });
        try {
            await client.start();
        } catch (error) {
            if (this.client === client) {
                this.setState('failed');
                this.showCannotStart(`The Hiera language server (${describeCommand(server)}) did not start: ${errorText(error)}.`, 'hiera.server.path');
            }
        }
    }

    private clientOptions(folder: string | undefined): LanguageClientOptions {
        const home = os.homedir();
        const settings = normalizeSettings(vscode.workspace.getConfiguration(SECTION), home, folder);
        const restarts: number[] = [];
        return {
            // YAML and JSON files on disk; the server decides which belong to a hierarchy.
            // Puppet code by its file name, whatever extension gives it a language: its
            // hiera*() hints and their quick fixes, and the value of a key a lookup() names
            // on hover (a name match ranks below the Puppet extension's language match, so
            // features VS Code takes from one provider stay the Puppet extension's).
            documentSelector: [
                { scheme: 'file', language: 'yaml' },
                { scheme: 'file', language: 'json' },
                { scheme: 'file', pattern: '**/*.{pp,epp}' },
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
                // Some server commands (a code action's "Decrypt to a read-only view", the
                // change lens's comparison) answer with text the editor shows in a tab.
                executeCommand: async (command, args, next) => {
                    const result: unknown = await next(command, args);
                    await this.commandResults(command, result);
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
        }
    }

    /** Trust granted: the environment's hiera-ls and the Python extension's interpreter now count. */
    async onTrustGranted(): Promise<void> {
        this.channel.info('The workspace is trusted now; restarting the server.');
        await this.restart();
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

    /** The client when the server runs; otherwise a warning that offers to restart it. */
    runningClient(): LanguageClient | undefined {
        const client = this.liveClient();
        if (client !== undefined) {
            return client;
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

    dispose(): void {
        this.changed.dispose();
        this.running.dispose();
        this.pythonWatch?.dispose();
        void this.stop();
    }

    // ------------------------------------------------------------------ state and errors

    private setState(state: ServerState): void {
        this.serverState = state;
        if (state !== 'running' && state !== 'starting') {
            this.profile = null;
        }
        this.changed.fire();
    }

    /** One notification: what is wrong and what to do, with the README and the setting one click away. */
    private showCannotStart(message: string, setting: string): void {
        const readme = 'Installation instructions';
        const settings = 'Open Settings';
        void vscode.window.showErrorMessage(message, readme, settings).then((choice) => {
            if (choice === readme) {
                void this.openInstallInstructions();
            } else if (choice === settings) {
                void vscode.commands.executeCommand('workbench.action.openSettings', setting);
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
}
