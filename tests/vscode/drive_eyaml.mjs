// Drives VS Code (code-server in headless Chromium) through eyaml's "Encrypt value": open an
// eyaml file, put the cursor on a plain value, see the quick-fix menu offer the action,
// run "Hiera: Encrypt Value with eyaml", save. Like drive_workbench.mjs it asserts nothing:
// it reports what the screen showed (report.json, screenshots) for test_vscode_eyaml.py.
//
// Usage: node drive_eyaml.mjs CONFIG.json
//   CONFIG: { url, results, playwright, chromium, steps: { file, path, line, column, title } }

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const require = createRequire(join(config.playwright, 'package.json'));
const { chromium } = require('playwright-core');

const LIMIT = 90_000; // a safety net against a hang, never a speed assertion
const report = { steps: {} };
const save = () => writeFileSync(join(config.results, 'report.json'), JSON.stringify(report, null, 2));

const browser = await chromium.launch({
    executablePath: config.chromium,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
page.setDefaultTimeout(LIMIT);

const shot = async (name) => {
    const path = join(config.results, `${name}.png`);
    await page.screenshot({ path });
    return path;
};

async function step(name, body) {
    const result = { ok: false };
    report.steps[name] = result;
    try {
        Object.assign(result, await body());
        result.ok = true;
    } catch (error) {
        result.error = String(error && error.stack ? error.stack : error).slice(0, 2000);
        try {
            result.failureShot = await shot(`${name}-failure`);
        } catch {
            // the page is gone
        }
    }
    save();
    return result.ok;
}

async function palette(prefix, text) {
    await page.keyboard.press('Escape');
    await page.keyboard.press(prefix === '>' ? 'F1' : 'Control+p');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(prefix + text);
    return input;
}

const s = config.steps;
const editorLines = () => page.locator('.editor-group-container.active .view-lines').first();

const opened = await step('open', async () => {
    await page.goto(config.url);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator('.statusbar-item', { hasText: 'Hiera:' }).first().waitFor();
    await palette('', s.file);
    const base = s.file.split('/').pop();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: base }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: base }).waitFor();
    await editorLines().waitFor();
    await palette('', `:${s.line}:${s.column}`);
    await page.keyboard.press('Enter');
    await page.locator('.statusbar', { hasText: `Ln ${s.line}, Col ${s.column}` }).waitFor();
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
