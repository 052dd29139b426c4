/**
 * A small route table: a method and a path pattern per route, the first route whose pattern and method match wins,
 * its pattern's groups are the params. A path no route matches is `not_found`; a path some route matches under
 * another method is `method_not_allowed` with the methods allowed there (for the `Allow` header).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './respond.js';
import type { ResponseHeaders } from './respond.js';

/** A path segment: release names, ids, versions, step ids and UUIDs all fit; never `/`, never a leading dot. */
export const SEGMENT = '([A-Za-z0-9][A-Za-z0-9._@+-]{0,127})';

/** `/api/releases/:release` → a pattern whose groups are the segments (each `:name` matches `segment`). */
export function pathPattern(template: string, segment: string = SEGMENT): RegExp {
  return new RegExp(`^${template.replace(/:[a-z_]+/g, segment)}$`);
}

/** What the table needs of a route; the handler's shape is the listener's own. */
export interface RouteLike {
  readonly method: string;
  readonly pattern: RegExp;
}

export type RouteMatch<R extends RouteLike> =
  | { readonly kind: 'found'; readonly route: R; readonly params: readonly string[] }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'method_not_allowed'; readonly allow: string };

/** The route for `method` and `path`, or why there is none. */
export function matchRoute<R extends RouteLike>(routes: readonly R[], method: string, path: string): RouteMatch<R> {
  const candidates = routes.filter((r) => r.pattern.test(path));
  if (candidates.length === 0) return { kind: 'not_found' };
  const route = candidates.find((r) => r.method === method);
  if (route === undefined) {
    return { kind: 'method_not_allowed', allow: [...new Set(candidates.map((c) => c.method))].join(', ') };
  }
  return { kind: 'found', route, params: (route.pattern.exec(path) ?? []).slice(1) };
}

/** How a listener words its misses. */
export interface MissWording {
  readonly notFound: string;
  readonly methodNotAllowed: (allow: string) => string;
}

/** Answers a miss: 404 `not_found`, or 405 `method_not_allowed` with `Allow`; the request body is drained unread. */
export function sendMiss(
  req: IncomingMessage,
  res: ServerResponse,
  miss: Exclude<RouteMatch<RouteLike>, { kind: 'found' }>,
  wording: MissWording,
  headers: ResponseHeaders = {},
): void {
  req.resume();
  if (miss.kind === 'not_found') return sendError(res, { code: 'not_found', message: wording.notFound }, headers);
  sendError(
    res,
    { code: 'method_not_allowed', message: wording.methodNotAllowed(miss.allow) },
    { ...headers, Allow: miss.allow },
  );
}
