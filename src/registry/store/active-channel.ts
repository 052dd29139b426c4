/**
 * The active-release channel: serves the last verified snapshot of the active release and refreshes it on demand.
 * A refresh that finds a corrupt pointer or an unverifiable release keeps the previous snapshot (fail-soft), so a bad
 * publish never takes the service down or serves an unverified release.
 */
import { RimthanError } from '../../core/index.js';
import type { Release } from '../model/release.js';
import type { ReleaseSource } from './types.js';

export type RefreshResult = { ok: true; changed: boolean } | { ok: false; reason: string };

/** The active release as a verified snapshot with fail-soft refresh. */
export class ActiveReleaseChannel {
  readonly #source: ReleaseSource;
  #current: Release;

  /** Loads the active release; throws `no_active_release` when there is no verified active release to start from. */
  constructor(source: ReleaseSource) {
    this.#source = source;
    const first = this.#load();
    if (!first.ok) throw new RimthanError('no_active_release', `no verified active release (${first.reason})`);
    this.#current = first.release;
  }

  /** The last verified active release. */
  current(): Release {
    return this.#current;
  }

  /** Re-reads the active pointer; switches only to a release that verifies, otherwise keeps the current snapshot. */
  refresh(): RefreshResult {
    const next = this.#load();
    if (!next.ok) return next;
    if (
      next.release.release === this.#current.release &&
      next.release.manifest_sha256 === this.#current.manifest_sha256
    ) {
      return { ok: true, changed: false };
    }
    this.#current = next.release;
    return { ok: true, changed: true };
  }

  #load(): { ok: true; release: Release } | { ok: false; reason: string } {
    const name = this.#source.readActive();
    if (!name.ok) return name;
    return this.#source.read(name.release);
  }
}
