/**
 * The API's routes (a method and a path pattern per endpoint, matched by src/http's route table; path segments are
 * checked before a handler sees them), closed query parameters (an unknown or repeated one is refused), the session a
 * request acts on, and one function that turns a tool-shaped outcome into the HTTP answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject } from '../../core/index.js';
import { SESSION_PATTERN } from '../runs/runs-api.js';
import type { ConsolePrincipal } from './auth.js';
import { sendError, sendJson } from '../../http/index.js';

export interface ApiRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly params: readonly string[];
  readonly principal: ConsolePrincipal;
}

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly pattern: RegExp;
  handle(request: ApiRequest): Promise<void>;
}

export type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly error: { readonly code: string; readonly message: string; readonly reason?: string };
    };

export interface ApiError {
  readonly code: string;
  readonly message: string;
}

/** `/api/releases/:release` → a pattern whose groups are the segments (src/http's SEGMENT). */
export { pathPattern as path } from '../../http/index.js';

/** Answers an outcome: the value as JSON (200), or the error with its code's status. */
export function reply(res: ServerResponse, outcome: Outcome): void {
  if (outcome.ok) sendJson(res, 200, outcome.value);
  else sendError(res, outcome.error);
}

export function invalid(message: string): { ok: false; error: ApiError } {
  return { ok: false, error: { code: 'invalid_arguments', message } };
}

/** The query parameters, each at most once and only from `allowed`. */
export function queryOf(
  url: URL,
  allowed: readonly string[],
): { ok: true; values: Record<string, string> } | { ok: false; error: ApiError } {
  const values: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (!allowed.includes(name)) return invalid(`unknown query parameter "${name.slice(0, 64)}"`);
    if (Object.hasOwn(values, name)) return invalid(`query parameter "${name}" is repeated`);
    if (value.length > 512) return invalid(`query parameter "${name}" is too long`);
    values[name] = value;
  }
  return { ok: true, values };
}

/**
 * The run-store session a request acts on. The operator (loopback link) names one (or gets the console's default);
 * a caller signed in with a token always acts on its own session: another one is `not_found`, like another session's
 * run, whether it exists or not.
 */
export function sessionFor(
  principal: ConsolePrincipal,
  requested: string | undefined,
  fallback: string | undefined,
): { ok: true; session: string } | { ok: false; error: ApiError } {
  if (principal.kind === 'caller') {
    if (requested !== undefined && requested !== principal.session) {
      return { ok: false, error: { code: 'not_found', message: 'session not found' } };
    }
    return { ok: true, session: principal.session };
  }
  const session = requested ?? fallback;
  if (session === undefined) return invalid('choose a session (argument "session")');
  if (!SESSION_PATTERN.test(session)) return invalid('argument "session" must be 1 to 256 printable ASCII characters');
  return { ok: true, session };
}

/** Splits a body into the console's `session` member and the rest (the tool's own arguments). */
export function withoutSession(
  body: JsonObject,
): { session: string | undefined; rest: JsonObject } | { error: ApiError } {
  const { session, ...rest } = body;
  if (session !== undefined && typeof session !== 'string')
    return { error: invalid('argument "session" must be a string').error };
  return { session, rest };
}
