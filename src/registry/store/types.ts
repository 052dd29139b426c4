/** What the active-release channel needs from a release store (folder today, PostgreSQL later). */
import type { Release } from '../model.js';

export type ReleaseLoad = { ok: true; release: Release } | { ok: false; reason: string };
export type ActiveName = { ok: true; release: string } | { ok: false; reason: string };

export interface ReleaseSource {
  /** Loads and verifies one release by name. */
  read(release: string): ReleaseLoad;
  /** The name of the active release. */
  readActive(): ActiveName;
}

export const StoreReason = {
  InvalidName: 'invalid_release_name',
  NotFound: 'release_not_found',
  NameMismatch: 'release_name_mismatch',
  ActiveMissing: 'active_missing',
  ActiveInvalid: 'active_invalid',
} as const;
