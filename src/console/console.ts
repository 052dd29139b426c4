/**
 * Starts the web console: the release store's read interface, the seven run tools per session, the run store's
 * session list, the guided tools for session files, the page and its API on one listener. Credentials follow the listen address: on loopback without
 * tokens the operator signs in with the printed one-time link; tokens are required anywhere else.
 */
import { RimthanError } from '../core/index.js';
import type { TokenSigner } from '../core/index.js';
import type { RunTool } from '../tools/index.js';
import { guidedCaller } from './guided/guided-call.js';
import { ScopeCache } from './releases/release-diff.js';
import { releaseProviderOf } from './releases/release-store.js';
import type { ConsoleReleaseStore } from './releases/release-store.js';
import { ConsoleRuns } from './runs/runs-api.js';
import type { ConsoleFlows } from './runs/run-graph-load.js';
import { ConsoleSessions } from './run-sessions/sessions-api.js';
import type { ConsoleSessionStore } from './run-sessions/sessions-api.js';
import { guidedRoutes } from './guided/routes.js';
import { releaseRoutes } from './releases/routes.js';
import { runRoutes } from './runs/routes.js';
import { sessionRoutes } from './run-sessions/routes.js';
import { loadAssets } from './http/assets.js';
import { ConsoleAuth } from './http/auth.js';
import { StreamLimiter } from './http/context.js';
import type { ConsoleContext, Workspace } from './http/context.js';
import { startConsoleServer } from './http/server.js';

export interface ConsoleOptions {
  readonly host: string;
  readonly port: number;
  readonly releases: ConsoleReleaseStore;
  /** The seven run tools bound to one session of the run store. */
  readonly toolsFor: (session: string) => RunTool[];
  /** The run store's session list (the session picker); the run store itself fits. */
  readonly sessions: ConsoleSessionStore;
  /** Verifies checkpoints: the key ring the serving process signs with. */
  readonly signer: TokenSigner;
  /** Callers' bearer tokens (the admin side's); required beyond loopback. */
  readonly tokens?: readonly string[];
  readonly allowedHosts?: readonly string[];
  readonly allowedOrigins?: readonly string[];
  readonly workspaces?: readonly Workspace[];
  readonly defaultSession?: string;
  /** Body cap of every JSON request (the runs profile's, 1 MiB, by default). */
  readonly maxRequestBytes: number;
  /** Between two reads of a live run stream (default 250 ms). */
  readonly streamIntervalMs?: number;
  /** The flow catalog and run store the run pages' flow graphs read (read-only); without it they show none. */
  readonly flows?: ConsoleFlows;
  /** Where the built page lives (tests only; default: beside the compiled console). */
  readonly assetsDir?: string;
  readonly onFault?: (where: string, error: unknown) => void;
}

export interface RunningConsole {
  /** The address to open: with the one-time sign-in token in link mode, the page itself otherwise. */
  readonly url: string;
  readonly origin: string;
  /** Link mode: a fresh one-time link (the previous one stops working). */
  newLink(): string;
  close(): Promise<void>;
}

/** True for an address only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

export async function startConsole(opts: ConsoleOptions): Promise<RunningConsole> {
  const tokens = opts.tokens ?? [];
  const loopback = isLoopback(opts.host);
  if (!loopback && tokens.length === 0) {
    throw new RimthanError(
      'invalid_config',
      `the console on ${opts.host} needs credentials; without them, listen on 127.0.0.1`,
    );
  }
  const assets = loadAssets(opts.assetsDir);
  const auth = new ConsoleAuth({
    mode: tokens.length === 0 ? 'link' : 'tokens',
    tokens,
    secureCookie: !loopback,
  });
  const onFault = opts.onFault;
  const ctx: ConsoleContext = {
    releases: opts.releases,
    scopes: new ScopeCache(),
    runs: new ConsoleRuns(opts.toolsFor),
    sessions: new ConsoleSessions(
      opts.sessions,
      onFault === undefined ? undefined : (error: unknown) => onFault('sessions', error),
    ),
    guided: guidedCaller({
      releases: releaseProviderOf(opts.releases),
      signer: opts.signer,
      maxArgumentBytes: opts.maxRequestBytes,
      ...(onFault === undefined ? {} : { onFault: (tool: string, error: unknown) => onFault(tool, error) }),
    }),
    workspaces: opts.workspaces ?? [],
    defaultSession: opts.defaultSession,
    maxRequestBytes: opts.maxRequestBytes,
    streams: new StreamLimiter(),
    streamIntervalMs: opts.streamIntervalMs ?? 250,
    ...(opts.flows === undefined ? {} : { flows: opts.flows }),
  };
  const server = await startConsoleServer({
    host: opts.host,
    port: opts.port,
    // The loopback names and the listen address are the console's own (src/http's guard adds them, with the port).
    allowedHosts: opts.allowedHosts ?? [],
    allowedOrigins: opts.allowedOrigins ?? [],
    auth,
    assets,
    routes: [...releaseRoutes(ctx), ...runRoutes(ctx), ...sessionRoutes(ctx), ...guidedRoutes(ctx)],
    ...(onFault === undefined ? {} : { onFault: (error: unknown) => onFault('console', error) }),
  });
  const link = (): string => `${server.origin}/auth?token=${auth.issueLinkToken()}`;
  return {
    url: auth.mode === 'link' ? link() : `${server.origin}/`,
    origin: server.origin,
    newLink: link,
    close: () => server.close(),
  };
}
