// Drives VS Code (code-server in headless Chromium) to an inlay hint: open data/common.yaml
// of the example with a facts profile set, go to a key another level overrides, and read
// the editor's lines once the hint is drawn. Like drive_workbench.mjs it asserts nothing:
// it reports what the screen showed (report.json, screenshots) for test_vscode_inlay.py.
//
// Usage: node drive_inlay.mjs CONFIG.json
//   CONFIG: { url, results, playwright, chromium, steps: { file, line, column, hint } }

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
    return { shot: await shot('inlay-00-open') };
});

if (opened) {
    await step('hint', async () => {
        // The hint is text the editor draws into the line (injected text): wait for it. VS Code
        // cuts a hint after editor.inlayHints.maximumLength (43) characters: s.hint fits.
        const line = editorLines().locator('.view-line', { hasText: s.hint }).first();
        await line.waitFor();
        const text = (await line.innerText()).replace(/\s+/g, ' ').trim();
        return { text, shot: await shot('inlay-01-hint') };
    });
}

await browser.close();
save();
