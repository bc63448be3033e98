// Bundles the extension into one file (dist/extension.js) and copies the hiera.yaml and
// .hiera-ls.yaml schemas from the repository's schemas/ (the single source the server reads
// too) into the extension, where `yamlValidation` points. `--production` minifies, for the .vsix.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');

mkdirSync(join(here, 'schemas'), { recursive: true });
for (const name of ['hiera.v5.schema.json', 'hiera-ls.schema.json']) {
    copyFileSync(join(here, '..', 'schemas', name), join(here, 'schemas', name));
}

await build({
    entryPoints: [join(here, 'src', 'extension.ts')],
    outfile: join(here, 'dist', 'extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
    minify: production,
    sourcemap: !production,
    logLevel: 'warning',
});
