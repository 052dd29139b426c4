/**
 * The runs endpoints. Each resolves the session (the operator's choice, or the caller's own), then calls the run tool
 * with the request's arguments as they came (the tool decodes and refuses them); a run of another session is the
 * tool's `not_found`. Bodies are strict JSON objects under the size cap; the only member the console itself reads is
 * `session`.
 */
import type { JsonObject } from '../../core/index.js';
import { RunToolName } from '../../tools/index.js';
import { parseCursor, streamRunEvents } from './run-events.js';
import { loadRunGraph } from './run-graph-load.js';
import { readJsonObject, sendError } from '../../http/index.js';
import type { ConsoleContext } from '../http/context.js';
import { invalid, path, queryOf, reply, sessionFor, withoutSession } from '../http/router.js';
import type { ApiRequest, Route } from '../http/router.js';

/** Reads a POST body, splits off `session`; answers the refusal itself and returns undefined when there is one. */
async function bodyOf(ctx: ConsoleContext, r: ApiRequest): Promise<{ session: string; rest: JsonObject } | undefined> {
  const body = await readJsonObject(r.req, ctx.maxRequestBytes);
  if (body === 'gone') return undefined;
  if (!body.ok) {
    sendError(r.res, body, body.code === 'too_large' ? { Connection: 'close' } : {});
    return undefined;
  }
  const split = withoutSession(body.value);
  if ('error' in split) {
    sendError(r.res, split.error);
    return undefined;
  }
  const session = sessionFor(r.principal, split.session, ctx.defaultSession);
  if (!session.ok) {
    sendError(r.res, session.error);
    return undefined;
  }
  return { session: session.session, rest: split.rest };
}

/** The session named by the query (with the other allowed parameters), or the refusal already sent. */
function querySession(
  ctx: ConsoleContext,
  r: ApiRequest,
  allowed: readonly string[],
): { session: string; values: Record<string, string> } | undefined {
  const query = queryOf(r.url, ['session', ...allowed]);
  if (!query.ok) {
    reply(r.res, query);
    return undefined;
  }
  const session = sessionFor(r.principal, query.values['session'], ctx.defaultSession);
  if (!session.ok) {
    reply(r.res, session);
    return undefined;
  }
  return { session: session.session, values: query.values };
}

const INTEGER = /^(0|[1-9]\d{0,9})$/;

/** A body member the path already names may not be repeated in the body. */
function refusesRunId(r: ApiRequest, rest: JsonObject): boolean {
  if (rest['run_id'] === undefined) return false;
  reply(r.res, invalid('the run is named by the path; leave "run_id" out of the body'));
  return true;
}

export function runRoutes(ctx: ConsoleContext): Route[] {
  return [
    {
      method: 'GET',
      pattern: path('/api/definitions'),
      async handle(r) {
        const q = querySession(ctx, r, []);
        if (q !== undefined) reply(r.res, await ctx.runs.call(q.session, RunToolName.DefinitionList, {}));
      },
    },
    {
      method: 'GET',
      pattern: path('/api/runs'),
      async handle(r) {
        const q = querySession(ctx, r, ['status', 'definition', 'after']);
        if (q === undefined) return;
        const { status, definition, after } = q.values;
        reply(
          r.res,
          await ctx.runs.find(q.session, {
            ...(status === undefined || status === '' ? {} : { status }),
            ...(definition === undefined || definition === '' ? {} : { definition }),
            ...(after === undefined ? {} : { after }),
          }),
        );
      },
    },
    {
      method: 'POST',
      pattern: path('/api/runs'),
      async handle(r) {
        const body = await bodyOf(ctx, r);
        if (body !== undefined) reply(r.res, await ctx.runs.call(body.session, RunToolName.RunStart, body.rest));
      },
    },
    {
      method: 'GET',
      pattern: path('/api/runs/:run_id'),
      async handle(r) {
        const q = querySession(ctx, r, []);
        if (q !== undefined)
          reply(r.res, await ctx.runs.call(q.session, RunToolName.RunGet, { run_id: r.params[0] ?? '' }));
      },
    },
    {
      method: 'GET',
      pattern: path('/api/runs/:run_id/history'),
      async handle(r) {
        const q = querySession(ctx, r, ['after_revision', 'after_event_id', 'limit']);
        if (q === undefined) return;
        const args: JsonObject = { run_id: r.params[0] ?? '' };
        for (const name of ['after_revision', 'limit']) {
          const value = q.values[name];
          if (value === undefined) continue;
          if (!INTEGER.test(value)) return reply(r.res, invalid(`query parameter "${name}" must be an integer`));
          args[name] = Number(value);
        }
        if (q.values['after_event_id'] !== undefined) args['after_event_id'] = q.values['after_event_id'];
        reply(r.res, await ctx.runs.call(q.session, RunToolName.RunHistory, args));
      },
    },
    {
      method: 'GET',
      pattern: path('/api/runs/:run_id/graph'),
      async handle(r) {
        const q = querySession(ctx, r, []);
        if (q !== undefined) reply(r.res, await loadRunGraph(ctx.runs, ctx.flows, q.session, r.params[0] ?? ''));
      },
    },
    {
      method: 'GET',
      pattern: path('/api/runs/:run_id/events'),
      async handle(r) {
        const q = querySession(ctx, r, ['after']);
        if (q === undefined) return;
        const after = q.values['after'] ?? r.req.headers['last-event-id'];
        const cursor = after === undefined || after === '' ? undefined : parseCursor(String(after));
        if (after !== undefined && after !== '' && cursor === undefined) {
          return reply(r.res, invalid('"after" must be a cursor from this stream (revision.event_id)'));
        }
        const who = r.principal.kind === 'caller' ? r.principal.session : 'operator';
        const release = ctx.streams.acquire(who);
        if (release === undefined) {
          return reply(r.res, {
            ok: false,
            error: { code: 'too_many_streams', message: 'too many live streams are open' },
          });
        }
        try {
          await streamRunEvents(
            r.res,
            ctx.runs,
            q.session,
            r.params[0] ?? '',
            cursor,
            (error) => sendError(r.res, error),
            {
              intervalMs: ctx.streamIntervalMs,
            },
          );
        } finally {
          release();
        }
      },
    },
    {
      method: 'POST',
      pattern: path('/api/runs/:run_id/resume'),
      async handle(r) {
        const body = await bodyOf(ctx, r);
        if (body === undefined || refusesRunId(r, body.rest)) return;
        reply(
          r.res,
          await ctx.runs.call(body.session, RunToolName.RunResume, { ...body.rest, run_id: r.params[0] ?? '' }),
        );
      },
    },
    {
      method: 'POST',
      pattern: path('/api/runs/:run_id/cancel'),
      async handle(r) {
        const body = await bodyOf(ctx, r);
        if (body === undefined || refusesRunId(r, body.rest)) return;
        reply(
          r.res,
          await ctx.runs.call(body.session, RunToolName.RunCancel, { ...body.rest, run_id: r.params[0] ?? '' }),
        );
      },
    },
  ];
}
