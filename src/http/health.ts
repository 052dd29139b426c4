/**
 * The health pair every listener serves without a credential (after its Host rule, before any credential check), for
 * a reverse proxy or an orchestrator: `GET /healthz` (the process answers: 200) and `GET /readyz` (200 when it should
 * get traffic, 503 with one closed reason word when it should not). The bodies are tiny JSON with
 * `Cache-Control: no-store` and say nothing else: no version, no release name, no store location, no count.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './respond.js';

export const HEALTH_PATHS = { live: '/healthz', ready: '/readyz' } as const;

/** Why a listener is not ready (closed words). */
export const NotReadyReason = {
  /** No verified active release to serve (a store that was never activated). */
  NoActiveRelease: 'no_active_release',
  /** The store cannot be reached and nothing verified is at hand to serve from. */
  StoreUnreachable: 'store_unreachable',
  /** The process is stopping: it still answers, but should get no new traffic. */
  Draining: 'draining',
} as const;
export type NotReadyReason = (typeof NotReadyReason)[keyof typeof NotReadyReason];

/** A note on a ready answer (closed words). */
export const ReadyNote = {
  /** The store cannot be reached: the verified active release and the pinned releases at hand are served. */
  ServingFromCache: 'serving_from_cache',
} as const;
export type ReadyNote = (typeof ReadyNote)[keyof typeof ReadyNote];

export type Readiness =
  { readonly ready: true; readonly note?: ReadyNote } | { readonly ready: false; readonly reason: NotReadyReason };

/** What a listener asks at each `/readyz`; it must be cheap (no I/O): it reads state kept by its owner. */
export type ReadinessProbe = () => Readiness;

/** Ready once listening (a listener with nothing to wait for). */
export const ALWAYS_READY: ReadinessProbe = () => ({ ready: true });

/** A process's readiness: what serves (a probe) and, once it is stopping, `draining` before anything else. */
export class ServiceHealth {
  readonly #probe: ReadinessProbe;
  #draining = false;

  constructor(probe: ReadinessProbe = ALWAYS_READY) {
    this.#probe = probe;
  }

  /** From now on `/readyz` answers 503 `draining`. */
  drain(): void {
    this.#draining = true;
  }

  readonly readiness: ReadinessProbe = () =>
    this.#draining ? { ready: false, reason: NotReadyReason.Draining } : this.#probe();
}

const HEALTH_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;

function answer(req: IncomingMessage, res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...HEALTH_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** The `/readyz` body and status of a readiness. */
export function readinessAnswer(readiness: Readiness): { readonly status: number; readonly body: object } {
  if (!readiness.ready) return { status: 503, body: { status: 'not_ready', reason: readiness.reason } };
  return {
    status: 200,
    body: readiness.note === undefined ? { status: 'ready' } : { status: 'ready', note: readiness.note },
  };
}

/**
 * Answers `pathname` when it is `/healthz` or `/readyz` (GET or HEAD; another method is 405 with `Allow`) and returns
 * true; returns false for any other path (the listener goes on). A request body is drained unread.
 */
export function answerHealth(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  readiness: ReadinessProbe,
): boolean {
  if (pathname !== HEALTH_PATHS.live && pathname !== HEALTH_PATHS.ready) return false;
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(
      res,
      { code: 'method_not_allowed', message: 'method not allowed' },
      { ...HEALTH_HEADERS, Allow: 'GET, HEAD' },
    );
    return true;
  }
  if (pathname === HEALTH_PATHS.live) {
    answer(req, res, 200, { status: 'ok' });
    return true;
  }
  let current: Readiness;
  try {
    current = readiness();
  } catch {
    // A probe that cannot say is not a yes.
    current = { ready: false, reason: NotReadyReason.StoreUnreachable };
  }
  const { status, body } = readinessAnswer(current);
  answer(req, res, status, body);
  return true;
}
