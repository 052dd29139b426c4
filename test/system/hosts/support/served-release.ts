/**
 * The release a `rimthan serve` of some build serves by default (its package's releases/ACTIVE, built in
 * releases/dist/), and the host adapter a workflow of it pins for a harness: what a host declares at start must be
 * the adapter the release it talks to pins, or Rimthan blocks the start.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { packageRoot } from '../../../../src/package/index.js';
import { compareVersions, releaseOf } from '../../../../src/registry/index.js';
import type { Release, ReleaseFile } from '../../../../src/registry/index.js';

/** The active release of the package at `root` (default: this build's package). */
export function servedRelease(root: string = packageRoot()): Release {
  const name = readFileSync(join(root, 'releases', 'ACTIVE'), 'utf8').trim();
  return releaseOf(JSON.parse(readFileSync(join(root, 'releases', 'dist', `${name}.json`), 'utf8')) as ReleaseFile);
}

/** The package root of a built `rimthan` executable (`<root>/dist/src/cli/main.js`). */
export function packageRootOf(main: string): string {
  return resolve(dirname(main), '..', '..', '..');
}

/** The adapter `workflow` (id or alias; its newest version) of `release` pins for `harness`. */
export function pinnedAdapter(
  release: Release,
  workflow: string,
  harness: 'claude-code' | 'codex',
): { id: string; version: string } {
  const candidates = release.workflows
    .filter((w) => w.id === workflow || w.entry_aliases.includes(workflow))
    .sort((a, b) => compareVersions(b.version, a.version));
  const pin = candidates[0]?.host_adapters[harness];
  if (pin === undefined) throw new Error(`${release.release} pins no ${harness} adapter for ${workflow}`);
  return { id: pin.id, version: pin.version };
}
