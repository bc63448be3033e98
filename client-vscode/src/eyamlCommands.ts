/**
 * eyaml's palette commands: "Encrypt Value with eyaml" (the server's code action, applied),
 * "Edit eyaml Secrets" (the file with `DEC::PKCS7[...]!` markers in an untitled editor) and
 * "Write Back eyaml Edits" (the server re-encrypts; the edits are applied to the file and
 * saved). Plaintext lives only in the untitled editor, never on disk or in the log.
 */

import * as vscode from 'vscode';
import type { TextEdit } from 'vscode-languageclient/node';
import type { HieraClient } from './client';
import { ENCRYPT_KIND, parseEditText, parseReencrypt } from './eyaml';
import { EYAML_EDIT_TEXT_REQUEST, EYAML_REENCRYPT_REQUEST } from './protocol';

export class EyamlCommands implements vscode.Disposable {
    /** Untitled editor (URI) -> the eyaml file its secrets are written back to. */
    private readonly edits = new Map<string, vscode.Uri>();
    private readonly subscription: vscode.Disposable;

    constructor(private readonly client: HieraClient) {
        this.subscription = vscode.workspace.onDidCloseTextDocument((doc) => this.edits.delete(doc.uri.toString()));
    }

    async encryptValue(): Promise<void> {
        await vscode.commands.executeCommand('editor.action.codeAction', { kind: ENCRYPT_KIND, apply: 'first' });
    }

    async editSecrets(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        const client = this.client.runningClient();
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
        this.edits.set(doc.uri.toString(), source);
        await vscode.window.showTextDocument(doc, { preview: false });
        void vscode.window.showInformationMessage(
            'Hiera: edit the DEC::PKCS7[...]! values (add new ones as DEC::PKCS7[text]!), then run "Hiera: Write Back eyaml Edits".',
        );
    }

    async writeBack(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        const source = editor === undefined ? undefined : this.edits.get(editor.document.uri.toString());
        const client = this.client.runningClient();
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
        this.edits.delete(editor.document.uri.toString());
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }

    dispose(): void {
        this.subscription.dispose();
        this.edits.clear();
    }
}
