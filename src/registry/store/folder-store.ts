/**
 * A release store on disk: immutable release files `<dir>/<release>.json` and an `ACTIVE` file naming the active
 * release. Every load is verified (digests, shape, authoring rules) and cached; names are checked before any path is
 * built from them.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RimthanError } from '../../core/index.js';
import type { Release, ReleaseFile } from '../model.js';
import { serializeReleaseFile } from '../manifest.js';
import { isReleaseName } from '../naming.js';
import { cmp } from '../problems.js';
import { MAX_RELEASE_BYTES, verifyReleaseFile } from '../verify.js';
import { createExclusive, replaceAtomically } from './atomic-write.js';
import { StoreReason } from './types.js';
import type { ActiveName, ReleaseLoad, ReleaseSource } from './types.js';

const MAX_ACTIVE_BYTES = 256;

export interface FolderStoreOptions {
  /** Where the active-release pointer lives (default `<dir>/ACTIVE`). */
  readonly activeFile?: string;
}

export type PublishResult = { readonly release: string; readonly created: boolean };

/** Immutable release files in one folder plus the active pointer; loads are verified and cached by name. */
export class FolderReleaseStore implements ReleaseSource {
  readonly dir: string;
  readonly activeFile: string;
  readonly #cache = new Map<string, Release>();

  constructor(dir: string, options: FolderStoreOptions = {}) {
    this.dir = dir;
    this.activeFile = options.activeFile ?? join(dir, 'ACTIVE');
  }

  /** Names of the release files in the folder, sorted (unverified: use {@link load} to trust one). */
  list(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -'.json'.length))
      .filter(isReleaseName)
      .sort(cmp);
  }

  /** The verified release, or undefined when it is missing, unreadable or fails verification. */
  load(release: string): Release | undefined {
    const result = this.read(release);
    return result.ok ? result.release : undefined;
  }

  /** Like {@link load} but says why a release is unavailable. */
  read(release: string): ReleaseLoad {
    if (!isReleaseName(release)) return { ok: false, reason: StoreReason.InvalidName };
    const cached = this.#cache.get(release);
    if (cached !== undefined) return { ok: true, release: cached };
    const bytes = readBounded(join(this.dir, `${release}.json`), MAX_RELEASE_BYTES);
    if (!bytes.ok) return bytes;
    const verified = verifyReleaseFile(bytes.bytes);
    if (!verified.ok) return verified;
    if (verified.release.release !== release) return { ok: false, reason: StoreReason.NameMismatch };
    this.#cache.set(release, verified.release);
    return verified;
  }

  /** The active release name from the ACTIVE file. */
  readActive(): ActiveName {
    const bytes = readBounded(this.activeFile, MAX_ACTIVE_BYTES);
    if (!bytes.ok)
      return {
        ok: false,
        reason: bytes.reason === StoreReason.NotFound ? StoreReason.ActiveMissing : StoreReason.ActiveInvalid,
      };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.bytes);
    } catch {
      return { ok: false, reason: StoreReason.ActiveInvalid };
    }
    const name = text.endsWith('\n') ? text.slice(0, -1) : text;
    return isReleaseName(name) ? { ok: true, release: name } : { ok: false, reason: StoreReason.ActiveInvalid };
  }

  /**
   * Adds a release file. Releases are immutable: publishing the same bytes again is a no-op, a different file under
   * an existing name throws `release_immutable`; a file that does not verify throws `release_invalid`.
   */
  publish(file: ReleaseFile): PublishResult {
    const bytes = serializeReleaseFile(file);
    const verified = verifyReleaseFile(bytes);
    if (!verified.ok) throw new RimthanError('release_invalid', `release file does not verify (${verified.reason})`);
    const release = verified.release.release;
    const path = join(this.dir, `${release}.json`);
    mkdirSync(this.dir, { recursive: true });
    if (createExclusive(path, bytes)) return { release, created: true };
    const existing = readBounded(path, MAX_RELEASE_BYTES);
    if (existing.ok && Buffer.from(existing.bytes).equals(bytes)) return { release, created: false };
    throw new RimthanError('release_immutable', `release ${release} already exists with different content`);
  }

  /** Makes a verified release the active one (throws `release_unavailable` when it does not load). */
  activate(release: string): void {
    const loaded = this.read(release);
    if (!loaded.ok) throw new RimthanError('release_unavailable', `release cannot be activated (${loaded.reason})`);
    replaceAtomically(this.activeFile, new TextEncoder().encode(`${release}\n`));
  }
}

/** Reads a regular file of at most `max` bytes. */
function readBounded(path: string, max: number): { ok: true; bytes: Uint8Array } | { ok: false; reason: string } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { ok: false, reason: StoreReason.NotFound };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: StoreReason.NotFound };
    if (stat.size > max) return { ok: false, reason: 'release_too_large' };
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > stat.size) return { ok: false, reason: 'release_too_large' };
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch {
    return { ok: false, reason: StoreReason.NotFound };
  } finally {
    closeSync(fd);
  }
}
