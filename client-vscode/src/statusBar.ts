/**
 * The status bar entry: the server's state and the active facts profile, kept in view
 * because every merged value on screen depends on it. A click picks another profile (or
 * restarts a server that is not running); the text itself comes from ./profiles.
 */

import * as vscode from 'vscode';
import type { HieraClient } from './client';
import { statusBarView } from './profiles';

export class ProfileStatusBar implements vscode.Disposable {
    private readonly item: vscode.StatusBarItem;
    private readonly subscription: vscode.Disposable;

    constructor(private readonly client: HieraClient) {
        this.item = vscode.window.createStatusBarItem('hiera.factsProfile', vscode.StatusBarAlignment.Left, 10);
        this.item.name = 'Hiera Facts Profile';
        this.subscription = client.onDidChange(() => this.render());
        this.render();
        this.item.show();
    }

    private render(): void {
        const view = statusBarView(this.client.state, this.client.activeProfile);
        this.item.text = view.text;
        this.item.tooltip = view.tooltip;
        this.item.command = view.command;
    }

    dispose(): void {
        this.subscription.dispose();
        this.item.dispose();
    }
}
