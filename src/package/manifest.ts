/** The installed package's manifest (package.json), read once: its name, version and licence. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './root.js';

/** The package Rimthan ships in, as its package.json names it. */
export interface PackageFacts {
  readonly name: string;
  readonly version: string;
  readonly license: string;
}

let cached: PackageFacts | undefined;

/** The installed package's name, version and licence (defaults stand in for a field that is missing). */
export function packageFacts(): PackageFacts {
  if (cached === undefined) {
    const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as Record<string, unknown>;
    const text = (key: string, fallback: string): string => {
      const value = manifest[key];
      return typeof value === 'string' ? value : fallback;
    };
    cached = {
      name: text('name', 'rimthan'),
      version: text('version', '0.0.0'),
      license: text('license', 'UNLICENSED'),
    };
  }
  return cached;
}

/** The installed package's version, reported as the MCP server version and by `--version`. */
export function packageVersion(): string {
  return packageFacts().version;
}
