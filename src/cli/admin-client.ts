/**
 * The Admin API as the `rimthan admin` commands call it: one JSON request with the admin token from
 * RIMTHAN_ADMIN_BEARER_TOKEN, a refusal turned into one line naming the server's code and HTTP status, an unreachable
 * server named by its URL. The token is never printed.
 */
import { isErrorCode } from '../core/index.js';
import { CommandFailed, reasonOf } from './errors.js';
import type { CliIo } from './io.js';

export const ADMIN_TOKEN_ENV = 'RIMTHAN_ADMIN_BEARER_TOKEN';
const TIMEOUT_MS = 60_000;

export interface AdminClient {
  readonly url: string;
  request(method: string, path: string, body?: Uint8Array | object): Promise<{ status: number; value: unknown }>;
}

/** The base URL without a trailing slash; `--url` must be an http(s) URL. */
function baseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CommandFailed('invalid_config', `--url ${raw} is not a URL (e.g. http://127.0.0.1:8766/admin)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CommandFailed('invalid_config', `--url ${raw} is not an http:// or https:// URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new CommandFailed(
      'invalid_config',
      '--url must not hold credentials (the token comes from RIMTHAN_ADMIN_BEARER_TOKEN)',
    );
  }
  return url.href.replace(/\/+$/, '');
}

export function adminClient(rawUrl: string, io: CliIo): AdminClient {
  const url = baseUrl(rawUrl);
  const token = io.env[ADMIN_TOKEN_ENV]?.trim();
  if (token === undefined || token === '') {
    throw new CommandFailed('invalid_config', `the Admin API needs a token: set ${ADMIN_TOKEN_ENV}`);
  }
  return {
    url,
    async request(method, path, body) {
      const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
      let payload: Uint8Array | string | undefined;
      if (body instanceof Uint8Array) payload = body;
      else if (body !== undefined) payload = JSON.stringify(body);
      if (payload !== undefined) headers['Content-Type'] = 'application/json';
      let response: Response;
      try {
        response = await fetch(`${url}${path}`, {
          method,
          headers,
          ...(payload === undefined ? {} : { body: payload }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause ?? error;
        throw new CommandFailed('admin_unreachable', `cannot reach the Admin API at ${url}: ${reasonOf(cause)}`, {
          cause: error,
        });
      }
      const text = await response.text();
      let value: unknown;
      try {
        value = JSON.parse(text) as unknown;
      } catch {
        value = undefined;
      }
      if (response.ok && value !== undefined) return { status: response.status, value };
      const error = (value as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      const code = typeof error?.code === 'string' ? error.code : 'unexpected_answer';
      const message =
        typeof error?.message === 'string' ? error.message : 'the Admin API sent an answer that is not its JSON';
      // The message names the code the server sent; the error's own code is one of ours (an older or newer server may
      // answer with a word this client does not know).
      throw new CommandFailed(
        isErrorCode(code) ? code : 'unexpected_answer',
        `${message} (${code}, HTTP ${response.status})`,
      );
    },
  };
}
