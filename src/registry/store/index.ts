export { FolderReleaseStore } from './folder-store.js';
export type { FolderStoreOptions, PublishResult } from './folder-store.js';
export { PostgresReleaseStore, DEFAULT_RELEASE_SCHEMA } from './postgres-store.js';
export type { PostgresReleaseStoreOptions } from './postgres-store.js';
export { RELEASE_STORE_MIGRATIONS } from './postgres-migrations.js';
export { parseReleaseStoreSpec, isPostgresSpec } from './open.js';
export type { ReleaseStoreLocation } from './open.js';
export { ActiveReleaseChannel } from './active-channel.js';
export type { RefreshResult } from './active-channel.js';
export { ReleaseFollower, FOLLOWER_DEFAULTS } from './follower.js';
export type { FollowerEvents, FollowerOptions, FollowerState } from './follower.js';
export { packagedReleaseStore } from './packaged.js';
export { ReleaseStoreRefusal } from './refusals.js';
export {
  AuditAction,
  HISTORY_LIMITS,
  isReleaseChannel,
  RELEASE_CHANNELS,
  ReleaseChannel,
  StoreReason,
} from './types.js';
export type {
  ActiveName,
  AuditEntry,
  ChannelChange,
  ChannelRead,
  ChannelsRead,
  ChannelUpdate,
  PublishOutcome,
  ReleaseInfo,
  ReleaseLoad,
  ReleaseSource,
  ReleaseStore,
} from './types.js';
