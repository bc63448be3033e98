// Drives the VS Code workbench (served by code-server) in headless Chromium, as a person
// would: quick open, mouse hover, F12, the status bar, the command palette. It asserts
// nothing itself: each step writes what the screen showed to a JSON report, and
// tests/vscode/test_vscode_e2e.py asserts on that report (and the screenshots are kept).
//
// Usage: node drive_workbench.mjs CONFIG.json
//   CONFIG: { url, workspace, results, playwright, chromium, machineSettings, badServerPath,
//             steps: {...} }   (see test_vscode_e2e.py)
// Waits are for something on screen to appear; their limits are safety nets against a
// hang, never speed assertions.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { openWorkbench } from './workbench_session.mjs';

const { config, browser, page, report, save, shot, step, quickOpen, gotoLine, statusText, runCommand, hoverKey } = await openWorkbench(
    process.argv[2],
);
report.console = [];
page.on('console', (m) => {
    if (m.type() === 'error' && /hiera/i.test(m.text())) {
        report.console.push(m.text().slice(0, 500));
    }
});

// ------------------------------------------------------------------ helpers

const hieraStatus = () => page.locator('.statusbar-item', { hasText: /Hiera/ }).first();

// ------------------------------------------------------------------ the session

const s = config.steps;

const started = await step('workbench', async () => {
    await page.goto(config.url);
    await page.locator('.monaco-workbench').waitFor();
    // The server is up and has chosen the profile from the settings.
    await page.locator('.statusbar-item', { hasText: `Hiera: ${s.profileBefore}` }).waitFor();
    return { status: await statusText(), shot: await shot('00-workbench') };
});

