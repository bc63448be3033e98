// Drives VS Code (code-server in headless Chromium) through eyaml's "Encrypt value": open an
// eyaml file, put the cursor on a plain value, see the quick-fix menu offer the action,
// run "Hiera: Encrypt Value with eyaml", save. Like drive_workbench.mjs it asserts nothing:
// it reports what the screen showed (report.json, screenshots) for test_vscode_eyaml.py.
//
// Usage: node drive_eyaml.mjs CONFIG.json
//   CONFIG: { url, results, playwright, chromium, steps: { file, path, line, column, title } }

import { readFileSync } from 'node:fs';

import { LIMIT, openWorkbench } from './workbench_session.mjs';

const { config, browser, page, save, shot, step, editorLines, palette, quickOpen, gotoLine } = await openWorkbench(process.argv[2]);

const s = config.steps;

const opened = await step('open', async () => {
    await page.goto(config.url);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator('.statusbar-item', { hasText: 'Hiera:' }).first().waitFor();
    await quickOpen(s.file);
    await gotoLine(s.line, s.column);
    return { text: await editorLines().innerText(), shot: await shot('eyaml-00-open') };
});

if (opened) {
    await step('quickFixMenu', async () => {
        // Ctrl+. lists the code actions at the cursor, as a user finds them.
        let items = [];
        for (let attempt = 0; attempt < 5 && !items.some((t) => t.includes(s.title)); attempt++) {
            await page.keyboard.press('Escape');
            await page.keyboard.press('Control+.');
            const rows = page.locator('.action-widget .monaco-list-row');
            try {
                await rows.filter({ hasText: s.title }).first().waitFor({ timeout: 15_000 });
            } catch {
                // the server may still be reading the workspace: ask again
            }
            items = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
        }
        const path = await shot('eyaml-01-quick-fix-menu');
        await page.keyboard.press('Escape');
        return { items, shot: path };
    });

    await step('encrypt', async () => {
        await palette('>', 'Hiera: Encrypt Value with eyaml');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Encrypt Value with eyaml' }).first().waitFor();
        await page.keyboard.press('Enter');
        await editorLines().filter({ hasText: 'ENC[PKCS7,' }).waitFor();
        const text = await editorLines().innerText();
        const path = await shot('eyaml-02-encrypted');
        // Save, and wait until the file on disk holds it (the test reads the disk).
        await editorLines().click();
        await palette('>', 'File: Save');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'File: Save' }).first().waitFor();
        await page.keyboard.press('Enter');
        const deadline = Date.now() + LIMIT;
        while (!readFileSync(s.path, 'utf8').includes('ENC[PKCS7,')) {
            if (Date.now() > deadline) {
                throw new Error('the encrypted value was not saved');
            }
            await page.waitForTimeout(200);
        }
        return { text, shot: path };
    });
}

await browser.close();
save();
