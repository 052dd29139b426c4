/** Finds the installed rimthan package on disk: the nearest ancestor folder whose package.json is named "rimthan". */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The absolute path of the installed rimthan package: the nearest ancestor of this module holding a package.json named
 * "rimthan". Works from `src/` under a TypeScript runner and from any compiled output folder (dist/src/core and the like).
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (parsed.name === 'rimthan') {
        cached = dir;
        return dir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('rimthan package root not found');
    dir = parent;
  }
}
