/**
 * The console's same-origin proof. A browser attaches the session cookie to whatever a page of the same site sends,
 * and another port of localhost is the same site (it may even plant a cookie of its own: cookies ignore ports). So
 * every request that changes something and is not bearer-authenticated (a browser never adds a bearer token to another
 * page's request) must prove it comes from the console's own page:
 *
 * - `Sec-Fetch-Site`, when sent, must be `same-origin` (the browser sets it; no page can): `same-site`, `cross-site`
 *   and `none` are refused whatever else the request carries;
 * - signing in needs `Sec-Fetch-Site: same-origin` (there is no sign-in to hold a token yet);
 * - an API request that changes something needs the sign-in's CSRF token in `X-Rimthan-Csrf` (compared in constant
 *   time): the page got it in the answer to its own sign-in, which a planted cookie never had;
 * - signing out needs either.
 *
 * A present Origin was already checked against the console's own whole origins by src/http's guard.
 */
import type { IncomingMessage } from 'node:http';
import { CSRF_HEADER, sameSecret } from './auth.js';

/** What a state change must carry (see the file comment). */
export type Proof = 'fetch-metadata' | 'csrf-token' | 'either';

/** True when `req` proves it comes from the console's own page as `proof` asks; `csrf` is its sign-in's token. */
export function provesSameOrigin(req: IncomingMessage, proof: Proof, csrf: string | undefined): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const sent = req.headers[CSRF_HEADER];
  const token = csrf !== undefined && typeof sent === 'string' && sameSecret(sent, csrf);
  if (proof === 'csrf-token') return token;
  if (proof === 'fetch-metadata') return site === 'same-origin';
  return token || site === 'same-origin';
}

/** The refusal of a request without the proof (the same words for sign-in, sign-out and the API). */
export const NOT_SAME_ORIGIN = {
  code: 'forbidden',
  message: "a request that changes something must come from the console's own page",
} as const;
