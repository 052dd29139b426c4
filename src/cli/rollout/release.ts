/**
 * The release a rollout takes its host assets from: the packaged releases' active release, loaded and verified by
 * the same code `rimthan serve` starts from (openReleaseStore without `--releases`, then a ReleaseFollower), and the
 * package it ships in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/index.js';
import type { Release } from '../../registry/index.js';
import type { CliIo } from '../io.js';
import { followReleases, openReleaseStore } from '../release-store-config.js';

/** The package the release ships in: its name, version and licence (from package.json). */
export interface PackageFacts {
  readonly name: string;
  readonly version: string;
  readonly license: string;
}

/** The active packaged release, verified. */
export async function activePackagedRelease(io: CliIo): Promise<Release> {
  const store = await openReleaseStore(undefined, io);
  const follower = await followReleases(store, {});
  try {
    return follower.active();
  } finally {
    await follower.stop();
    await store.close();
  }
}

/** The installed package's name, version and licence. */
export function packageFacts(): PackageFacts {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as Record<string, unknown>;
  const text = (key: string, fallback: string): string => {
    const value = manifest[key];
    return typeof value === 'string' ? value : fallback;
  };
  return { name: text('name', 'rimthan'), version: text('version', '0.0.0'), license: text('license', 'UNLICENSED') };
}
