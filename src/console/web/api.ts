/** The page's calls to the console API: same-origin JSON, the session cookie, errors as `ApiFailure`. */
import type { ApiError } from '../api-types.js';

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
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

/** `/api/releases/a/workflows/b/c` from segments, each URI-encoded. */
export function apiPath(...segments: string[]): string {
  return `/api/${segments.map(encodeURIComponent).join('/')}`;
}
