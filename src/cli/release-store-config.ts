/**
 * The release store `rimthan serve` and `rimthan console` open: `--releases DIR` (a folder store), `--releases
 * postgres://…[?schema=NAME]` (the shared PostgreSQL store), or the packaged releases. `serve` follows it with a
 * ReleaseFollower (notifications plus a poll); its events become log lines (serve-observability.ts).
 */
import type { FollowerEvents, ReleaseStore } from '../registry/store/index.js';
// The store modules, not the registry's index: serving never needs the authoring loader (and its YAML parser).
import {
  FolderReleaseStore,
  packagedReleaseStore,
  parseReleaseStoreSpec,
  PostgresReleaseStore,
  ReleaseFollower,
} from '../registry/store/index.js';
import { CommandFailed, reasonOf } from './errors.js';
import { existingFolder } from './files.js';
import type { CliIo } from './io.js';
import { maskStoreSpec } from './mask-store-spec.js';

/** How often a replica polls the channels: the folder store once a second, PostgreSQL (also notified) every 5 s. */
export const RELEASE_POLL_MS = { folder: 1000, postgres: 5000 } as const;

/** Opens the store `--releases` names (undefined: the packaged releases); failures name the setting, masked. */
export async function openReleaseStore(spec: string | undefined, io: CliIo): Promise<ReleaseStore> {
  if (spec === undefined) return packagedReleaseStore();
  let location;
  try {
    location = parseReleaseStoreSpec(spec);
  } catch (error) {
    throw new CommandFailed('store_invalid', `--releases ${maskStoreSpec(spec)}: ${reasonOf(error)}`);
  }
  if (location.kind === 'folder') {
    return new FolderReleaseStore(existingFolder(location.path, io.cwd, 'a release store', `--releases ${spec}`));
  }
  const shown = maskStoreSpec(spec);
  const store = new PostgresReleaseStore({
    connectionString: location.connectionString,
    schema: location.schema,
    location: shown,
  });
  try {
    await store.open();
  } catch (error) {
    throw new CommandFailed('store_unavailable', `cannot open the release store ${shown}: ${reasonOf(error)}`, {
      cause: error,
    });
  }
  return store;
}

/**
 * Follows `store`; a store without a verified active release is a failure naming it, unless `allowEmpty` (a service
 * with an Admin API starts empty and becomes ready once a release is activated). Closes the store on failure.
 */
export async function followReleases(
  store: ReleaseStore,
  events: FollowerEvents & { arm?(): void },
  opts: { readonly allowEmpty?: boolean } = {},
): Promise<ReleaseFollower> {
  try {
    const follower = await ReleaseFollower.start(store, {
      pollIntervalMs: store.kind === 'postgres' ? RELEASE_POLL_MS.postgres : RELEASE_POLL_MS.folder,
      events,
      allowEmpty: opts.allowEmpty === true,
    });
    events.arm?.();
    return follower;
  } catch (error) {
    await store.close();
    if ((error as { code?: unknown }).code === 'no_active_release') {
      throw new CommandFailed(
        'no_active_release',
        `${reasonOf(error)}: publish and activate one (rimthan admin publish FILE, rimthan admin activate RELEASE)`,
        { cause: error },
      );
    }
    throw new CommandFailed(
      'store_unavailable',
      `cannot read the release store ${store.location}: ${reasonOf(error)}`,
      {
        cause: error,
      },
    );
  }
}
