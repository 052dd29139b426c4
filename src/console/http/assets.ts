/**
 * The page's static files, built into `dist/src/console/assets/` by `npm run build` and shipped in the package: read
 * once at start (a console without them refuses to start and says how to build them), then served from memory. No
 * file outside this fixed list is ever served.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RimthanError } from '../../core/index.js';

/** The built assets' folder beside the compiled console. */
export const ASSETS_DIR = fileURLToPath(new URL('../assets/', import.meta.url));

const FILES: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/login': { file: 'login.html', type: 'text/html; charset=utf-8' },
  '/assets/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/assets/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/assets/login.css': { file: 'login.css', type: 'text/css; charset=utf-8' },
  '/favicon.svg': { file: 'favicon.svg', type: 'image/svg+xml' },
};

/** The sign-in page again, saying the token was refused (served for `/login?failed=1`). */
export const LOGIN_FAILED = '/login#failed';

export interface Asset {
  readonly type: string;
  readonly bytes: Buffer;
}

/** Loads every asset; throws `console_assets_missing` naming the first missing file. */
export function loadAssets(dir: string = ASSETS_DIR): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [path, { file, type }] of Object.entries(FILES)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, file));
    } catch (cause) {
      throw new RimthanError(
        'console_assets_missing',
        `the console's page files are missing (${file}); run \`npm run build\` first`,
        { cause },
      );
    }
    assets.set(path, { type, bytes });
  }
  const login = assets.get('/login');
  if (login !== undefined) {
    const failed = '<p class="failed" role="alert">That token was not accepted.</p>';
    const text = login.bytes.toString('utf8').replace('<!-- rimthan:login-failed -->', failed);
    assets.set(LOGIN_FAILED, { type: login.type, bytes: Buffer.from(text, 'utf8') });
  }
  return assets;
}
