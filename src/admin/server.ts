/**
 * The Admin API listener (`node:http`, no framework). Routes:
 *
 *   GET    /admin/healthz                      process up (no credential needed; says nothing else)
 *   GET    /admin/readyz                       a verified active release is served; `degraded` with the reason
 *   GET    /admin/metrics                      Prometheus text from the injected source
 *   GET    /admin/releases                     every stored release
 *   POST   /admin/releases                     publish a built release file (201 created, 200 the same bytes again)
 *   GET    /admin/releases/{release}           one release: digests, workflows, published at/by, channels
 *   GET    /admin/channels                     what `active` and `migration-target` name
 *   PUT    /admin/channels/{channel}           `{"release", "expected_current"?}`: compare-and-swap (stale → 409)
 *   DELETE /admin/channels/migration-target    clear the migration target (`?expected_current=` optional)
 *   GET    /admin/channels/history             channel changes, newest first (`?channel=&limit=`)
 *   GET    /admin/audit                        audited actions, newest first (`?limit=`)
 *
 * Every route but healthz needs a principal with `rimthan:admin`. Nothing is logged per request. Without a release
 * store (the runs profile) only healthz, readyz (ready once listening) and metrics are served; the release routes
 * answer 404 `not_found`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { isJsonObject, isRimthanError, parseStrictJsonBytes } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { readBytes } from '../console/http/body.js';
import { bearerChallenge } from '../identity/index.js';
import type { Authenticator, Principal } from '../identity/index.js';
import { hardenHttpServer, listenHttp } from '../mcp/index.js';
import type { HttpTimeouts } from '../mcp/index.js';
import { isReleaseChannel, isReleaseName, MAX_RELEASE_BYTES, ReleaseChannel } from '../registry/index.js';
import type { ReleaseFollower, ReleaseStore } from '../registry/index.js';
import { sendBody, sendError, sendJson } from './respond.js';
import type { AdminError } from './respond.js';
import { channelViews, releaseDetail, releaseRow } from './views.js';

/** Where `GET /admin/metrics` comes from (the process's ServiceMetrics). */
export interface MetricsSource {
  readonly contentType: string;
  render(): Promise<string>;
}

export const ADMIN_LIMITS = {
  /** A release file: the same cap `verifyReleaseFile` applies. */
  releaseBytes: MAX_RELEASE_BYTES,
  /** Any other JSON body (a channel change). */
  jsonBytes: 16 * 1024,
} as const;

export interface AdminServerOptions {
  readonly host?: string;
  readonly port: number;
  /** The release store and this replica's follower (readyz; refreshed at once after a change made here); none for
   * the runs profile. */
  readonly releases?: { readonly store: ReleaseStore; readonly follower: ReleaseFollower };
  /** Who may call (see gate.ts). */
  readonly authenticator: Authenticator;
  readonly metrics: MetricsSource;
  readonly timeouts?: HttpTimeouts;
  readonly onFault?: (error: unknown) => void;
}

export interface AdminEndpoint {
  readonly url: string;
  readonly server: HttpServer;
  close(): Promise<void>;
}

const refuse = (code: string, message: string, extra: Omit<AdminError, 'code' | 'message'> = {}): AdminError => ({
  code,
  message,
  ...extra,
});

class Refusal extends Error {
  constructor(
    readonly error: AdminError,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.message);
  }
}

/** A store refusal (a RimthanError with a stable code) as an admin error; anything else is a fault. */
function storeRefusal(error: unknown): AdminError | undefined {
  if (!isRimthanError(error)) return undefined;
  const e = error as { reason?: unknown; entry?: unknown };
  return refuse(error.code, error.message, {
    ...(typeof e.reason === 'string' ? { reason: e.reason } : {}),
    ...(typeof e.entry === 'string' ? { entry: e.entry } : {}),
  });
}

async function body(req: IncomingMessage, max: number): Promise<Buffer> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    throw new Refusal(refuse('unsupported_media_type', 'the body must be application/json'));
  }
  const bytes = await readBytes(req, max);
  if (bytes === 'gone') throw new Refusal(refuse('gone', 'the client went away'));
  if (bytes === 'too_large') throw new Refusal(refuse('too_large', `the body exceeds ${max} bytes`));
  return bytes;
}

