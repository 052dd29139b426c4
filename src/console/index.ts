/**
 * console: the web console (`rimthan console`). Releases drawn as graphs with their steps, adapters and diffs; runs
 * listed by session, followed live, resumed and cancelled; a guided session file checked at a glance. It works only
 * through the operations the tools use — the release store's read interface, the seven run tools, the guided tools —
 * and one read of the run store's session list (`listSessions`), never the stores otherwise, and serves a page built
 * into the package (no CDN, no network, strict Content-Security-Policy).
 */
export { startConsole, isLoopback } from './console.js';
export type { ConsoleOptions, RunningConsole } from './console.js';
export { folderConsoleStore, releaseProviderOf, releaseStoreConsole } from './releases/release-store.js';
export type { ConsoleChannels, ConsoleReleaseStore } from './releases/release-store.js';
export { readSessionFile, sessionFileOf, SESSION_FILE, MAX_SESSION_FILE_BYTES } from './guided/session-file.js';
export type { SessionFile, SessionRead } from './guided/session-file.js';
export { SESSION_PATTERN } from './runs/runs-api.js';
export type { ConsoleSessionStore } from './run-sessions/sessions-api.js';
export type * from './api-types.js';
export type { ConsoleFlows } from './runs/run-graph-load.js';
