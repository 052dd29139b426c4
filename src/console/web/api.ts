/**
 * The page's calls to the console API: same-origin JSON, the session cookie, errors as `ApiFailure`. Every request
 * that changes something carries the sign-in's CSRF token, which the console handed the page once, in its answer to
 * the sign-in, and which the page keeps in its origin's storage (another port of the host cannot reach it).
 */
import type { ApiError } from '../api-types.js';

/** The header the sign-in's CSRF token travels in (the console's auth.ts `CSRF_HEADER`). */
const CSRF_HEADER = 'X-Rimthan-Csrf';
/** Where the page keeps the token: its origin's storage, shared by its tabs. */
const CSRF_KEY = 'rimthan-console-csrf';

/**
 * On the answer to a sign-in: moves the CSRF token from its `<meta>` element to the origin's storage and the address
 * back to `/` (a reload must not sign in again; the one-time link leaves the history).
 */
export function adoptSignIn(): void {
  const meta = document.querySelector('meta[name="rimthan-csrf"]');
  const token = meta?.getAttribute('content');
  if (meta === null || token === null || token === undefined) return;
  window.localStorage.setItem(CSRF_KEY, token);
  meta.remove();
  window.history.replaceState(null, '', '/');
}

/** The CSRF header for a request that changes something (none before a sign-in of this browser). */
function csrfHeaders(): Record<string, string> {
  const token = window.localStorage.getItem(CSRF_KEY);
  return token === null ? {} : { [CSRF_HEADER]: token };
}

/** A refused call: the API's `{error: {code, message}}` and the HTTP status. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (response.ok) return body as T;
  const error = (body as Partial<ApiError> | undefined)?.error;
  throw new ApiFailure(
    response.status,
    error?.code ?? 'internal',
    error?.message ?? `HTTP ${response.status}`,
    error?.reason,
  );
}

/** `GET path?query` (undefined and empty query values left out). */
export async function get<T>(path: string, query: Record<string, string | undefined> = {}): Promise<T> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  const search = params.toString();
  return answer<T>(await fetch(search === '' ? path : `${path}?${search}`, { credentials: 'same-origin' }));
}

/** `POST path` with a JSON body. */
export async function post<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(
    await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', ...csrfHeaders() },
      body: JSON.stringify(body),
    }),
  );
}

/** Signs out (`POST /logout` with the CSRF token), then opens the page again, signed out. */
export async function signOut(): Promise<void> {
  await fetch('/logout', { method: 'POST', credentials: 'same-origin', headers: csrfHeaders() }).catch(() => undefined);
  window.localStorage.removeItem(CSRF_KEY);
  window.location.assign('/');
}

/** `/api/releases/a/workflows/b/c` from segments, each URI-encoded. */
export function apiPath(...segments: string[]): string {
  return `/api/${segments.map(encodeURIComponent).join('/')}`;
}
