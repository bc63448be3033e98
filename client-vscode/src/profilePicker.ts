/**
 * "Hiera: Select Facts Profile": the quick pick of the server's facts profiles (rows from
 * ./profiles), the choice sent to the server and remembered per workspace, so that a
 * restarted server (by hand or after a crash) answers for the same node.
 */

import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import { type HieraClient, errorText } from './client';
import { type ProfilePickItem, activeProfileName, parseProfiles, profilePickItems } from './profiles';
import { LIST_FACTS_PROFILES_REQUEST, SELECT_FACTS_PROFILE_COMMAND } from './protocol';

/** A picked profile is remembered per workspace, so a restart keeps it. */
const REMEMBERED_PROFILE_KEY = 'hiera.selectedFactsProfile';

export class ProfilePicker implements vscode.Disposable {
    private readonly subscription: vscode.Disposable;

    constructor(
        private readonly context: vscode.ExtensionContext,
        private readonly client: HieraClient,
    ) {
        this.subscription = client.onDidStart((languageClient) => void this.restoreProfile(languageClient));
    }

    private async selectProfile(languageClient: LanguageClient, name: string | null): Promise<void> {
        const answer: unknown = await languageClient.sendRequest(ExecuteCommandRequest.type, {
            command: SELECT_FACTS_PROFILE_COMMAND,
            arguments: [name],
        });
        if (answer !== null && typeof answer === 'object' && 'active' in answer) {
            this.client.setActiveProfile(activeProfileName({ name: (answer as { active: unknown }).active }));
        }
    }

    private async restoreProfile(languageClient: LanguageClient): Promise<void> {
        const remembered = this.context.workspaceState.get<{ name: string | null }>(REMEMBERED_PROFILE_KEY);
        if (remembered === undefined || !languageClient.isRunning()) {
            return;
        }
        try {
            await this.selectProfile(languageClient, remembered.name);
        } catch (error) {
            this.client.channel.warn(`Could not restore the facts profile ${remembered.name ?? '(none)'}: ${errorText(error)}`);
        }
    }

    async onConfigurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
        if (e.affectsConfiguration('hiera.factsProfile')) {
            // The setting was changed on purpose: it replaces a profile picked earlier.
            await this.context.workspaceState.update(REMEMBERED_PROFILE_KEY, undefined);
        }
    }

    async choose(): Promise<void> {
        const languageClient = this.client.runningClient();
        if (languageClient === undefined) {
            return;
        }
        const profiles = parseProfiles(await languageClient.sendRequest(LIST_FACTS_PROFILES_REQUEST, {}));
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
        await this.selectProfile(languageClient, picked.row.profile);
    }

    dispose(): void {
        this.subscription.dispose();
    }
}