async function jsonBody(req: IncomingMessage): Promise<JsonObject> {
  const bytes = await body(req, ADMIN_LIMITS.jsonBytes);
  const parsed = parseStrictJsonBytes(bytes, { maxBytes: ADMIN_LIMITS.jsonBytes });
  if (!parsed.ok) throw new Refusal(refuse('parse_error', 'the body is not one strict JSON document'));
  if (!isJsonObject(parsed.value)) throw new Refusal(refuse('invalid_arguments', 'the body must be a JSON object'));
  return parsed.value;
}

/** `{"release": NAME, "expected_current"?: NAME|null}` and nothing else. */
function channelRequest(value: JsonObject): { release: string; expectedCurrent?: string | null } {
  for (const key of Object.keys(value)) {
    if (key !== 'release' && key !== 'expected_current') {
      throw new Refusal(refuse('invalid_arguments', `unknown field ${JSON.stringify(key).slice(0, 64)}`));
    }
  }
  const release = value['release'];
  if (typeof release !== 'string' || !isReleaseName(release)) {
    throw new Refusal(refuse('invalid_arguments', 'release must be a release name'));
  }
  if (!('expected_current' in value)) return { release };
  const expected = value['expected_current'];
  if (expected !== null && (typeof expected !== 'string' || !isReleaseName(expected))) {
    throw new Refusal(refuse('invalid_arguments', 'expected_current must be a release name or null'));
  }
  return { release, expectedCurrent: expected };
}

function limitOf(url: URL): number | undefined {
  const raw = url.searchParams.get('limit');
  if (raw === null) return undefined;
  if (!/^\d{1,4}$/.test(raw)) throw new Refusal(refuse('invalid_arguments', 'limit must be an integer from 1 to 1000'));
  return Number(raw);
}

function methodNotAllowed(allow: string): never {
  throw new Refusal(
    { code: 'method_not_allowed', message: `method not allowed (allowed: ${allow})` },
    { Allow: allow },
  );
}

