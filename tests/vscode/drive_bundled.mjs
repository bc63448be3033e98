// Drives a workbench where the platform build of the extension is the only thing installed
// (test_vscode_bundled.py): the server starts by itself, diagnostics and a hover arrive, and
// the screen says whether the workspace is in Restricted Mode. With `config.controlPath`, a
// last step sets hiera.server.path in the machine's settings to that program: the proof
// that the program would have run, had anything chosen it.
//
// With `config.expectToast`, only the notification that says no server can start is read.
//
// Usage: node drive_bundled.mjs CONFIG.json
//   CONFIG: { url, results, playwright, chromium, machineSettings?, controlPath?, markerPath?,
//             expectToast?,
//             steps: { brokenFile, brokenCode, hoverFile, hoverKey, hoverMustContain } }
// It asserts nothing: the report and the screenshots are for the test.

import { existsSync, writeFileSync } from 'node:fs';

import { LIMIT, openWorkbench } from './workbench_session.mjs';

const { config, browser, page, save, shot, step, quickOpen, statusText, runCommand, hoverKey } = await openWorkbench(process.argv[2]);
const s = config.steps;

if (config.expectToast) {
    // No server can start: the one notification the extension shows, and nothing else.
    await step('cannotStart', async () => {
        await page.goto(config.url);
        await page.locator('.monaco-workbench').waitFor();
        const toast = page.locator('.notification-toast', { hasText: config.expectToast });
        await toast.first().waitFor();
        return {
            text: (await toast.first().innerText()).replace(/\s+/g, ' ').trim(),
            toasts: await page.locator('.notification-toast', { hasText: 'Hiera' }).count(),
            status: await statusText(),
            shot: await shot('00-cannot-start'),
        };
    });
    save();
    await browser.close();
    process.exit(0);
}

const started = await step('workbench', async () => {
    await page.goto(config.url);
    await page.locator('.monaco-workbench').waitFor();
    // The server is up: "Hiera: no facts profile" (none is set), not the spinner of its start.
    await page.locator('.statusbar-item', { hasText: 'Hiera: ' }).first().waitFor();
    return {
        status: await statusText(),
        restricted: await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).count(),
        shot: await shot('00-workbench'),
    };
});

if (started) {
    await step('diagnostics', async () => {
        await quickOpen(s.brokenFile);
        const squiggles = page.locator('.editor-group-container.active .squiggly-error');
        await squiggles.first().waitFor({ state: 'attached' });
        await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
        const rows = page.locator('.markers-panel .monaco-list-row');
        await rows.filter({ hasText: s.brokenCode }).first().waitFor();
        return {
            squiggles: await squiggles.count(),
            problems: (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
            shot: await shot('01-diagnostics'),
        };
    });

    await step('hover', async () => {
        await quickOpen(s.hoverFile);
        const text = await hoverKey(s.hoverKey + ':', s.hoverMustContain);
        return { text, shot: await shot('02-hover') };
    });

    if (config.controlPath) {
        await step('control', async () => {
            // The same program, now named where a user names it: this time it is run.
            await page.mouse.move(2, 2);
            const before = existsSync(config.markerPath);
            writeFileSync(config.machineSettings, JSON.stringify({ 'hiera.server.path': config.controlPath }, null, 2));
            const deadline = Date.now() + LIMIT;
            while (!existsSync(config.markerPath) && Date.now() < deadline) {
                await page.waitForTimeout(250);
            }
            return { before, ran: existsSync(config.markerPath), shot: await shot('03-control') };
        });
    }
}

save();
await browser.close();
