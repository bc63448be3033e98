/**
 * The VS Code side of hiera-ls: starts `hiera-ls serve` over stdio and adds what LSP has
 * no words for. This file only wires the parts together:
 * - ./client: which server runs, its start, stops and restarts, its state;
 * - ./statusBar: the server's state and the active facts profile;
 * - ./profilePicker: "Hiera: Select Facts Profile", remembered per workspace;
 * - ./readOnlyDocuments: explain, comparison and decrypted text in read-only tabs;
 * - ./eyamlCommands: encrypt, edit and write back eyaml secrets;
 * - ./keyViewTree: the "Hiera: Key" side view.
 *
 * Everything that can be decided without VS Code (which command to run, what to send as
 * initializationOptions, the picker's rows, the status bar text) lives in small modules
 * beside these and is unit-tested.
 */

import * as vscode from 'vscode';
import { HieraClient } from './client';
import { EDIT_EYAML_COMMAND, ENCRYPT_VALUE_COMMAND, WRITE_BACK_EYAML_COMMAND } from './eyaml';
import { EyamlCommands } from './eyamlCommands';
import { KeyViewTree } from './keyViewTree';
import { ProfilePicker } from './profilePicker';
import { PICK_PROFILE_COMMAND, RESTART_COMMAND, SHOW_OUTPUT_COMMAND } from './profiles';
import { ReadOnlyDocuments } from './readOnlyDocuments';
import { ProfileStatusBar } from './statusBar';

// The palette commands have ids of their own: the language client registers every
// command the server announces (SERVER_COMMANDS in ./protocol) as a VS Code command, and
// a second registration of the same id would fail the client's start.
const EXPLAIN_LOOKUP_COMMAND = 'hiera.explainLookup';

let running: HieraClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const channel = vscode.window.createOutputChannel('Hiera', { log: true });
    const client = new HieraClient(context, channel);
    running = client;
    const statusBar = new ProfileStatusBar(client);
    const picker = new ProfilePicker(context, client);
    const documents = new ReadOnlyDocuments(client);
    const eyaml = new EyamlCommands(client);
    client.commandResults = (command, result) => documents.onCommandResult(command, result);
    context.subscriptions.push(
        channel,
        client,
        statusBar,
        picker,
        documents,
        eyaml,
        vscode.commands.registerCommand(PICK_PROFILE_COMMAND, () => picker.choose()),
        vscode.commands.registerCommand(EXPLAIN_LOOKUP_COMMAND, () => documents.explainLookup()),
        vscode.commands.registerCommand(RESTART_COMMAND, () => client.restart()),
        vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => channel.show()),
        vscode.commands.registerCommand(ENCRYPT_VALUE_COMMAND, () => eyaml.encryptValue()),
        vscode.commands.registerCommand(EDIT_EYAML_COMMAND, () => eyaml.editSecrets()),
        vscode.commands.registerCommand(WRITE_BACK_EYAML_COMMAND, () => eyaml.writeBack()),
        vscode.workspace.onDidChangeConfiguration(async (e) => {
            await picker.onConfigurationChanged(e);
            await client.onConfigurationChanged(e);
        }),
        vscode.workspace.onDidGrantWorkspaceTrust(() => client.onTrustGranted()),
        vscode.extensions.onDidChange(() => client.onExtensionsChanged()),
        new KeyViewTree(() => client.liveClient(), client.onDidChange),
    );
    await client.start();
}

export async function deactivate(): Promise<void> {
    const client = running;
    running = undefined;
    if (client !== undefined) {
        await client.stop();
    }
}
