#!/usr/bin/env node
// Builds the web console's page into <outdir>/src/console/assets (default outdir: dist), beside the compiled server:
// type-checks src/console/web, bundles it with esbuild (Preact and dagre included: no CDN, no network at run time),
// and copies the HTML, CSS and icon. Part of `npm run build`.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const outdir = process.argv[2] ?? 'dist';
const web = join('src', 'console', 'web');
const assets = join(outdir, 'src', 'console', 'assets');

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const check = spawnSync(process.execPath, [tsc, '-p', join(web, 'tsconfig.json')], { stdio: 'inherit' });
if (check.status !== 0) process.exit(check.status ?? 1);

mkdirSync(assets, { recursive: true });
await build({
  entryPoints: [join(web, 'main.tsx')],
  outfile: join(assets, 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'linked',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
for (const file of ['index.html', 'login.html', 'app.css', 'login.css', 'favicon.svg']) {
  copyFileSync(join(web, file), join(assets, file));
}
