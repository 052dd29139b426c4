/** The Admin API's answers: JSON (or Prometheus text) with `Cache-Control: no-store`, errors as `{error: {...}}`. */
import type { ServerResponse } from 'node:http';

export const ADMIN_CACHE_CONTROL = 'no-store';

/** HTTP status per error code. */
const STATUS: Readonly<Record<string, number>> = {
  invalid_arguments: 400,
  parse_error: 400,
  release_invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  release_immutable: 409,
  channel_conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  release_unavailable: 422,
  no_previous_release: 409,
  unavailable: 503,
  internal: 500,
};

export function statusFor(code: string): number {
  return STATUS[code] ?? 500;
}

export function sendBody(
  res: ServerResponse,
  status: number,
  body: string,
  contentType: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': ADMIN_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendBody(res, status, JSON.stringify(body), 'application/json; charset=utf-8', headers);
}

/** An admin error: a stable code, a safe message, and optional closed details (`reason`, `entry`). */
export interface AdminError {
  readonly code: string;
  readonly message: string;
  readonly reason?: string;
  readonly entry?: string;
}

export function sendError(res: ServerResponse, error: AdminError, headers: Record<string, string> = {}): void {
  const body: Record<string, string> = { code: error.code, message: error.message };
  if (error.reason !== undefined) body['reason'] = error.reason;
  if (error.entry !== undefined) body['entry'] = error.entry;
  sendJson(res, statusFor(error.code), { error: body }, headers);
}
