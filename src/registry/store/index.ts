export { FolderReleaseStore } from './folder-store.js';
export type { FolderStoreOptions, PublishResult } from './folder-store.js';
export { ActiveReleaseChannel } from './active-channel.js';
export type { RefreshResult } from './active-channel.js';
export { packagedReleaseStore } from './packaged.js';
export { StoreReason } from './types.js';
export type { ActiveName, ReleaseLoad, ReleaseSource } from './types.js';
