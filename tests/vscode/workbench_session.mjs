// What every driver of the real VS Code (code-server in headless Chromium) starts with: the
// browser on the workbench's page, the report written step by step, screenshots, and the
// keyboard ways in (Quick Open, the command palette, Go to Line). The drivers assert nothing:
// they report what the screen showed (report.json, screenshots) for their pytest file.

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const LIMIT = 90_000; // a safety net against a hang, never a speed assertion

export const clean = (t) => t.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();

/** The session for the driver's CONFIG.json: { url, results, playwright, chromium, steps }. */
export async function openWorkbench(configPath) {
    const config = JSON.parse(readFileSync(configPath, 'utf8'));
    const require = createRequire(join(config.playwright, 'package.json'));
    const { chromium } = require('playwright-core');
    const report = { steps: {} };
    const save = () => writeFileSync(join(config.results, 'report.json'), JSON.stringify(report, null, 2));

    const browser = await chromium.launch({
        executablePath: config.chromium,
        args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
        ],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(LIMIT);

    const shot = async (name, clip) => {
        const path = join(config.results, `${name}.png`);
        await page.screenshot(clip ? { path, clip } : { path });
        return path;
    };

    /** Runs one step; what it returns (or its error and a screenshot) goes in the report. */
    async function step(name, body) {
        const started = Date.now();
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
        result.seconds = (Date.now() - started) / 1000;
        save();
        return result.ok;
    }

    const editorLines = () => page.locator('.editor-group-container.active .view-lines').first();

    async function quickInput(key, text) {
        await page.keyboard.press('Escape');
        await page.keyboard.press(key);
        const input = page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        await input.fill(text);
        return input;
    }

    /** Quick Open's input (prefix '') or the command palette's ('>'), filled with text. */
    const palette = (prefix, text) => quickInput(prefix === '>' ? 'F1' : 'Control+p', prefix + text);

    /** Opens relPath (relative to the workspace) in the editor, and no other file of its name. */
    async function quickOpen(relPath) {
        const base = relPath.split('/').pop();
        const dir = relPath.includes('/') ? relPath.slice(0, relPath.lastIndexOf('/')) : '';
        const escaped = dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        // The row of that file by its folder (the row's description), found when clicked: the
        // list re-sorts as results come in (recent files first), so a row's index is no name,
        // Enter may pick the list shown before the filter, and several files share a name.
        const row = page
            .locator('.quick-input-list .monaco-list-row', { hasText: base })
            .filter({ has: page.locator('.label-description', { hasText: new RegExp(`^\\s*${escaped}\\s*$`) }) })
            .first();
        const crumbs = page.locator('.breadcrumbs-control').first();
        for (let attempt = 1; ; attempt++) {
            await quickInput('Control+p', relPath);
            await row.waitFor();
            await page.waitForTimeout(300); // the list settles
            await row.click();
            await page.locator('.tab.active', { hasText: base }).waitFor();
            await editorLines().waitFor();
            const shown = clean(await crumbs.innerText()).replace(/\s*›\s*|\s+/g, '/');
            if (shown.startsWith(relPath) || attempt === 3) {
                return;
            }
        }
    }

    /** Go to Line, waiting for the status bar to say the cursor is there. */
    async function gotoLine(line, column) {
        await quickInput('Control+g', `:${line}:${column}`);
        await page.keyboard.press('Enter');
        await page.locator('.statusbar', { hasText: `Ln ${line}, Col ${column}` }).waitFor();
    }

    /** The status bar's text, on one line. */
    const statusText = async () => clean(await page.locator('.statusbar').innerText());

    /** Runs a command from the command palette by its title. */
    async function runCommand(title) {
        await quickInput('F1', `>${title}`);
        await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
        await page.keyboard.press('Enter');
    }

    /** The first token of the line (in the active editor) whose text starts with `prefix`. */
    function keyToken(prefix) {
        const line = editorLines()
            .locator('.view-line')
            .filter({ hasText: new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })
            .first();
        return line.locator('span span').first();
    }

    /** Hovers the mouse on a key and reads the hover once the server's answer (`mustContain`) is in it. */
    async function hoverKey(prefix, mustContain) {
        let last = '';
        for (let attempt = 0; attempt < 4; attempt++) {
            await page.mouse.move(2, 2);
            await page.keyboard.press('Escape');
            const token = keyToken(prefix);
            await token.waitFor();
            await token.hover();
            const hover = page.locator('.monaco-hover-content').filter({ hasText: mustContain }).first();
            try {
                await hover.waitFor({ state: 'visible', timeout: 15_000 });
                return await hover.innerText();
            } catch {
                last = (await page.locator('.monaco-hover-content').allInnerTexts()).join('\n---\n');
            }
        }
        return last;
    }

    return {
        config, browser, page, report, save, shot, step, editorLines, quickInput, palette, quickOpen, gotoLine,
        statusText, runCommand, hoverKey,
    };
}
