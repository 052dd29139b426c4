/**
 * What the console reads of a release store, as one narrow asynchronous interface: the release names, one verified
 * release, and the channels (active, migration target, their history). `releaseStoreConsole` adapts any release store
 * (folder or PostgreSQL) with its channel history; `folderConsoleStore` is the same for a folder store. The console
 * never writes releases.
 */
import { RimthanError } from '../../core/index.js';
import type { ReleaseProvider } from '../../mcp/index.js';
import type { FolderReleaseStore, Release, ReleaseLoad, ReleaseStore } from '../../registry/index.js';
import type { ChannelChangeView } from '../api-types.js';

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

/** How many channel changes the console shows. */
const HISTORY_SHOWN = 50;

/** Any release store (folder or PostgreSQL): its releases, both channels and their history, newest first. */
export function releaseStoreConsole(store: ReleaseStore): ConsoleReleaseStore {
  return {
    kind: store.kind,
    list: async () => (await store.listReleases()).map((r) => r.release),
    read: (release) => store.loadRelease(release),
    channels: async () => {
      const [channels, history] = await Promise.all([
        store.readChannels(),
        store.channelHistory({ limit: HISTORY_SHOWN }),
      ]);
      const active = channels['active'];
      const target = channels['migration-target'];
      const migrationTarget = target.ok ? target.release : null;
      return {
        active: active.ok ? active.release : null,
        migration_target: migrationTarget,
        ...(migrationTarget === null
          ? { migration_note: 'no migration target is set: a migration request is refused' }
          : {}),
        history: history.map((c) => ({
          channel: c.channel,
          release: c.release,
          previous: c.previous,
          at: c.changed_at,
          by: c.changed_by,
        })),
      };
    },
  };
}

/** The folder release store (its MIGRATION_TARGET file and channel history included). */
export function folderConsoleStore(store: FolderReleaseStore): ConsoleReleaseStore {
  return releaseStoreConsole(store);
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
