// Drives VS Code (code-server in headless Chromium) through the editing features: a quick fix
// chosen from the Ctrl+. menu, the Outline view, completion typed in %{lookup('...')}, an
// inlay hint, and a manifest's hiera() call replaced by its lookup(). Like drive_workbench.mjs it asserts nothing: it reports what the screen showed
// (report.json, screenshots: full ones, and cropped ones for the README) for
// test_vscode_editing.py. Waits are for something on screen; their limits are safety nets
// against a hang, never speed assertions.
//
// Usage: node drive_editing.mjs CONFIG.json
//   CONFIG: { url, results, playwright, chromium, steps: {...} }  (see test_vscode_editing.py)

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { clean, LIMIT, openWorkbench } from './workbench_session.mjs';

const { config, browser, page, save, shot, step, editorLines, quickInput, quickOpen, gotoLine } = await openWorkbench(process.argv[2]);

// ------------------------------------------------------------------ helpers

/** A screenshot of the smallest rectangle around these elements, with a margin. */
async function crop(name, locators, margin = 12) {
    const boxes = [];
    for (const locator of locators) {
        const box = await locator.boundingBox();
        if (box) {
            boxes.push(box);
        }
    }
    const view = page.viewportSize();
    const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
    const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
    const right = Math.min(view.width, Math.max(...boxes.map((b) => b.x + b.width)) + margin);
    const bottom = Math.min(view.height, Math.max(...boxes.map((b) => b.y + b.height)) + margin);
    const path = join(config.results, `${name}.png`);
    await page.screenshot({ path, clip: { x, y, width: right - x, height: bottom - y } });
    return path;
}

const editor = () => page.locator('.editor-group-container.active .monaco-editor').first();
const lineStarting = (text) =>
    editorLines().locator('.view-line').filter({ hasText: text }).first();

