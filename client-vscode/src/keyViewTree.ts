/**
 * The "Hiera: Key" tree in the Explorer: follows the cursor in YAML and JSON files
 * (debounced), asks the server `hiera/keyView`, and shows the rows of ./keyView. It asks only
 * while the view is visible, again when the active profile or the document changes.
 */

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { EMPTY_MESSAGE, KEY_VIEW_ID, NOT_RUNNING_MESSAGE, type Row, followsDocument, keyViewRows, parseKeyView } from './keyView';
import { KEY_VIEW_REQUEST } from './protocol';

const DEBOUNCE_MS = 250;

export class KeyViewTree implements vscode.TreeDataProvider<Row>, vscode.Disposable {
    private readonly changed = new vscode.EventEmitter<Row | undefined>();
    readonly onDidChangeTreeData = this.changed.event;
    private readonly view: vscode.TreeView<Row>;
    private readonly disposables: vscode.Disposable[] = [];
    private rows: Row[] = [];
    private timer: ReturnType<typeof setTimeout> | undefined;
    private asked = 0; // answers to older requests are dropped

    constructor(
        private readonly client: () => LanguageClient | undefined,
        serverChanged: vscode.Event<void>,
    ) {
        this.view = vscode.window.createTreeView(KEY_VIEW_ID, { treeDataProvider: this, showCollapseAll: false });
        this.view.message = EMPTY_MESSAGE;
        this.disposables.push(
            this.view,
            this.changed,
            vscode.window.onDidChangeTextEditorSelection((e) => {
                if (e.textEditor === vscode.window.activeTextEditor) {
                    this.schedule();
                }
            }),
            vscode.window.onDidChangeActiveTextEditor(() => this.schedule()),
            vscode.workspace.onDidChangeTextDocument((e) => {
                if (e.document === vscode.window.activeTextEditor?.document) {
                    this.schedule();
                }
            }),
            this.view.onDidChangeVisibility(() => this.schedule()),
            serverChanged(() => this.schedule()),
        );
        this.schedule();
    }

    getTreeItem(row: Row): vscode.TreeItem {
        const state =
            row.children.length === 0
                ? vscode.TreeItemCollapsibleState.None
                : row.id.startsWith('group:')
                  ? vscode.TreeItemCollapsibleState.Expanded
                  : vscode.TreeItemCollapsibleState.Collapsed;
        const item = new vscode.TreeItem(row.label, state);
        item.id = row.id;
        item.description = row.description;
        item.tooltip = row.tooltip;
        item.iconPath = new vscode.ThemeIcon(row.icon);
        if (row.open !== null) {
            const line = row.open.line ?? 0;
            const options: vscode.TextDocumentShowOptions = { selection: new vscode.Range(line, 0, line, 0), preview: true };
            item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.file(row.open.path), options] };
        }
        return item;
    }

    getChildren(row?: Row): Row[] {
        return row === undefined ? this.rows : [...row.children];
    }

    private schedule(): void {
        if (this.timer !== undefined) {
            clearTimeout(this.timer);
        }
        this.timer = setTimeout(() => {
            this.timer = undefined;
            void this.update();
        }, DEBOUNCE_MS);
    }

    private show(rows: Row[], message: string | undefined, description: string | undefined): void {
        this.rows = rows;
        this.view.message = message;
        this.view.description = description;
        this.changed.fire(undefined);
    }

    private async update(): Promise<void> {
        if (!this.view.visible) {
            return;
        }
        const asked = ++this.asked;
        const editor = vscode.window.activeTextEditor;
        if (editor === undefined || !followsDocument(editor.document.languageId, editor.document.uri.scheme)) {
            this.show([], EMPTY_MESSAGE, undefined);
            return;
        }
        const client = this.client();
        if (client === undefined) {
            this.show([], NOT_RUNNING_MESSAGE, undefined);
            return;
        }
        let raw: unknown;
        try {
            raw = await client.sendRequest(KEY_VIEW_REQUEST, {
                uri: client.code2ProtocolConverter.asUri(editor.document.uri),
                position: client.code2ProtocolConverter.asPosition(editor.selection.active),
            });
        } catch {
            raw = null; // a server that restarts answers the next move
        }
        if (asked !== this.asked) {
            return;
        }
        const view = parseKeyView(raw);
        if (view === null) {
            this.show([], EMPTY_MESSAGE, undefined);
        } else {
            this.show(keyViewRows(view), undefined, view.key);
        }
    }

    dispose(): void {
        if (this.timer !== undefined) {
            clearTimeout(this.timer);
        }
        for (const d of this.disposables) {
            d.dispose();
        }
    }
}