if (started) {
    await step('diagnostics', async () => {
        await quickOpen(s.brokenFile);
        const squiggles = page.locator('.editor-group-container.active .squiggly-error');
        await squiggles.first().waitFor({ state: 'attached' });
        await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
        const rows = page.locator('.markers-panel .monaco-list-row');
        await rows.filter({ hasText: s.brokenCode }).first().waitFor();
        // Back to the editor, the squiggle in view, the Problems panel still open.
        await page.locator('.editor-group-container.active .view-lines').first().click();
        await gotoLine(s.brokenLine, 1);
        await page.mouse.move(2, 2);
        return {
            squiggles: await squiggles.count(),
            problems: (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
            shot: await shot('01-diagnostics'),
        };
    });

    await step('hoverBefore', async () => {
        await runCommand('View: Hide Panel');
        await quickOpen(s.hoverFile);
        const text = await hoverKey(s.hoverKey + ':', s.hoverMustContain);
        return { text, shot: await shot('02-hover-before') };
    });

    await step('readmePicture', async () => {
        // For the README: the merged value on hover, with the Problems panel listing ours.
        await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
        await page.locator('.markers-panel .monaco-list-row', { hasText: s.brokenCode }).first().waitFor();
        const text = await hoverKey(s.hoverKey + ':', s.hoverMustContain);
        const shotPath = await shot('readme-hover-and-diagnostics');
        await page.mouse.move(2, 2);
        await runCommand('View: Hide Panel');
        return { text, shot: shotPath };
    });

    await step('definition', async () => {
        await page.mouse.move(2, 2);
        await quickOpen(s.aliasFile);
        await gotoLine(s.aliasLine, s.aliasColumn);
        const before = await statusText();
        await page.keyboard.press('F12');
        await page.locator('.tab.active', { hasText: s.definitionTab }).waitFor();
        await page.locator('.statusbar', { hasText: `Ln ${s.definitionLine},` }).waitFor();
        const crumbs = (await page.locator('.editor-group-container.active .breadcrumbs-control').first().innerText())
            .replace(/\s+/g, ' ')
            .trim();
        return {
            before,
            tab: (await page.locator('.tab.active').first().innerText()).replace(/\s+/g, ' ').trim(),
            breadcrumbs: crumbs,
            status: await statusText(),
            peek: await page.locator('.peekview-widget').count(),
            shot: await shot('03-definition'),
        };
    });

    await step('explain', async () => {
        await quickOpen(s.hoverFile);
        const line = s.hoverKeyLine;
        await gotoLine(line, 3);
        await runCommand('Hiera: Explain Lookup');
        const tab = page.locator('.tab.active', { hasText: 'Explain' });
        await tab.waitFor();
        const lines = page.locator('.editor-group-container.active .view-lines');
        await lines.filter({ hasText: s.hoverKey }).first().waitFor();
        const text = await lines.first().innerText();
        const shotPath = await shot('04-explain');
        // Typing into it is refused the way VS Code refuses edits to a read-only editor.
        await lines.first().click();
        await page.keyboard.type('x');
        const refusal = page.locator('.monaco-editor-overlaymessage', { hasText: /read-?only/i });
        await refusal.first().waitFor();
        return {
            tab: (await tab.innerText()).replace(/\s+/g, ' ').trim(),
            text,
            refusal: (await refusal.first().innerText()).trim(),
            unchanged: (await lines.first().innerText()) === text,
            dirty: await page.locator('.tab.active.dirty').count(),
            shot: shotPath,
        };
    });

    await step('pickProfile', async () => {
        await runCommand('View: Close All Editors');
        await quickOpen(s.hoverFile);
        const before = await statusText();
        await hieraStatus().click();
        const rows = page.locator('.quick-input-list .monaco-list-row');
        await rows.filter({ hasText: s.profileAfter }).first().waitFor();
        const items = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
        const title = (await page.locator('.quick-input-widget .quick-input-title').first().innerText().catch(() => '')).trim();
        await shot('05-profile-picker');
        await page.locator('.quick-input-widget input').fill(s.profileAfter);
        await rows.filter({ hasText: s.profileAfter }).first().waitFor();
        await page.keyboard.press('Enter');
        await page.locator('.statusbar-item', { hasText: `Hiera: ${s.profileAfter}` }).waitFor();
        return { before, title, items, after: await statusText() };
    });

    await step('hoverAfter', async () => {
        const text = await hoverKey(s.hoverKey + ':', s.hoverAfterMustContain);
        return { text, shot: await shot('06-hover-after') };
    });

    await step('restart', async () => {
        // Hiera: Restart Server: a new server process, and the profile picked above survives.
        await page.mouse.move(2, 2);
        await runCommand('Hiera: Restart Server');
        await page.locator('.statusbar-item', { hasText: /Hiera/ }).filter({ hasNotText: s.profileAfter }).first().waitFor();
        const during = await statusText();
        await page.locator('.statusbar-item', { hasText: `Hiera: ${s.profileAfter}` }).waitFor();
        const text = await hoverKey(s.hoverKey + ':', s.hoverAfterMustContain);
        return { during, after: await statusText(), text, shot: await shot('07-after-restart') };
    });

    await step('serverMissing', async () => {
        // A server path that does not exist: the change restarts the client, which must say
        // once, clearly, why it cannot start and how to install the server.
        await page.mouse.move(2, 2);
        writeFileSync(config.machineSettings, JSON.stringify({ 'hiera.server.path': config.badServerPath }, null, 2));
        const toast = page.locator('.notification-toast', { hasText: 'hiera.server.path' });
        await toast.first().waitFor();
        const text = (await toast.first().innerText()).replace(/\s+/g, ' ').trim();
        const toasts = await page.locator('.notification-toast', { hasText: 'Hiera' }).count();
        const status = await statusText();
        const shotPath = await shot('08-server-missing');
        await toast.first().locator('.monaco-button', { hasText: 'Installation instructions' }).click();
        await page.locator('.tab', { hasText: /readme/i }).first().waitFor();
        // The preview is a webview: an iframe holding the rendered page in another iframe.
        const heading = page
            .frameLocator('iframe.webview.ready')
            .frameLocator('#active-frame')
            .locator('h2', { hasText: 'Installing the server' });
        await heading.waitFor();
        return {
            text,
            toasts,
            status,
            shot: shotPath,
            readmeTab: (await page.locator('.tab.active').first().innerText()).replace(/\s+/g, ' ').trim(),
            readmeHeading: (await heading.innerText()).trim(),
            readmeShot: await shot('09-install-instructions'),
        };
    });
}

save();
await browser.close();
