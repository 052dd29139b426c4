/**
 * What an Admin API handler reads from a request (a capped JSON or release body, a channel change, a `limit`) and how
 * it refuses: a thrown {@link Refusal} carries the error (keyed by its code string) the listener answers with.
 */
import type { IncomingMessage } from 'node:http';
import { isRimthanError } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { readJsonBytes, readJsonObject } from '../http/index.js';
import type { HttpError } from '../http/index.js';
import { isReleaseName, MAX_RELEASE_BYTES } from '../registry/index.js';

export const ADMIN_LIMITS = {
  /** A release file: the same cap `verifyReleaseFile` applies. */
  releaseBytes: MAX_RELEASE_BYTES,
  /** Any other JSON body (a channel change). */
  jsonBytes: 16 * 1024,
} as const;

/** A refusal a handler throws; `gone` (the client went away) is answered with nothing. */
export class Refusal extends Error {
  constructor(
    readonly error: HttpError,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.message);
  }
}

export const refuse = (code: string, message: string): Refusal => new Refusal({ code, message });

/** A store refusal (a RimthanError with a stable code) as an admin error; anything else is a fault. */
export function storeRefusal(error: unknown): HttpError | undefined {
  if (!isRimthanError(error)) return undefined;
  const e = error as { reason?: unknown; entry?: unknown };
  return {
    code: error.code,
    message: error.message,
    ...(typeof e.reason === 'string' ? { reason: e.reason } : {}),
    ...(typeof e.entry === 'string' ? { entry: e.entry } : {}),
  };
}

/** The bytes of an `application/json` body under `max` (a release file is sent as JSON too). */
export async function bodyBytes(req: IncomingMessage, max: number): Promise<Buffer> {
  const read = await readJsonBytes(req, max);
  if (read === 'gone') throw refuse('gone', 'the client went away');
  if (!read.ok) throw refuse(read.code, read.message);
  return read.bytes;
}

/** A strict JSON object body under the JSON cap. */
export async function jsonBody(req: IncomingMessage): Promise<JsonObject> {
  const read = await readJsonObject(req, ADMIN_LIMITS.jsonBytes);
  if (read === 'gone') throw refuse('gone', 'the client went away');
  if (!read.ok) throw refuse(read.code, read.message);
  return read.value;
}

/** `{"release": NAME, "expected_current"?: NAME|null}` and nothing else. */
export function channelRequest(value: JsonObject): { release: string; expectedCurrent?: string | null } {
  for (const key of Object.keys(value)) {
    if (key !== 'release' && key !== 'expected_current') {
      throw refuse('invalid_arguments', `unknown field ${JSON.stringify(key).slice(0, 64)}`);
    }
  }
  const release = value['release'];
  if (typeof release !== 'string' || !isReleaseName(release)) {
    throw refuse('invalid_arguments', 'release must be a release name');
  }
  if (!('expected_current' in value)) return { release };
  const expected = value['expected_current'];
  if (expected !== null && (typeof expected !== 'string' || !isReleaseName(expected))) {
    throw refuse('invalid_arguments', 'expected_current must be a release name or null');
  }
  return { release, expectedCurrent: expected };
}

/** `?limit=`: an integer from 1 to 1000, or none. */
export function limitOf(url: URL): number | undefined {
  const raw = url.searchParams.get('limit');
  if (raw === null) return undefined;
  if (!/^\d{1,4}$/.test(raw)) throw refuse('invalid_arguments', 'limit must be an integer from 1 to 1000');
  return Number(raw);
}
