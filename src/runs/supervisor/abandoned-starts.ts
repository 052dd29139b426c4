/**
 * Abandoned starts. A start writes the pending record, then the seed; a process that dies between the two (or a
 * caller that creates a run and never starts it) leaves a run that would stay `pending` forever. Like the reference,
 * which fails a run without a checkpoint when it loads runs, the supervisor fails such runs, but only once they are
 * older than `abandonedStartMs` (default 10 minutes), so a start in progress on any worker, or a caller retrying with
 * its idempotency key, is never cut off. Each is failed by one compare-and-swap commit: a run seeded meanwhile is
 * left alone.
 */
import { failUnseeded } from './start-command.js';
import type { EngineHandle } from './types.js';

export const DEFAULT_ABANDONED_START_MS = 10 * 60_000;
const BATCH = 100;
const MESSAGE = 'the start was never acknowledged: the run has no seed checkpoint';

/**
 * Fails up to 100 unseeded pending runs created more than `olderThanMs` ago, checking `going()` before each write
 * (a stopping supervisor ends the sweep early); returns how many it failed.
 */
export async function failAbandonedStarts(
  engine: EngineHandle,
  olderThanMs: number,
  going: () => boolean,
): Promise<number> {
  const before = new Date(engine.clock.now().getTime() - olderThanMs).toISOString();
  const abandoned = await engine.store.unseededRuns(before, BATCH);
  let failed = 0;
  for (const record of abandoned) {
    if (!going()) break;
    await failUnseeded(engine, record, MESSAGE);
    failed++;
  }
  return failed;
}
