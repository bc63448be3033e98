// Drives VS Code (code-server in headless Chromium) to an inlay hint: open data/common.yaml
// of the example with a facts profile set, go to a key another level overrides, and read
// the editor's lines once the hint is drawn. Like drive_workbench.mjs it asserts nothing:
// it reports what the screen showed (report.json, screenshots) for test_vscode_inlay.py.
//
// Usage: node drive_inlay.mjs CONFIG.json
//   CONFIG: { url, results, playwright, chromium, steps: { file, line, column, hint } }

import { openWorkbench } from './workbench_session.mjs';

const { config, browser, page, save, shot, step, editorLines, quickOpen, gotoLine } = await openWorkbench(process.argv[2]);

const s = config.steps;

const opened = await step('open', async () => {
    await page.goto(config.url);
    await page.locator('.monaco-workbench').waitFor();
    await page.locator('.statusbar-item', { hasText: 'Hiera:' }).first().waitFor();
    await quickOpen(s.file);
    await gotoLine(s.line, s.column);
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
