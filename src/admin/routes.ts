/**
 * The Admin API's route table: one small handler per route. Handlers answer with src/http's JSON and throw a
 * `Refusal` (requests.ts) for a refused request; a store's RimthanError is answered by the listener with its code.
 *
 *   GET    /admin/readyz                       a verified active release is served; `degraded` with the reason
 *   GET    /admin/metrics                      Prometheus text from the injected source
 *   GET    /admin/releases                     every stored release
 *   POST   /admin/releases                     publish a built release file (201 created, 200 the same bytes again)
 *   GET    /admin/releases/{release}           one release: digests, workflows, published at/by, channels
 *   GET    /admin/channels                     what `active` and `migration-target` name
 *   GET    /admin/channels/history             channel changes, newest first (`?channel=&limit=`)
 *   GET    /admin/audit                        audited actions, newest first (`?limit=`)
 *   PUT    /admin/channels/{channel}           `{"release", "expected_current"?}`: compare-and-swap (stale → 409)
 *   DELETE /admin/channels/migration-target    clear the migration target (`?expected_current=` optional)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathPattern, sendBody, sendJson } from '../http/index.js';
import type { Principal } from '../identity/index.js';
import { isReleaseChannel, isReleaseName, ReleaseChannel } from '../registry/index.js';
import type { ReleaseFollower, ReleaseStore } from '../registry/index.js';
import { ADMIN_LIMITS, bodyBytes, channelRequest, jsonBody, limitOf, refuse } from './requests.js';
import { channelViews, releaseDetail, releaseRow } from './views.js';

/** Where `GET /admin/metrics` comes from (the process's ServiceMetrics). */
export interface MetricsSource {
  readonly contentType: string;
  render(): Promise<string>;
}

/** The release store and this replica's follower (readyz; refreshed at once after a change made here). */
export interface AdminReleases {
  readonly store: ReleaseStore;
  readonly follower: ReleaseFollower;
}

/** One authenticated request, as a handler sees it. */
export interface AdminRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly params: readonly string[];
  readonly who: Principal;
}

export interface AdminRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path template (`/admin/releases/:release`): low-cardinality, for a trace's `http.route`. */
  readonly route: string;
  readonly pattern: RegExp;
  handle(request: AdminRequest): Promise<void>;
}

/** A route's template and the pattern it matches (see pathPattern). */
function at(template: string, segment?: string): { route: string; pattern: RegExp } {
  return { route: template, pattern: pathPattern(template, segment) };
}

/** readyz and metrics: served with or without a release store. */
export function serviceRoutes(releases: AdminReleases | undefined, metrics: MetricsSource): AdminRoute[] {
  return [
    {
      method: 'GET',
      ...at('/admin/readyz'),
      handle: ({ res }) => {
        readyz(res, releases);
        return Promise.resolve();
      },
    },
    {
      method: 'GET',
      ...at('/admin/metrics'),
      async handle({ res }) {
        sendBody(res, 200, await metrics.render(), metrics.contentType);
      },
    },
  ];
}

function readyz(res: ServerResponse, releases: AdminReleases | undefined): void {
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
  sendJson(res, 200, {
    status: s.degraded === null ? 'ready' : 'degraded',
    ...(s.degraded === null ? {} : { reason: s.degraded }),
    active: s.active,
    migration_target: s.migration_target,
    last_refresh_at: s.last_refresh_at,
  });
}

/** The release and channel routes (a release store is configured). */
export function releaseRoutes({ store, follower }: AdminReleases): AdminRoute[] {
  const afterChange = (): Promise<void> => follower.refresh().catch(() => undefined);
  return [
    {
      method: 'GET',
      ...at('/admin/releases'),
      async handle({ res }) {
        const [infos, channels] = await Promise.all([store.listReleases(), store.readChannels()]);
        sendJson(res, 200, { releases: infos.map((i) => releaseRow(i, channels)) });
      },
    },
    {
      method: 'POST',
      ...at('/admin/releases'),
      async handle({ req, res, who }) {
        const outcome = await store.publishRelease(await bodyBytes(req, ADMIN_LIMITS.releaseBytes), who.id);
        sendJson(res, outcome.created ? 201 : 200, outcome);
      },
    },
    {
      method: 'GET',
      ...at('/admin/releases/:release', '([^/]+)'),
      async handle({ res, params }) {
        const name = decodeURIComponent(params[0] ?? '');
        const info = isReleaseName(name) ? await store.releaseInfo(name) : undefined;
        if (info === undefined) throw refuse('not_found', 'no such release in the store');
        const [loaded, channels] = await Promise.all([store.loadRelease(name), store.readChannels()]);
        sendJson(res, 200, { release: releaseDetail(info, loaded, channels) });
      },
    },
    {
      method: 'GET',
      ...at('/admin/channels'),
      async handle({ res }) {
        sendJson(res, 200, { channels: channelViews(await store.readChannels()) });
      },
    },
    {
      method: 'GET',
      ...at('/admin/channels/history'),
      async handle({ res, url }) {
        const channel = url.searchParams.get('channel');
        if (channel !== null && !isReleaseChannel(channel)) {
          throw refuse('invalid_arguments', 'channel must be active or migration-target');
        }
        const limit = limitOf(url);
        const history = await store.channelHistory({
          ...(channel === null ? {} : { channel }),
          ...(limit === undefined ? {} : { limit }),
        });
        sendJson(res, 200, { history });
      },
    },
    {
      method: 'GET',
      ...at('/admin/audit'),
      async handle({ res, url }) {
        const limit = limitOf(url);
        sendJson(res, 200, { audit: await store.auditTrail(limit === undefined ? {} : { limit }) });
      },
    },
    ...[ReleaseChannel.Active, ReleaseChannel.MigrationTarget].map((channel): AdminRoute => ({
      method: 'PUT',
      ...at(`/admin/channels/${channel}`),
      async handle({ req, res, who }) {
        const request = channelRequest(await jsonBody(req));
        const change = await store.setChannel({
          channel,
          release: request.release,
          ...(request.expectedCurrent === undefined ? {} : { expectedCurrent: request.expectedCurrent }),
          actor: who.id,
        });
        await afterChange();
        sendJson(res, 200, { change });
      },
    })),
    {
      method: 'DELETE',
      ...at(`/admin/channels/${ReleaseChannel.MigrationTarget}`),
      async handle({ res, url, who }) {
        const expected = url.searchParams.get('expected_current');
        if (expected !== null && !isReleaseName(expected)) {
          throw refuse('invalid_arguments', 'expected_current must be a release name');
        }
        const change = await store.setChannel({
          channel: ReleaseChannel.MigrationTarget,
          release: null,
          ...(expected === null ? {} : { expectedCurrent: expected }),
          actor: who.id,
        });
        await afterChange();
        sendJson(res, 200, { change });
      },
    },
  ];
}
