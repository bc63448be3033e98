// Drives VS Code (code-server in headless Chromium) to the "Hiera: Key" side view: open a data
// file of the example with a facts profile set, put the cursor on a key, open the view, and read
// its rows; then move the cursor to another key, pick another profile from the status bar, and
// put the cursor where there is no key. Like drive_workbench.mjs it asserts nothing: it reports
// what the screen showed (report.json, screenshots) for test_vscode_sideview.py.
//
// Usage: node drive_sideview.mjs CONFIG.json
//   CONFIG: { url, results, playwright, chromium,
//             steps: { file, line, nextLine, nextKey, emptyLine, profileBefore, profileAfter,
//                      typed, editedValue } }

import { openWorkbench } from './workbench_session.mjs';

const { config, browser, page, save, shot, step, palette, quickOpen, gotoLine } = await openWorkbench(process.argv[2]);

async function runCommand(title) {
    await palette('>', title);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor();
    const shown = (await row.innerText()).replace(/\s+/g, ' ').trim();
    await page.keyboard.press('Enter');
    return shown;
}

/** Drags the side bar's edge so the view's descriptions fit (a user would, too). */
async function widenSideBar(x) {
    const bar = await page.locator('.part.sidebar').first().boundingBox();
    if (bar === null) {
        return null;
    }
    const y = bar.y + bar.height / 2;
    await page.mouse.move(bar.x + bar.width + 1, y);
    await page.mouse.down();
    await page.mouse.move(x, y, { steps: 10 });
    await page.mouse.up();
    return (await page.locator('.part.sidebar').first().boundingBox())?.width ?? null;
}

const s = config.steps;
// The view's pane in the Explorer: its header carries the view's name.
const pane = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Hiera: Key' }) }).first();
const paneRows = () => pane().locator('.monaco-list-row');

/** Each rendered row of the view: its label and description, and its depth in the tree. */
async function rows() {
    return await paneRows().evaluateAll((elements) =>
        elements.map((el) => ({
            label: (el.querySelector('.label-name')?.textContent ?? '').trim(),
            description: (el.querySelector('.label-description')?.textContent ?? '').trim(),
            level: Number(el.getAttribute('aria-level') ?? '0'),
        })),
    );
}

const header = async () => (await pane().locator('.pane-header').first().innerText()).replace(/\s+/g, ' ').trim();

async function sideShot(name) {
    // The side bar and the start of the editor: the view beside the line it shows.
    return await shot(name, { x: 0, y: 0, width: 1150, height: 560 });
}

const opened = await step('open', async () => {
    await page.goto(config.url);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator('.statusbar-item', { hasText: `Hiera: ${s.profileBefore}` }).first().waitFor();
    await quickOpen(s.file);
    await gotoLine(s.line, 1);
    return { shot: await shot('sideview-00-open') };
});

let shown = false;
if (opened) {
    shown = await step('view', async () => {
        const command = await runCommand('Focus on Hiera: Key View');
        await pane().waitFor();
        const sideBarWidth = await widenSideBar(640);
        // Room for the view: the folder tree above it is folded.
        const folders = page.locator('.pane-header', { hasText: 'control-repo' }).first();
        if ((await folders.getAttribute('aria-expanded')) === 'true') {
            await folders.click();
        }
        await paneRows().filter({ hasText: s.profileBefore }).first().waitFor();
        await pane().locator('.monaco-list-row', { hasText: 'Common data' }).first().waitFor();
        // also the README's picture (docs/images/vscode-side-view.png)
        return { command, sideBarWidth, header: await header(), rows: await rows(), shot: await sideShot('sideview-01-view') };
    });
}

if (shown) {
    await step('follow', async () => {
        await gotoLine(s.nextLine, 1);
        await pane().locator('.pane-header', { hasText: s.nextKey }).waitFor();
        // the rows are drawn after the header: wait for the key's module's levels
        await paneRows().filter({ hasText: `(module ${s.nextKey.split('::')[0]})` }).first().waitFor();
        return { header: await header(), rows: await rows(), shot: await sideShot('sideview-02-follow') };
    });

    await step('profile', async () => {
        await page.locator('.statusbar-item', { hasText: 'Hiera:' }).first().click();
        const choices = page.locator('.quick-input-list .monaco-list-row');
        await page.locator('.quick-input-widget input').fill(s.profileAfter);
        await choices.filter({ hasText: s.profileAfter }).first().waitFor();
        await page.keyboard.press('Enter');
        await page.locator('.statusbar-item', { hasText: `Hiera: ${s.profileAfter}` }).waitFor();
        await paneRows().filter({ hasText: `Hierarchy (${s.profileAfter})` }).first().waitFor();
        return { header: await header(), rows: await rows(), shot: await sideShot('sideview-03-profile') };
    });

    await step('edit', async () => {
        // An unsaved edit of the value: the view answers from the buffer.
        await gotoLine(s.line, 1);
        await page.keyboard.press('End');
        await page.keyboard.type(s.typed);
        await paneRows().filter({ hasText: `= ${s.editedValue}` }).first().waitFor();
        const seen = await rows();
        const shotPath = await sideShot('sideview-04-edit');
        await page.keyboard.press('Control+z');
        await paneRows().filter({ hasText: `= ${s.editedValue}` }).first().waitFor({ state: 'detached' });
        return { rows: seen, shot: shotPath };
    });

    await step('empty', async () => {
        await gotoLine(s.emptyLine, 1);
        const message = pane().locator('.message, .tree-explorer-viewlet-tree-view-message, [class*="message"]', { hasText: 'Place the cursor on a key' }).first();
        await message.waitFor();
        await paneRows().first().waitFor({ state: 'detached' });
        return { message: (await message.innerText()).trim(), rows: await rows(), shot: await sideShot('sideview-05-empty') };
    });
}

await browser.close();
save();