async function runCommand(title) {
    await quickInput('F1', `>${title}`);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

async function problems() {
    const rows = page.locator('.markers-panel .monaco-list-row');
    return (await rows.allInnerTexts()).map(clean);
}

/** Wait until the Problems panel's rows satisfy `ok`; returns them. */
async function problemsUntil(ok) {
    const deadline = Date.now() + LIMIT;
    for (;;) {
        const rows = await problems();
        if (ok(rows)) {
            return rows;
        }
        if (Date.now() > deadline) {
            throw new Error(`the Problems panel did not change as expected: ${JSON.stringify(rows)}`);
        }
        await page.waitForTimeout(250);
    }
}

// ------------------------------------------------------------------ the session

const s = config.steps;

const opened = await step('open', async () => {
    await page.goto(config.url);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator('.statusbar-item', { hasText: `Hiera: ${s.profile}` }).first().waitFor();
    return { shot: await shot('editing-00-open') };
});

if (opened) {
    await step('quickFix', async () => {
        await quickOpen(s.fixFile);
        await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
        const problemsBefore = await problemsUntil((rows) => rows.some((r) => r.includes(s.fixCode)));
        await editorLines().click();
        await gotoLine(s.fixLine, s.fixColumn);
        // Ctrl+. lists the code actions at the cursor, as a user finds them; the server may
        // still be reading the workspace: ask again until the fix is there.
        const rows = page.locator('.action-widget .monaco-list-row');
        let items = [];
        for (let attempt = 0; attempt < 5 && !items.some((t) => t.startsWith(s.fixTitle)); attempt++) {
            await page.keyboard.press('Escape');
            await page.keyboard.press('Control+.');
            try {
                await rows.filter({ hasText: s.fixTitle }).first().waitFor({ timeout: 15_000 });
            } catch {
                // asked too early
            }
            items = (await rows.allInnerTexts()).map(clean);
        }
        const menuShot = await crop('vscode-quick-fix', [
            lineStarting(s.fixedLine.split(': ')[0]),
            page.locator('.action-widget').first(),
        ]);
        const full = await shot('editing-01-quick-fix-menu');
        // Choose it in the menu.
        await rows.filter({ hasText: s.fixTitle }).first().click();
        await page.locator('.action-widget').first().waitFor({ state: 'hidden' });
        const fixed = editorLines().locator('.view-line', { hasText: s.fixedLine });
        await fixed.first().waitFor();
        const lineAfter = clean(await fixed.first().innerText());
        const problemsAfter = await problemsUntil((r) => !r.some((t) => t.includes(s.fixCode)));
        // Save, and wait until the file on disk holds it (the test reads the disk).
        await editorLines().click();
        await page.keyboard.press('Control+s');
        const deadline = Date.now() + LIMIT;
        while (!readFileSync(s.fixPath, 'utf8').includes(s.fixedLine)) {
            if (Date.now() > deadline) {
                throw new Error('the fixed file was not saved');
            }
            await page.waitForTimeout(200);
        }
        await runCommand('View: Hide Panel');
        return { problemsBefore, items, lineAfter, problemsAfter, menuShot, shot: full };
    });

    await step('outline', async () => {
        await quickOpen(s.outlineFile);
        if (await page.locator('.part.panel').first().isVisible()) {
            await runCommand('View: Hide Panel');
        }
        // The folders' section folded, the Outline gets the side bar's height.
        const folders = page.locator('.pane-header', { hasText: 'control-repo' }).first();
        if ((await folders.getAttribute('aria-expanded')) === 'true') {
            await folders.click();
        }
        await runCommand('Explorer: Focus on Outline View');
        const pane = page.locator('.outline-pane').first();
        const rows = pane.locator('.monaco-list-row');
        for (const name of s.outlineNames) {
            await rows.filter({ hasText: name }).first().waitFor();
        }
        const found = [];
        for (const row of await rows.all()) {
            found.push({
                name: clean(await row.locator('.label-name').first().innerText()),
                level: Number(await row.getAttribute('aria-level')),
            });
        }
        const sidebar = page.locator('.part.sidebar').first();
        const sideBox = await sidebar.boundingBox();
        const paneShot = join(config.results, 'vscode-outline.png');
        const paneBox = await pane.boundingBox();
        // the Outline section: its header (just above the pane) and its rows
        await page.screenshot({
            path: paneShot,
            clip: {
                x: sideBox.x,
                y: Math.max(0, paneBox.y - 24),
                width: sideBox.width,
                height: Math.min(paneBox.height + 24, 560),
            },
        });
        return { rows: found, paneShot, shot: await shot('editing-02-outline') };
    });

    await step('completion', async () => {
        // Typing a lookup in a data file: VS Code closes the quotes, brace and parenthesis,
        // the quote typed last is a trigger character, and the server lists the keys.
        await quickOpen(s.completionFile);
        const original = readFileSync(s.completionPath, 'utf8');
        await editorLines().click();
        await page.keyboard.press('Control+End');
        const widget = page.locator('.editor-widget.suggest-widget');
        await page.keyboard.type(s.completionTyped, { delay: 30 });
        const rows = widget.locator('.monaco-list-row');
        for (const key of s.completionKeys) {
            await rows.filter({ hasText: key }).first().waitFor();
        }
        // the value beside the highlighted key comes with the item's resolve, a moment later
        await rows.filter({ hasText: s.completionValue }).first().waitFor();
        // the highlighted key's value, when the details beside the list are unfolded
        const details = page.locator('.suggest-details').first();
        const detailsText = (await details.isVisible()) ? clean(await details.innerText()) : '';
        const result = {
            rows: (await rows.allInnerTexts()).map(clean),
            details: detailsText,
            line: clean(await lineStarting('profile::base::admin_email').innerText()),
            shot: await shot('editing-03-completion'),
        };
        result.cropShot = await crop('vscode-completion', [
            lineStarting('profile::base::admin_email'),
            widget,
            ...(detailsText ? [details] : []),
        ]);
        // Narrow the list to one key and accept it with Enter: the key replaces what was
        // typed, inside the quotes and brackets VS Code closed.
        await page.keyboard.type(s.completionNarrow, { delay: 30 });
        await widget.locator('.monaco-list-row.focused', { hasText: s.completionAccept }).waitFor();
        await page.keyboard.press('Enter');
        const accepted = editorLines().locator('.view-line', { hasText: s.completionAccept });
        await accepted.first().waitFor();
        result.acceptedOnScreen = clean(await accepted.first().innerText());  // with hints
        // Close any list before anything else: with one open, the keys pressed next (the
        // command palette's Enter) go to the list instead.
        await page.keyboard.press('Escape');
        await widget.waitFor({ state: 'hidden' });
        result.closed = true;
        // The text itself: the screen's line holds inlay hints too (what each %{...} expands
        // to, such as '' while the key is still being typed). Save, read the file, then put
        // the file back as it was and revert the editor to it.
        await page.keyboard.press('Control+s');
        const deadline = Date.now() + LIMIT;
        let saved = readFileSync(s.completionPath, 'utf8');
        while (!saved.includes(s.completionAccept + "'")) {
            if (Date.now() > deadline) {
                throw new Error('the accepted key was not saved');
            }
            await page.waitForTimeout(200);
            saved = readFileSync(s.completionPath, 'utf8');
        }
        result.accepted = saved.split('\n').find((l) => l.startsWith('profile::base::admin_email'));
        writeFileSync(s.completionPath, original);
        await runCommand('File: Revert File');
        await lineStarting('profile::base::admin_email').waitFor({ state: 'detached' });
        result.reverted = true;
        return result;
    });

    await step('inlay', async () => {
        await quickOpen(s.inlayFile);
        await editorLines().click();
        await gotoLine(s.inlayLine, 1);
        // The hint is text the editor draws into the line (injected text): wait for it.
        const line = editorLines().locator('.view-line', { hasText: s.inlayHint }).first();
        await line.waitFor();
        const text = clean(await line.innerText());
        const box = await line.boundingBox();
        const lines = await editorLines().boundingBox();
        const path = join(config.results, 'vscode-inlay-hint.png');
        // the line and a few around it, from the editor's left edge (line numbers)
        const left = (await editor().boundingBox()).x;
        await page.screenshot({
            path,
            clip: { x: left, y: Math.max(lines.y, box.y - 60), width: 760, height: 140 },
        });
        return { text, cropShot: path, shot: await shot('editing-04-inlay') };
    });

    await step('manifestFix', async () => {
        // A manifest (no Puppet extension here: plain text to VS Code) gets the hint on its
        // hiera() call, and Ctrl+. offers the lookup() that replaces it.
        await quickOpen(s.manifestFile);
        await editorLines().click();
        await gotoLine(s.manifestLine, s.manifestColumn);
        const rows = page.locator('.action-widget .monaco-list-row');
        let items = [];
        for (let attempt = 0; attempt < 5 && !items.some((t) => t.startsWith(s.manifestTitle)); attempt++) {
            await page.keyboard.press('Escape');
            await page.keyboard.press('Control+.');
            try {
                await rows.filter({ hasText: s.manifestTitle }).first().waitFor({ timeout: 15_000 });
            } catch {
                // asked before the server read the code
            }
            items = (await rows.allInnerTexts()).map(clean);
        }
        const menuShot = await crop('vscode-hiera-function-fix', [
            lineStarting(s.manifestLineStart),
            page.locator('.action-widget').first(),
        ]);
        await rows.filter({ hasText: s.manifestTitle }).first().click();
        await page.locator('.action-widget').first().waitFor({ state: 'hidden' });
        const fixed = editorLines().locator('.view-line', { hasText: s.manifestFixed });
        await fixed.first().waitFor();
        const lineAfter = clean(await fixed.first().innerText());
        return { items, lineAfter, menuShot, shot: await shot('editing-05-manifest-fix') };
    });
}

await browser.close();
save();
