/**
 * The observability of one `rimthan serve` process: one ServiceMetrics registry over HTTP (served by the Admin API at
 * `/admin/metrics` when there is an admin listener; nothing else listens for it, so a stdio process, which can have no
 * admin listener, keeps none and never loads the metrics library) and the event log (serve-log.ts),
 * fed through the existing hooks only: the profile's tool-call observer, the HTTP transport's response observer and
 * fault reporter, the release follower's events and state, the run store's observer and status counts.
 *
 * A client that resets its connection, lets a time limit run out or hangs up mid-request is not a fault of ours: it is
 * counted in `rimthan_http_client_aborts_total` and never logged (any remote client can cause it at will).
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isClientDisconnect } from '../http/index.js';
import type { McpProfile } from '../mcp/server/profile.js';
import type { FaultReporter } from '../mcp/server/tool-call.js';
import type { ClientAbortReason, ServiceMetrics } from '../observability/metrics.js';
import type { FollowerEvents, ReleaseFollower } from '../registry/index.js';
import type { RunInsights } from '../runs/index.js';
import type { ServeLog } from './serve-log.js';

/** Where a fault may be a client hanging up rather than ours: the listeners' request handling. */
const LISTENER_PLACES = new Set(['http', 'admin']);

/** Node's client errors (on a socket before or around a request) that mean the client went away or was too slow. */
function abortReasonOf(code: string | undefined): ClientAbortReason | undefined {
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'reset';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') return 'timeout';
  return undefined;
}

export class ServeObservability {
  /** The process's metrics; undefined over stdio, where nothing could read them. */
  readonly metrics: ServiceMetrics | undefined;
  readonly log: ServeLog;
  /** Sockets whose abort was counted already (a reset is seen as a client error and as a hung-up request). */
  readonly #aborted = new WeakSet<Socket>();

  constructor(log: ServeLog, metrics?: ServiceMetrics) {
    this.log = log;
    this.metrics = metrics;
  }

  /** The fault reporter for profiles, transports and the supervisor. */
  readonly onFault: FaultReporter = (where, error) => {
    if (LISTENER_PLACES.has(where) && isClientDisconnect(error)) {
      this.metrics?.clientAbort('reset');
      return;
    }
    this.metrics?.fault(where);
    this.log.fault(where, error);
  };

  /** A run's vertex try that threw: logged as such (flow, vertex, kind), not as a fault of ours. */
  readonly onVertexFailed = (flow: string, vertex: string, error: unknown): void =>
    this.log.vertexFailed(flow, vertex, error);

  /** The HTTP transport's response observer. */
  readonly onResponse = (status: number): void => this.metrics?.httpResponse(status);

  /** `profile` reporting every tool call's tool, outcome and latency. */
  observed(profile: McpProfile): McpProfile {
    const metrics = this.metrics;
    if (metrics === undefined) return profile;
    return {
      ...profile,
      observeToolCall: (tool, status, code, seconds) => metrics.toolCall(tool, status, code, seconds),
    };
  }

  #abort(socket: Socket | null, reason: ClientAbortReason): void {
    if (socket !== null) {
      if (this.#aborted.has(socket)) return;
      this.#aborted.add(socket);
    }
    this.metrics?.clientAbort(reason);
  }

  /**
   * Counts the client aborts of the MCP listener: an exchange closed before its response was written, and Node's
   * client errors for a reset or a time limit (slowloris). Other client errors (a malformed request, oversized headers)
   * are answered 400/431 by the transport and counted as those statuses.
   */
  watchHttp(server: HttpServer): void {
    const watch = (req: IncomingMessage, res: ServerResponse): void => {
      res.once('close', () => {
        if (!res.writableFinished) this.#abort(req.socket, 'aborted');
      });
    };
    server.on('request', watch);
    server.on('checkContinue', watch);
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      const reason = abortReasonOf(error.code);
      if (reason !== undefined) this.#abort(socket, reason);
      else this.metrics?.httpResponse(error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400);
    });
  }

  /** The follower's events as log lines (channel changes once `arm()`ed: the start is announced by `listening on`). */
  followerEvents(): FollowerEvents & { arm(): void } {
    let armed = false;
    let active: string | undefined;
    let target: string | undefined;
    return {
      arm: () => {
        armed = true;
      },
      onActive: (release) => {
        if (armed) this.log.releaseChanged('active', release, active);
        active = release;
      },
      onMigrationTarget: (release) => {
        if (armed) this.log.releaseChanged('migration-target', release, target);
        target = release;
      },
      onRefreshFailed: (reason) => this.log.refreshFailed(reason, !armed),
      onRecovered: () => this.log.refreshRecovered(),
    };
  }

  /** The release gauges read the follower's state at each scrape. */
  followReleases(follower: ReleaseFollower): void {
    this.metrics?.followReleases(() => follower.state());
  }

  /** The runs-by-status gauge reads the store's counts at each scrape. */
  countRuns(store: RunInsights): void {
    this.metrics?.runStatuses(() => store.statusCounts());
  }
}
