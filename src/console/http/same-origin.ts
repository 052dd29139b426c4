/**
 * The console's same-origin proof: a browser attaches the session cookie to whatever a page of the same site sends
 * (another port of localhost is the same site), so every request that changes something (sign-in, sign-out, any API
 * request but GET) must prove it comes from the console's own page, unless a bearer token authenticates it (a browser
 * never adds one to another page's request).
 *
 * The proof is `Sec-Fetch-Site: same-origin` (the browser sets it; no page can), or, from a client that sends no fetch
 * metadata at all, the sign-in's CSRF token in `X-Rimthan-Csrf` (compared in constant time). Any other
 * `Sec-Fetch-Site` (`same-site`, `cross-site`, `none`) is refused even with a token. A present Origin was already
 * checked against the console's own origins by src/http's guard.
 */
import type { IncomingMessage } from 'node:http';
import { CSRF_HEADER, sameSecret } from './auth.js';

/** True when `req` proves it comes from the console's own page; `csrf` is its sign-in's token, if it has one. */
export function provesSameOrigin(req: IncomingMessage, csrf: string | undefined): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const sent = req.headers[CSRF_HEADER];
  return csrf !== undefined && typeof sent === 'string' && sameSecret(sent, csrf);
}

/** The refusal of a request without the proof (the same words for sign-in, sign-out and the API). */
export const NOT_SAME_ORIGIN = {
  code: 'forbidden',
  message: "a request that changes something must come from the console's own page",
} as const;
