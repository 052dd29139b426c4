/**
 * The tracing hook of the Admin API listener: told each request's method and the W3C trace context of its
 * `traceparent`/`tracestate` headers, then the route template it matched and the status it was answered with. The
 * hook knows nothing of OpenTelemetry (the CLI wires one from src/observability) and never sees the caller, the path,
 * the query or a body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One request, as a tracer follows it. */
export interface AdminRequestTrace {
  /** The matched route's template (`/admin/releases/:release`). */
  route(template: string): void;
  /** The request was answered with `status` (or the client went away: 499 is never sent, only recorded). */
  end(status: number): void;
}

export type AdminRequestTracer = (facts: {
  readonly method: string;
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}) => AdminRequestTrace;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Starts following `req`; the trace ends when the response is sent or the exchange closes unanswered. */
export function traceRequest(tracer: AdminRequestTracer, req: IncomingMessage, res: ServerResponse): AdminRequestTrace {
  const trace = tracer({
    method: req.method ?? 'GET',
    traceparent: header(req, 'traceparent'),
    tracestate: header(req, 'tracestate'),
  });
  res.once('close', () => trace.end(res.writableFinished ? res.statusCode : 499));
  return trace;
}
