/**
 * Which verified release a request runs against. The active release comes from the release source (which keeps the
 * last verified snapshot when a refresh is corrupt); a checkpoint or URI naming another release is served from that
 * pinned, immutable release, loaded on demand and cached with its engine scope.
 */
import { LruCache } from '../../core/index.js';
import type { Release } from '../../registry/model/index.js';
import { isSafeSegment } from './resource-uris.js';

/** Where releases come from: the active one and any published one by name. */
export interface ReleaseProvider {
  /** The active release (the last verified snapshot). */
  active(): Promise<Release>;
  /** A published release by name, verified; `undefined` when the store has no such release. */
  load(release: string): Promise<Release | undefined>;
  /**
   * The migration target (spec: `provider.migration_target`), loaded and verified separately from the active release;
   * `undefined` when none is set (or the provider has none), and then a `migration` request is refused.
   */
  migrationTarget?(): Promise<Release | undefined>;
}

/** A release with the engine scope built from it. */
export interface Scoped<S> {
  readonly release: Release;
  readonly scope: S;
}

/** Caches one scope per release (bounded; least recently used pinned scopes are dropped first). */
export class ReleaseScopes<S> {
  private readonly pinned: LruCache<string, Scoped<S>>;
  private activeScoped: Scoped<S> | undefined;

  constructor(
    private readonly source: ReleaseProvider,
    private readonly makeScope: (release: Release) => S,
    maxPinned = 16,
  ) {
    this.pinned = new LruCache(maxPinned);
  }

  /** The active release and its scope. */
  async active(): Promise<Scoped<S>> {
    const release = await this.source.active();
    const current = this.activeScoped;
    if (current !== undefined && current.release === release) return current;
    const cached = this.pinned.get(release.release);
    const next =
      cached !== undefined && cached.release.manifest_sha256 === release.manifest_sha256
        ? cached
        : { release, scope: this.makeScope(release) };
    this.activeScoped = next;
    this.remember(next);
    return next;
  }

  /** The migration target and its scope, or undefined when the provider has none. */
  async migrationTarget(): Promise<Scoped<S> | undefined> {
    const release = await this.source.migrationTarget?.();
    if (release === undefined) return undefined;
    const cached = this.pinned.get(release.release);
    if (cached !== undefined && cached.release.manifest_sha256 === release.manifest_sha256) return cached;
    const scoped = { release, scope: this.makeScope(release) };
    this.remember(scoped);
    return scoped;
  }

  /**
   * The release named `name` and its scope: the active one when the names agree, else the pinned release from the
   * store. `undefined` when the name is not a safe release name or the store has no such release.
   */
  async named(name: string): Promise<Scoped<S> | undefined> {
    const active = await this.active();
    if (active.release.release === name) return active;
    if (!isSafeSegment(name)) return undefined;
    const cached = this.pinned.get(name);
    if (cached !== undefined) return cached;
    const release = await this.source.load(name);
    if (release === undefined || release.release !== name) return undefined;
    const scoped = { release, scope: this.makeScope(release) };
    this.remember(scoped);
    return scoped;
  }

  private remember(scoped: Scoped<S>): void {
    this.pinned.set(scoped.release.release, scoped);
  }
}

/** Finds releases by name (active or pinned). */
export interface ReleaseLookup {
  activeRelease(): Promise<Release>;
  namedRelease(name: string): Promise<Release | undefined>;
}
