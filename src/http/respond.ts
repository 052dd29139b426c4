/**
 * The answers every HTTP listener writes: a body with its length (a response whose headers already went out is cut
 * instead: never a second body), JSON, errors in the tool-error shape `{error: {code, message, ...}}` with the HTTP
 * status of the ONE status table below, JSON-RPC-shaped errors (the MCP endpoint and every listener's client-error
 * answer), and redirects. The listener's own headers (cache, security) are set on the response before these run.
 */
import type { ServerResponse } from 'node:http';
import type { ErrorCode } from '../core/error-codes.js';

/**
 * HTTP status per error code, for every listener (Admin API, console), keyed by the error vocabulary (a code missing
 * here answers 500). Where the two tables this replaces disagreed,
 * the answer is: `release_unavailable` → 422 (the release named exists but does not verify or cannot be used: the
 * request is understood and refused, it is not a missing resource).
 */
export const ERROR_STATUS: Readonly<Partial<Record<ErrorCode, number>>> = {
  invalid_arguments: 400,
  invalid_input: 400,
  parse_error: 400,
  release_invalid: 400,
  workflow_checkpoint_error: 400,
  workflow_protocol_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  unknown_definition: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  channel_conflict: 409,
  no_previous_release: 409,
  release_immutable: 409,
  resume_not_supported: 409,
  too_large: 413,
  unsupported_media_type: 415,
  release_unavailable: 422,
  too_many_streams: 429,
  internal: 500,
  unavailable: 503,
  no_active_release: 503,
};

/** The status of an error code; a code outside the table is an internal error (500). */
export function statusFor(code: string): number {
  return Object.hasOwn(ERROR_STATUS, code) ? (ERROR_STATUS[code as ErrorCode] ?? 500) : 500;
}

export type ResponseHeaders = Readonly<Record<string, string>>;

/** Writes one body with its type and length. */
export function sendBody(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  contentType: string,
  headers: ResponseHeaders = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

/** Writes one JSON body (`application/json; charset=utf-8`). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: ResponseHeaders = {}): void {
  sendBody(res, status, JSON.stringify(body), 'application/json; charset=utf-8', headers);
}

/** An error answer: a stable code (a key of the status table), a safe message, and optional closed details. */
export interface HttpError {
  /** One of the error vocabulary's codes (core/error-codes.ts); a string, as codes read from a tool answer arrive. */
  readonly code: string;
  readonly message: string;
  readonly reason?: string;
  readonly entry?: string;
}

/**
 * `{error: {code, message[, reason][, entry]}}` with the code's status. An error with details is written as given
 * (its members in their own order), one without as exactly `{code, message}`.
 */
export function sendError(res: ServerResponse, error: HttpError, headers: ResponseHeaders = {}): void {
  const detailed = error.reason !== undefined || error.entry !== undefined;
  const body = detailed ? { ...error } : { code: error.code, message: error.message };
  sendJson(res, statusFor(error.code), { error: body }, headers);
}

/** The error body of the tool-error shape without details, `{error: {code, message}}`, as text. */
export function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** The JSON-RPC-shaped error body (`id` is the request's when it is known, else null). */
export function jsonRpcErrorBody(code: number, message: string, id: string | number | null = null): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
}

/** Writes a JSON-RPC-shaped error body (`application/json`) with the given HTTP status. */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: ResponseHeaders = {},
  id: string | number | null = null,
): void {
  sendBody(res, status, jsonRpcErrorBody(code, message, id), 'application/json', headers);
}

/** A redirect (303 See Other) with an optional cookie. */
export function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(303, {
    Location: location,
    'Content-Length': '0',
    ...(cookie === undefined ? {} : { 'Set-Cookie': cookie }),
  });
  res.end();
}
