/**
 * What `rimthan serve --transport http` answers at `GET /readyz` on its listeners: the workflow-engine profile is
 * ready while its follower holds a verified active release (with the note `serving_from_cache` while the store cannot
 * be reached), not ready without one (`no_active_release`, or `store_unreachable` when the store cannot be asked); the
 * runs profile is ready once listening; both say `draining` once stopping. The drain period (`--drain-seconds`) is the
 * time between the stop signal and closing the listeners, during which calls are still answered.
 */
import { NotReadyReason, ReadyNote } from '../http/health.js';
import type { ReadinessProbe } from '../http/health.js';
import type { ReleaseFollower } from '../registry/store/index.js';
import type { CliIo } from './io.js';

/** The readiness of a replica following a release store. */
export function releaseReadiness(follower: ReleaseFollower): ReadinessProbe {
  return () => {
    const s = follower.state();
    if (s.active === null) {
      return {
        ready: false,
        reason: s.store_unreachable ? NotReadyReason.StoreUnreachable : NotReadyReason.NoActiveRelease,
      };
    }
    return s.store_unreachable ? { ready: true, note: ReadyNote.ServingFromCache } : { ready: true };
  };
}

/** Waits out the drain period after the stop signal; a second signal ends it at once. */
export async function drainPeriod(io: CliIo, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, seconds * 1000);
    }),
    io.untilStopped(),
  ]);
  clearTimeout(timer);
}
