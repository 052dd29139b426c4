/**
 * The release a rollout takes its host assets from: the packaged releases' active release, loaded and verified by
 * the same code `rimthan serve` starts from (openReleaseStore without `--releases`, then a ReleaseFollower).
 */
import type { Release } from '../../registry/index.js';
import type { CliIo } from '../io.js';
import { followReleases, openReleaseStore } from '../release-store-config.js';

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
