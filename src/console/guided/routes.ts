/**
 * `/api/me` (who the page talks as) and `/api/guided/inspect`: a session file, uploaded (`{"file": {...}}`) or read
 * from an allowed workspace (`{"workspace": N}`, an index into `--workspace`, never a path from the client), checked
 * by the guided tools and answered at a glance. Nothing of the file is kept once the answer is sent.
 */
import type { MeAnswer } from '../api-types.js';
import { readSessionFile, sessionFileOf } from './session-file.js';
import type { SessionRead } from './session-file.js';
import { inspectSession } from './session-view.js';
import { readJsonObject, sendError } from '../../http/index.js';
import type { ConsoleContext } from '../http/context.js';
import { invalid, path, queryOf, reply } from '../http/router.js';
import type { Route } from '../http/router.js';

export function guidedRoutes(ctx: ConsoleContext): Route[] {
  return [
    {
      method: 'GET',
      pattern: path('/api/me'),
      handle({ res, url, principal }) {
        const query = queryOf(url, []);
        const me: MeAnswer = {
          mode: principal.kind,
          session: principal.kind === 'caller' ? principal.session : (ctx.defaultSession ?? null),
          release_store: ctx.releases.kind,
          workspaces: ctx.workspaces.map((w, index) => ({ index, label: w.label })),
        };
        reply(res, query.ok ? { ok: true, value: me } : query);
        return Promise.resolve();
      },
    },
    {
      method: 'POST',
      pattern: path('/api/guided/inspect'),
      async handle({ req, res }) {
        const body = await readJsonObject(req, ctx.maxRequestBytes);
        if (body === 'gone') return;
        if (!body.ok) return sendError(res, body, body.code === 'too_large' ? { Connection: 'close' } : {});
        const keys = Object.keys(body.value);
        if (keys.length !== 1 || (keys[0] !== 'file' && keys[0] !== 'workspace')) {
          return reply(res, invalid('send exactly one of "file" (the session file) or "workspace" (its index)'));
        }
        let read: SessionRead;
        const index = body.value['workspace'];
        if (keys[0] === 'workspace') {
          const workspace = typeof index === 'number' && Number.isInteger(index) ? ctx.workspaces[index] : undefined;
          if (workspace === undefined)
            return reply(res, { ok: false, error: { code: 'not_found', message: 'no such workspace' } });
          read = readSessionFile(workspace.dir);
        } else {
          read = sessionFileOf(body.value['file'] ?? null);
        }
        if (!read.ok) return reply(res, invalid(read.message));
        const answer = await inspectSession(read.session, ctx.guided, async (name) => {
          const loaded = await ctx.releases.read(name);
          return loaded.ok ? loaded.release : undefined;
        });
        reply(res, { ok: true, value: answer });
      },
    },
  ];
}
