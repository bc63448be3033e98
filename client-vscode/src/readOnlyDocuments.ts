/**
 * Server answers shown as text in read-only tabs: "Hiera: Explain Lookup", the change
 * lens's comparison and eyaml's "Decrypt to a read-only view". Each is a virtual document
 * of its own URI (two answers stay side by side), held in memory until its tab closes:
 * it cannot be edited or saved, and decrypted text never touches the disk.
 */

import * as vscode from 'vscode';
import type { HieraClient } from './client';
import { comparisonTitle, parseComparison } from './compare';
import { EXPLAIN_SCHEME, explainText, explainTitle, parseExplainResult } from './explain';
import { EYAML_SCHEME, decryptedTitle, parseDecryptResult } from './eyaml';
import { COMPARE_KEY_COMMAND, EXPLAIN_REQUEST, EYAML_DECRYPT_COMMAND, type ExplainParams } from './protocol';

const GONE = 'This text is no longer available: run the command again.\n';

export class ReadOnlyDocuments implements vscode.Disposable {
    private readonly texts = new Map<string, string>();
    private counter = 0;
    private readonly disposables: vscode.Disposable[];

    constructor(private readonly client: HieraClient) {
        const provider = { provideTextDocumentContent: (uri: vscode.Uri) => this.texts.get(uri.toString()) ?? GONE };
        this.disposables = [
            vscode.workspace.registerTextDocumentContentProvider(EXPLAIN_SCHEME, provider),
            vscode.workspace.registerTextDocumentContentProvider(EYAML_SCHEME, provider),
            vscode.workspace.onDidCloseTextDocument((doc) => this.texts.delete(doc.uri.toString())),
        ];
    }

    /** Opens `text` beside the editor, in a tab titled `title`. */
    private async show(scheme: string, title: string, text: string): Promise<void> {
        this.counter += 1;
        const uri = vscode.Uri.from({ scheme, path: `/${title}`, query: String(this.counter) });
        this.texts.set(uri.toString(), text);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    }

    /** A server command's answer: shown when it is one the editor shows. */
    async onCommandResult(command: string, result: unknown): Promise<void> {
        if (command === EYAML_DECRYPT_COMMAND) {
            await this.showDecrypted(result);
        } else if (command === COMPARE_KEY_COMMAND) {
            await this.showComparison(result);
        }
    }

    async explainLookup(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        if (editor === undefined) {
            await vscode.window.showInformationMessage('Hiera: put the cursor on a key in a Hiera data file, then run Explain Lookup.');
            return;
        }
        const client = this.client.runningClient();
        if (client === undefined) {
            return;
        }
        const params: ExplainParams = {
            uri: client.code2ProtocolConverter.asUri(editor.document.uri),
            position: client.code2ProtocolConverter.asPosition(editor.selection.active),
        };
        const result = parseExplainResult(await client.sendRequest(EXPLAIN_REQUEST, params));
        if (result === null) {
            await vscode.window.showInformationMessage('Hiera: no Hiera key under the cursor.');
            return;
        }
        await this.show(EXPLAIN_SCHEME, explainTitle(result), explainText(result));
    }

    private async showComparison(raw: unknown): Promise<void> {
        const result = parseComparison(raw);
        if (result === null) {
            await vscode.window.showInformationMessage('Hiera: nothing to compare for this key.');
            return;
        }
        await this.show(EXPLAIN_SCHEME, comparisonTitle(result), result.text);
    }

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
        await this.show(EYAML_SCHEME, decryptedTitle(result), result.text);
    }

    dispose(): void {
        this.disposables.forEach((d) => d.dispose());
        this.texts.clear();
    }
}
