/**
 * What the console reads of a release store, as one narrow asynchronous interface: the release names, one verified
 * release, and the channels (active, migration target, their history). The folder store implements it today; a store
 * with channels (PostgreSQL) implements the same four members and drops in. The console never writes releases.
 */
import { RimthanError } from '../core/index.js';
import type { ReleaseProvider } from '../mcp/index.js';
import type { FolderReleaseStore, Release, ReleaseLoad } from '../registry/index.js';
import type { ChannelChangeView } from './api-types.js';

export interface ConsoleChannels {
  readonly active: string | null;
  readonly migration_target: string | null;
  /** What a migration moves to when the store has no migration-target channel. */
  readonly migration_note?: string;
  readonly history: readonly ChannelChangeView[];
}

export interface ConsoleReleaseStore {
  /** A short description of the store for the page (`folder`, `postgres`). */
  readonly kind: string;
  /** Every release name in the store, sorted (unverified until read). */
  list(): Promise<readonly string[]>;
  /** One release, verified exactly as the server verifies it, or why it is unavailable. */
  read(release: string): Promise<ReleaseLoad>;
  channels(): Promise<ConsoleChannels>;
}

/** The folder release store: no migration-target channel and no channel history (a plain `ACTIVE` file). */
export function folderConsoleStore(store: FolderReleaseStore): ConsoleReleaseStore {
  return {
    kind: 'folder',
    list: () => Promise.resolve(store.list()),
    read: (release) => Promise.resolve(store.read(release)),
    channels: () => {
      const active = store.readActive();
      return Promise.resolve({
        active: active.ok ? active.release : null,
        migration_target: null,
        migration_note: 'this folder store has no migration-target channel: a migration moves to the active release',
        history: [],
      });
    },
  };
}

/**
 * The store as the guided engine's release provider: checkpoints are routed to the release they are pinned to
 * (`load`); `active` is the release the active channel names.
 */
export function releaseProviderOf(store: ConsoleReleaseStore): ReleaseProvider {
  return {
    async active(): Promise<Release> {
      const { active } = await store.channels();
      const loaded = active === null ? undefined : await store.read(active);
      if (loaded === undefined || !loaded.ok) {
        throw new RimthanError('no_active_release', 'the release store has no verified active release');
      }
      return loaded.release;
    },
    async load(release: string): Promise<Release | undefined> {
      const loaded = await store.read(release);
      return loaded.ok ? loaded.release : undefined;
    },
  };
}
