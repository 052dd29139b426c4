/**
 * The checks both release stores apply before they change anything, so a folder and a PostgreSQL store refuse the same
 * requests with the same codes: a publish verifies exactly as `verifyReleaseFile` does, a channel update names a valid
 * channel and release, a compare-and-swap compares the same way.
 */
import { RimthanError } from '../../core/index.js';
import type { Release } from '../model/release.js';
import { isReleaseName } from '../model/naming.js';
import { MAX_RELEASE_BYTES, verifyReleaseFile } from '../verify.js';
import { isReleaseChannel, ReleaseChannel } from './types.js';
import type { ChannelUpdate } from './types.js';

/** A refused store operation; `entry` names the release entry (or digest) that failed verification. */
export class ReleaseStoreRefusal extends RimthanError {
  override readonly name = 'ReleaseStoreRefusal';
  readonly reason: string | undefined;
  readonly entry: string | undefined;

  constructor(code: string, message: string, details: { reason?: string; entry?: string } = {}) {
    super(code, message);
    this.reason = details.reason;
    this.entry = details.entry;
  }
}

/** Verifies release file bytes for publishing; throws `release_invalid` naming the reason and the failing entry. */
export function verifyForPublish(bytes: Uint8Array): Release {
  if (bytes.byteLength > MAX_RELEASE_BYTES) {
    throw new ReleaseStoreRefusal('release_invalid', `the release file exceeds ${MAX_RELEASE_BYTES} bytes`, {
      reason: 'release_too_large',
    });
  }
  const verified = verifyReleaseFile(bytes);
  if (!verified.ok) {
    const where = verified.entry === undefined ? '' : ` at ${verified.entry}`;
    throw new ReleaseStoreRefusal('release_invalid', `the release file does not verify: ${verified.reason}${where}`, {
      reason: verified.reason,
      ...(verified.entry === undefined ? {} : { entry: verified.entry }),
    });
  }
  return verified.release;
}

/** The refusal for a name that already holds other bytes. */
export function immutableRefusal(release: string): ReleaseStoreRefusal {
  return new ReleaseStoreRefusal(
    'release_immutable',
    `release ${release} already exists with different content (a changed release needs a new name)`,
  );
}

/** Checks the shape of a channel update (channel, release name, who); throws `invalid_argument`. */
export function checkChannelUpdate(update: ChannelUpdate): void {
  if (!isReleaseChannel(update.channel)) {
    throw new ReleaseStoreRefusal('invalid_argument', 'channel must be active or migration-target');
  }
  if (update.release === null) {
    if (update.channel === ReleaseChannel.Active) {
      throw new ReleaseStoreRefusal('invalid_argument', 'the active channel cannot be cleared');
    }
  } else if (!isReleaseName(update.release)) {
    throw new ReleaseStoreRefusal('invalid_argument', 'release must be a release name');
  }
  const expected = update.expectedCurrent;
  if (expected !== undefined && expected !== null && !isReleaseName(expected)) {
    throw new ReleaseStoreRefusal('invalid_argument', 'expected_current must be a release name or null');
  }
  if (update.actor.length === 0 || update.actor.length > 200) {
    throw new ReleaseStoreRefusal('invalid_argument', 'the actor must be a principal id');
  }
}

/** Throws `channel_conflict` when a compare-and-swap's expected value is not the channel's current one. */
export function checkExpected(update: ChannelUpdate, current: string | null): void {
  if (update.expectedCurrent === undefined || update.expectedCurrent === current) return;
  throw new ReleaseStoreRefusal(
    'channel_conflict',
    `the ${update.channel} channel is ${current ?? 'empty'}, not ${update.expectedCurrent ?? 'empty'} (reload and retry)`,
  );
}

/** Throws `release_unavailable` when a channel would name a release that is missing or does not verify. */
export function unavailableRefusal(release: string, reason: string): ReleaseStoreRefusal {
  return new ReleaseStoreRefusal('release_unavailable', `release ${release} cannot be used (${reason})`, { reason });
}

/** A history or audit limit, clamped to 1..max (default when absent). */
export function clampLimit(limit: number | undefined, fallback: number, max: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(limit)));
}
