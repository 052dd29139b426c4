/**
 * Every answer the console sends: the security headers (a strict Content-Security-Policy with no inline script or
 * style and no eval, no framing, no referrer beyond our own pages, no sniffing), `Cache-Control: no-store`, and JSON errors in the run
 * tools' shape `{error: {code, message}}` with the HTTP status that fits the code. Nothing is logged per request.
 */
import type { ServerResponse } from 'node:http';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const CACHE_CONTROL = 'no-store';

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Cache-Control': CACHE_CONTROL,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Not no-referrer: with it a form POST carries `Origin: null`, which the Origin check must refuse.
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
};

/** Sets the headers every console response carries (before anything else can fail). */
export function applySecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
}

/** HTTP status per error code: the run tools' codes, the guided ones and the console's own. */
const STATUS: Readonly<Record<string, number>> = {
  invalid_arguments: 400,
  invalid_input: 400,
  workflow_checkpoint_error: 400,
  workflow_protocol_error: 400,
  parse_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  unknown_definition: 404,
  release_unavailable: 404,
  method_not_allowed: 405,
  conflict: 409,
  resume_not_supported: 409,
  too_large: 413,
  unsupported_media_type: 415,
  too_many_streams: 429,
  unavailable: 503,
  no_active_release: 503,
  internal: 500,
};

export function statusFor(code: string): number {
  return STATUS[code] ?? 500;
}

/** Writes one JSON body. A response whose headers already went out is cut instead (never a second body). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** `{error: {code, message[, reason]}}` with the code's status. */
export function sendError(
  res: ServerResponse,
  error: { readonly code: string; readonly message: string; readonly reason?: string },
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = error.reason === undefined ? { code: error.code, message: error.message } : { ...error };
  sendJson(res, statusFor(error.code), { error: body }, headers);
}

/** A redirect (303 See Other) with optional cookies. */
export function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(303, {
    Location: location,
    'Content-Length': '0',
    ...(cookie === undefined ? {} : { 'Set-Cookie': cookie }),
  });
  res.end();
}
