/** The releases endpoints: list with channels, one release, a workflow version, a step, and a diff of two releases. */
import type { Release } from '../../registry/index.js';
import type { ReleaseListItem, ReleasesAnswer } from '../api-types.js';
import { releaseDiff } from './release-diff.js';
import { channelsOf, findWorkflow, releaseAnswer, stepAnswer, workflowAnswer } from './release-views.js';
import type { ConsoleContext } from '../http/context.js';
import { path, queryOf, reply } from '../http/router.js';
import type { Outcome, Route } from '../http/router.js';

function notFound(what: string): Outcome {
  return { ok: false, error: { code: 'not_found', message: `no such ${what}` } };
}

async function loaded(ctx: ConsoleContext, name: string): Promise<Release | Outcome> {
  const read = await ctx.releases.read(name);
  if (read.ok) return read.release;
  return read.reason === 'release_not_found' || read.reason === 'invalid_release_name'
    ? notFound('release')
    : { ok: false, error: { code: 'release_unavailable', message: `the release does not verify (${read.reason})` } };
}

const isOutcome = (value: Release | Outcome): value is Outcome => 'ok' in value;

async function listReleases(ctx: ConsoleContext): Promise<ReleasesAnswer> {
  const channels = await ctx.releases.channels();
  const releases: ReleaseListItem[] = [];
  for (const name of await ctx.releases.list()) {
    const read = await ctx.releases.read(name);
    const base = { release: name, channels: channelsOf(name, channels) };
    releases.push(
      read.ok
        ? {
            ...base,
            status: 'verified',
            registry_id: read.release.registry_id,
            manifest_sha256: read.release.manifest_sha256,
            workflows: read.release.workflows.map((w) => ({ id: w.id, version: w.version, title: w.title })),
          }
        : { ...base, status: read.reason, workflows: [] },
    );
  }
  return {
    store: ctx.releases.kind,
    active: channels.active,
    migration_target: channels.migration_target,
    ...(channels.migration_note === undefined ? {} : { migration_note: channels.migration_note }),
    releases,
    history: channels.history,
  };
}

/** A GET of one release (its name is the first path segment) answered by `answer` with the remaining segments. */
function releaseRoute(
  ctx: ConsoleContext,
  template: string,
  answer: (release: Release, rest: readonly string[]) => Outcome | Promise<Outcome>,
): Route {
  return {
    method: 'GET',
    pattern: path(template),
    async handle({ res, url, params }) {
      const query = queryOf(url, []);
      if (!query.ok) return reply(res, query);
      const release = await loaded(ctx, params[0] ?? '');
      reply(res, isOutcome(release) ? release : await answer(release, params.slice(1)));
    },
  };
}

export function releaseRoutes(ctx: ConsoleContext): Route[] {
  return [
    {
      method: 'GET',
      pattern: path('/api/releases'),
      async handle({ res, url }) {
        const query = queryOf(url, []);
        reply(res, query.ok ? { ok: true, value: await listReleases(ctx) } : query);
      },
    },
    releaseRoute(ctx, '/api/releases/:release', async (release) => ({
      ok: true,
      value: releaseAnswer(release, await ctx.releases.channels()),
    })),
    releaseRoute(ctx, '/api/releases/:release/workflows/:id/:version', (release, [id = '', version = '']) => {
      const workflow = findWorkflow(release, id, version);
      return workflow === undefined
        ? notFound('workflow version')
        : { ok: true, value: workflowAnswer(release, workflow) };
    }),
    releaseRoute(
      ctx,
      '/api/releases/:release/workflows/:id/:version/steps/:step',
      (release, [id = '', version = '', stepId]) => {
        const workflow = findWorkflow(release, id, version);
        const step = workflow?.steps.find((s) => s.id === stepId);
        return workflow === undefined || step === undefined
          ? notFound('step')
          : { ok: true, value: stepAnswer(release, workflow, step) };
      },
    ),
    {
      method: 'GET',
      pattern: path('/api/diff'),
      async handle({ res, url }) {
        const query = queryOf(url, ['from', 'to']);
        if (!query.ok) return reply(res, query);
        const { from, to } = query.values;
        if (from === undefined || to === undefined) {
          return reply(res, {
            ok: false,
            error: { code: 'invalid_arguments', message: 'name two releases: from and to' },
          });
        }
        const a = await loaded(ctx, from);
        if (isOutcome(a)) return reply(res, a);
        const b = await loaded(ctx, to);
        if (isOutcome(b)) return reply(res, b);
        reply(res, { ok: true, value: releaseDiff(a, b, ctx.scopes) });
      },
    },
  ];
}
