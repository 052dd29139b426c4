/**
 * What `rimthan serve` serves, whichever profile built it (serve-workflow-engine.ts, serve-runs.ts): a server per
 * principal, the stdio principal, the release store and follower an Admin API reads, and how to close it all.
 */
import type { Server } from '@modelcontextprotocol/server';
import type { ReadinessProbe } from '../http/health.js';
import type { Principal } from '../identity/principal.js';
import type { ReleaseFollower, ReleaseStore } from '../registry/index.js';

export interface Serving {
  serverFor(principal: Principal): Server;
  /** The stdio principal (runs: the session id). */
  readonly stdioPrincipal: Principal;
  /** The release store and this replica's follower (workflow-engine profile). */
  readonly releases?: { readonly store: ReleaseStore; readonly follower: ReleaseFollower };
  /** What `/readyz` says while serving (default: ready once listening). */
  readonly readiness?: ReadinessProbe;
  close(): Promise<void>;
}
