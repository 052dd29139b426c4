/**
 * The Admin API listener on src/http: `GET /admin/healthz` (no credential needed; says nothing else, so a probe that
 * names the listener by its pod address is answered), then src/http's Host/Origin guard (the rule every listener
 * applies: a DNS rebinding page or another origin's page cannot drive it), the health pair every listener serves
 * (`GET /healthz`, `GET /readyz`: src/http/health.ts; no credential), the admin gate, and the route table (routes.ts).
 * Every answer is JSON (or Prometheus text) with
 * `Cache-Control: no-store`, errors as `{error: {code, message, ...}}` with the status table's status.
 *
 * Every route but healthz needs a principal with `rimthan:admin`. Nothing is logged per request. Without a release
 * store (the runs profile) only healthz, readyz (ready once listening) and metrics are served; the release routes
 * answer 404 `not_found`.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import {
  ALWAYS_READY,
  answerHealth,
  listen,
  matchRoute,
  RequestGuard,
  sendError,
  sendJson,
  sendMiss,
} from '../http/index.js';
import type { HttpTimeouts, MissWording, ReadinessProbe } from '../http/index.js';
import { bearerChallenge } from '../identity/index.js';
import type { Authenticator } from '../identity/index.js';
import { Refusal, storeRefusal } from './requests.js';
import { releaseRoutes, serviceRoutes } from './routes.js';
import type { AdminReleases, AdminRoute, MetricsSource } from './routes.js';
import { traceRequest } from './trace.js';
import type { AdminRequestTrace, AdminRequestTracer } from './trace.js';

export interface AdminServerOptions {
  readonly host?: string;
  readonly port: number;
  /** The listener's public names besides its own (`--allowed-host`; see src/http's guards.ts). */
  readonly allowedHosts?: readonly string[];
  /** Extra whole Origins accepted (`--allowed-origin`). */
  readonly allowedOrigins?: readonly string[];
  /** The release store and this replica's follower; none for the runs profile. */
  readonly releases?: AdminReleases;
  /** Who may call (see gate.ts). */
  readonly authenticator: Authenticator;
  readonly metrics: MetricsSource;
  readonly timeouts?: HttpTimeouts;
  readonly onFault?: (error: unknown) => void;
  /** Follows every request (tracing; trace.ts): its method, route template and status, never the caller. */
  readonly trace?: AdminRequestTracer;
  /** What the unauthenticated `GET /readyz` says (the process's readiness); default: ready once listening. */
  readonly readiness?: ReadinessProbe;
}

export interface AdminEndpoint {
  readonly url: string;
  readonly server: HttpServer;
  close(): Promise<void>;
}

/** The headers every Admin API answer carries. */
const ADMIN_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

const allowed = (allow: string): string => `method not allowed (allowed: ${allow})`;

/** The request listener (exported for embedding). */
export function adminRequestListener(opts: AdminServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const releases = opts.releases;
  const readiness = opts.readiness ?? ALWAYS_READY;
  const routes: readonly AdminRoute[] = [
    ...serviceRoutes(releases, opts.metrics),
    ...(releases === undefined ? [] : releaseRoutes(releases)),
  ];
  const misses: MissWording = {
    notFound: releases === undefined ? 'no such admin endpoint (no release store)' : 'no such admin endpoint',
    methodNotAllowed: allowed,
  };
  const guard = new RequestGuard({
    listenHost: opts.host ?? '127.0.0.1',
    allowedHosts: opts.allowedHosts ?? [],
    allowedOrigins: opts.allowedOrigins ?? [],
  });

  async function handle(req: IncomingMessage, res: ServerResponse, trace?: AdminRequestTrace): Promise<void> {
    for (const [name, value] of Object.entries(ADMIN_HEADERS)) res.setHeader(name, value);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return sendError(res, { code: 'not_found', message: 'no such admin endpoint' });
    }
    if (url.pathname === '/admin/healthz') {
      return req.method === 'GET'
        ? sendJson(res, 200, { status: 'ok' })
        : sendError(res, { code: 'method_not_allowed', message: allowed('GET') }, { Allow: 'GET' });
    }
    if (!guard.hostAllowed(req)) {
      req.resume();
      return sendError(res, { code: 'forbidden', message: 'host not allowed' });
    }
    if (!guard.originAllowed(req)) {
      req.resume();
      return sendError(res, { code: 'forbidden', message: 'origin not allowed' });
    }
    if (answerHealth(req, res, url.pathname, readiness)) return;
    const auth = await opts.authenticator.authenticate(req.headers.authorization);
    if (!auth.ok) {
      req.resume();
      const code = auth.status === 403 ? 'forbidden' : 'unauthorized';
      return sendError(
        res,
        { code, message: auth.message },
        { 'WWW-Authenticate': bearerChallenge(auth, { realm: 'rimthan-admin' }) },
      );
    }
    const match = matchRoute(routes, req.method ?? 'GET', url.pathname);
    if (match.kind !== 'found') return sendMiss(req, res, match, misses);
    trace?.route(match.route.route);
    try {
      await match.route.handle({ req, res, url, params: match.params, who: auth.principal });
    } catch (error) {
      if (error instanceof Refusal) {
        if (error.error.code === 'gone') return;
        req.resume();
        return sendError(res, error.error, error.headers);
      }
      const refusal = storeRefusal(error);
      if (refusal !== undefined) return sendError(res, refusal);
      throw error;
    }
  }

  const tracer = opts.trace;
  return (req, res) => {
    const trace = tracer === undefined ? undefined : traceRequest(tracer, req, res);
    handle(req, res, trace).catch((error: unknown) => {
      opts.onFault?.(error);
      sendError(res, { code: 'internal', message: 'internal error' });
    });
  };
}

/** Starts the admin listener; resolves once the port is bound. */
export async function startAdminServer(opts: AdminServerOptions): Promise<AdminEndpoint> {
  const listening = await listen(adminRequestListener(opts), {
    host: opts.host ?? '127.0.0.1',
    port: opts.port,
    ...(opts.timeouts === undefined ? {} : { timeouts: opts.timeouts }),
    // A malformed, oversized or timed-out request is answered in the Admin API's own error shape too.
    clientErrorShape: 'error',
  });
  return { url: `${listening.origin}/admin`, server: listening.server, close: () => listening.close() };
}
