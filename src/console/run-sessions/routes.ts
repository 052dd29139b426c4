/**
 * `GET /api/sessions?after=&limit=`: the session picker's list. The operator pages through every session of the run
 * store; a caller gets its own session only (the principal decides, no parameter can widen it).
 */
import type { ConsoleContext } from '../http/context.js';
import { path, queryOf, reply } from '../http/router.js';
import type { Route } from '../http/router.js';

export function sessionRoutes(ctx: ConsoleContext): Route[] {
  return [
    {
      method: 'GET',
      pattern: path('/api/sessions'),
      async handle(r) {
        const query = queryOf(r.url, ['after', 'limit']);
        if (!query.ok) return reply(r.res, query);
        const own = r.principal.kind === 'caller' ? r.principal.session : undefined;
        reply(r.res, await ctx.sessions.page(own, query.values['after'], query.values['limit']));
      },
    },
  ];
}