/** The request listener (exported for embedding). */
export function adminRequestListener(opts: AdminServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const releases = opts.releases;

  async function route(req: IncomingMessage, res: ServerResponse, url: URL, who: Principal): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/admin/readyz') {
      if (method !== 'GET') methodNotAllowed('GET');
      if (releases === undefined) return sendJson(res, 200, { status: 'ready' });
      const s = releases.follower.state();
      if (s.active === null) {
        return sendJson(res, 503, {
          status: 'not_ready',
          reason: s.degraded ?? 'no verified active release',
          active: null,
          migration_target: s.migration_target,
          last_refresh_at: s.last_refresh_at,
        });
      }
      return sendJson(res, 200, {
        status: s.degraded === null ? 'ready' : 'degraded',
        ...(s.degraded === null ? {} : { reason: s.degraded }),
        active: s.active,
        migration_target: s.migration_target,
        last_refresh_at: s.last_refresh_at,
      });
    }
    if (path === '/admin/metrics') {
      if (method !== 'GET') methodNotAllowed('GET');
      return sendBody(res, 200, await opts.metrics.render(), opts.metrics.contentType);
    }
    if (releases === undefined) throw new Refusal(refuse('not_found', 'no such admin endpoint (no release store)'));
    await releaseRoute(req, res, url, who, releases);
  }

  async function releaseRoute(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    who: Principal,
    { store, follower }: NonNullable<AdminServerOptions['releases']>,
  ): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const afterChange = (): Promise<void> => follower.refresh().catch(() => undefined);
    if (path === '/admin/releases') {
      if (method === 'GET') {
        const [infos, channels] = await Promise.all([store.listReleases(), store.readChannels()]);
        return sendJson(res, 200, { releases: infos.map((i) => releaseRow(i, channels)) });
      }
      if (method !== 'POST') methodNotAllowed('GET, POST');
      const bytes = await body(req, ADMIN_LIMITS.releaseBytes);
      const outcome = await store.publishRelease(bytes, who.id);
      return sendJson(res, outcome.created ? 201 : 200, outcome);
    }
    const releaseMatch = /^\/admin\/releases\/([^/]+)$/.exec(path);
    if (releaseMatch !== null) {
      if (method !== 'GET') methodNotAllowed('GET');
      const name = decodeURIComponent(releaseMatch[1] ?? '');
      const info = isReleaseName(name) ? await store.releaseInfo(name) : undefined;
      if (info === undefined) throw new Refusal(refuse('not_found', 'no such release in the store'));
      const [loaded, channels] = await Promise.all([store.loadRelease(name), store.readChannels()]);
      return sendJson(res, 200, { release: releaseDetail(info, loaded, channels) });
    }
    if (path === '/admin/channels') {
      if (method !== 'GET') methodNotAllowed('GET');
      return sendJson(res, 200, { channels: channelViews(await store.readChannels()) });
    }
    if (path === '/admin/channels/history') {
      if (method !== 'GET') methodNotAllowed('GET');
      const channel = url.searchParams.get('channel');
      if (channel !== null && !isReleaseChannel(channel)) {
        throw new Refusal(refuse('invalid_arguments', 'channel must be active or migration-target'));
      }
      const limit = limitOf(url);
      const history = await store.channelHistory({
        ...(channel === null ? {} : { channel }),
        ...(limit === undefined ? {} : { limit }),
      });
      return sendJson(res, 200, { history });
    }
    if (path === '/admin/audit') {
      if (method !== 'GET') methodNotAllowed('GET');
      const limit = limitOf(url);
      return sendJson(res, 200, { audit: await store.auditTrail(limit === undefined ? {} : { limit }) });
    }
    const channelMatch = /^\/admin\/channels\/([a-z-]+)$/.exec(path);
    if (channelMatch !== null && isReleaseChannel(channelMatch[1] ?? '')) {
      const channel = channelMatch[1] as ReleaseChannel;
      if (method === 'PUT') {
        const request = channelRequest(await jsonBody(req));
        const change = await store.setChannel({
          channel,
          release: request.release,
          ...(request.expectedCurrent === undefined ? {} : { expectedCurrent: request.expectedCurrent }),
          actor: who.id,
        });
        await afterChange();
        return sendJson(res, 200, { change });
      }
      if (method === 'DELETE' && channel === ReleaseChannel.MigrationTarget) {
        const expected = url.searchParams.get('expected_current');
        if (expected !== null && !isReleaseName(expected)) {
          throw new Refusal(refuse('invalid_arguments', 'expected_current must be a release name'));
        }
        const change = await store.setChannel({
          channel,
          release: null,
          ...(expected === null ? {} : { expectedCurrent: expected }),
          actor: who.id,
        });
        await afterChange();
        return sendJson(res, 200, { change });
      }
      methodNotAllowed(channel === ReleaseChannel.MigrationTarget ? 'PUT, DELETE' : 'PUT');
    }
    throw new Refusal(refuse('not_found', 'no such admin endpoint'));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return sendError(res, refuse('not_found', 'no such admin endpoint'));
    }
    if (url.pathname === '/admin/healthz') {
      return req.method === 'GET'
        ? sendJson(res, 200, { status: 'ok' })
        : sendError(res, refuse('method_not_allowed', 'method not allowed (allowed: GET)'), { Allow: 'GET' });
    }
    const auth = await opts.authenticator.authenticate(req.headers.authorization);
    if (!auth.ok) {
      req.resume();
      const code = auth.status === 403 ? 'forbidden' : 'unauthorized';
      return sendError(res, refuse(code, auth.message), {
        'WWW-Authenticate': bearerChallenge(auth, { realm: 'rimthan-admin' }),
      });
    }
    try {
      await route(req, res, url, auth.principal);
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

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      opts.onFault?.(error);
      sendError(res, refuse('internal', 'internal error'));
    });
  };
}

/** Starts the admin listener; resolves once the port is bound. */
export async function startAdminServer(opts: AdminServerOptions): Promise<AdminEndpoint> {
  const server = createServer({ requireHostHeader: false }, adminRequestListener(opts));
  hardenHttpServer(server, opts.timeouts);
  const host = opts.host ?? '127.0.0.1';
  const bound = await listenHttp(server, opts.port, host);
  return { url: `${bound.origin}/admin`, server, close: () => bound.close() };
}
