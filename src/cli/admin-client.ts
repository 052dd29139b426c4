/**
 * The Admin API as the `rimthan admin` commands call it: one JSON request with the admin token from
 * RIMTHAN_ADMIN_BEARER_TOKEN, answered within `--timeout`. Nothing the server sends is trusted: a redirect is not
 * followed, the body is read up to a bound, parsed as strict JSON (depth, size, duplicate keys) and checked against
 * the answer's documented shape (admin-answers.ts) before a command reads it; each of these is one line naming the
 * cause. A refusal becomes one line naming the server's code and HTTP status, its message escaped for the terminal;
 * an unreachable server is named by its URL. The token is never printed.
 */
import { isErrorCode, parseStrictJsonBytes } from '../core/index.js';
import { answerProblem } from './admin-answers.js';
import type { AdminAnswer, AnswerTypes } from './admin-answers.js';
import { secondsText } from './client-timeout.js';
import { CommandFailed, reasonOf } from './errors.js';
import type { CliIo } from './io.js';
import { shown } from './terminal.js';

export const ADMIN_TOKEN_ENV = 'RIMTHAN_ADMIN_BEARER_TOKEN';
/** The largest answer read (a release list of thousands of releases stays far below it). */
export const MAX_ADMIN_ANSWER_BYTES = 4 * 1024 * 1024;
const MAX_ANSWER_DEPTH = 32;

export interface AdminClient {
  readonly url: string;
  /** Sends one request; resolves with the answer checked against the shape `answer` names. */
  request<A extends AdminAnswer>(
    method: string,
    path: string,
    answer: A,
    body?: Uint8Array | object,
  ): Promise<{ status: number; value: AnswerTypes[A] }>;
}

/** The base URL without a trailing slash; `--url` must be an http(s) URL. */
function baseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CommandFailed('invalid_config', `--url ${shown(raw)} is not a URL (e.g. http://127.0.0.1:8766/admin)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CommandFailed('invalid_config', `--url ${shown(raw)} is not an http:// or https:// URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new CommandFailed(
      'invalid_config',
      '--url must not hold credentials (the token comes from RIMTHAN_ADMIN_BEARER_TOKEN)',
    );
  }
  return url.href.replace(/\/+$/, '');
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/** The body, at most `MAX_ADMIN_ANSWER_BYTES` (the rest is not read); undefined when there was more. */
async function boundedBody(response: Response): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > MAX_ADMIN_ANSWER_BYTES || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    return declared > MAX_ADMIN_ANSWER_BYTES ? undefined : new Uint8Array();
  }
  let total = 0;
  let over = false;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total <= MAX_ADMIN_ANSWER_BYTES) controller.enqueue(chunk);
        else {
          over = true; // the rest is not read: the source is cancelled
          controller.terminate();
        }
      },
    }),
  );
  const bytes = new Uint8Array(await new Response(counted).arrayBuffer());
  return over ? undefined : bytes;
}

export function adminClient(rawUrl: string, io: CliIo, timeoutMs: number): AdminClient {
  const url = baseUrl(rawUrl);
  const token = io.env[ADMIN_TOKEN_ENV]?.trim();
  if (token === undefined || token === '') {
    throw new CommandFailed('invalid_config', `the Admin API needs a token: set ${ADMIN_TOKEN_ENV}`);
  }
  const where = `the Admin API at ${shown(url)}`;
  const unexpected = (why: string): CommandFailed => new CommandFailed('unexpected_answer', `${where} ${why}`);
  const timedOut = (error: unknown): CommandFailed =>
    new CommandFailed(
      'admin_unreachable',
      `${where} did not answer within ${secondsText(timeoutMs)} seconds (wait longer with --timeout SECONDS)`,
      { cause: error },
    );
  return {
    url,
    async request(method, path, answer, body) {
      const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
      let payload: Uint8Array | string | undefined;
      if (body instanceof Uint8Array) payload = body;
      else if (body !== undefined) payload = JSON.stringify(body);
      if (payload !== undefined) headers['Content-Type'] = 'application/json';
      // One deadline for the whole exchange: connecting, the answer's head and its body.
      const signal = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await fetch(`${url}${path}`, {
          method,
          headers,
          redirect: 'manual',
          ...(payload === undefined ? {} : { body: payload }),
          signal,
        });
      } catch (error) {
        if (isTimeout(error)) throw timedOut(error);
        const cause = (error as { cause?: unknown }).cause ?? error;
        throw new CommandFailed('admin_unreachable', `cannot reach ${where}: ${shown(reasonOf(cause))}`, {
          cause: error,
        });
      }
      const status = response.status;
      if (status >= 300 && status < 400) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        throw unexpected(
          `redirects to ${location === null ? '(no location)' : shown(location, 200)} (HTTP ${status}); ` +
            'redirects are not followed: give the final URL as --url',
        );
      }
      let bytes: Uint8Array | undefined;
      try {
        bytes = await boundedBody(response);
      } catch (error) {
        if (isTimeout(error)) throw timedOut(error);
        throw new CommandFailed('admin_unreachable', `${where} broke off its answer: ${shown(reasonOf(error))}`, {
          cause: error,
        });
      }
      if (bytes === undefined)
        throw unexpected(`sent an answer larger than ${MAX_ADMIN_ANSWER_BYTES} bytes (HTTP ${status})`);
      const parsed = parseStrictJsonBytes(bytes, { maxBytes: MAX_ADMIN_ANSWER_BYTES, maxDepth: MAX_ANSWER_DEPTH });
      if (!parsed.ok) throw unexpected(`sent an answer that is not JSON (${parsed.reason}, HTTP ${status})`);
      const expected: AdminAnswer = response.ok ? answer : 'error';
      const problem = answerProblem(expected, parsed.value);
      if (problem !== undefined) {
        throw unexpected(`sent an answer of the wrong shape (${expected} at ${problem}, HTTP ${status})`);
      }
      if (response.ok) return { status, value: parsed.value as unknown as AnswerTypes[typeof answer] };
      const { code, message } = (parsed.value as unknown as AnswerTypes['error']).error;
      // The message names the code the server sent; the error's own code is one of ours (an older or newer server may
      // answer with a word this client does not know).
      throw new CommandFailed(
        isErrorCode(code) ? code : 'unexpected_answer',
        `${shown(message)} (${shown(code, 64)}, HTTP ${status})`,
      );
    },
  };
}
