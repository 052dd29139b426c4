import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../core/index.js';

let cached: string | undefined;

/** The installed package's version (from its package.json), reported as the MCP server version and by `--version`. */
export function packageVersion(): string {
  if (cached === undefined) {
    const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    cached = typeof manifest.version === 'string' ? manifest.version : '0.0.0';
  }
  return cached;
}
