/**
 * The observability of one `rimthan serve` process: one ServiceMetrics registry over HTTP (served by the Admin API at
 * `/admin/metrics` when there is an admin listener; nothing else listens for it, so a stdio process, which can have no
 * admin listener, keeps none and never loads the metrics library), the event log (serve-log.ts) and, when the
 * `OTEL_*` variables ask for it, OpenTelemetry traces (the SDK is imported only then: {@link serveTracing}),
 * fed through the existing hooks only: the profile's tool-call observer and request tracer, the HTTP transport's
 * response observer and fault reporter, the Admin API's request tracer, the release follower's events and state, the
 * run store's observer and status counts, the supervisor's run tracer.
 *
 * A client that resets its connection, lets a time limit run out or hangs up mid-request is not a fault of ours: it is
 * counted in `rimthan_http_client_aborts_total` and never logged (any remote client can cause it at will).
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isClientDisconnect } from '../http/index.js';
import type { AdminRequestTracer } from '../admin/index.js';
import type { McpProfile } from '../mcp/server/profile.js';
import type { FaultReporter } from '../mcp/server/tool-call.js';
import type { ClientAbortReason, ServiceMetrics } from '../observability/metrics.js';
import { tracingConfig, TracingConfigError } from '../observability/tracing-config.js';
import type { McpTransportName, Tracing } from '../observability/tracing.js';
import { packageVersion } from '../package/index.js';
import type { FollowerEvents, ReleaseFollower } from '../registry/index.js';
import type { RunInsights, RunTracer } from '../runs/index.js';
import { UsageError } from './errors.js';
import type { CliIo } from './io.js';
import type { ServeLog } from './serve-log.js';

/** The longest a stopping process waits for its last spans to leave (a collector that is down must not hold it). */
const TRACE_FLUSH_MS = 5000;

/** A started tracing SDK and its span makers. */
export interface ServeTracing {
  readonly tracing: Tracing;
  shutdown(): Promise<void>;
}

/**
 * Tracing as the `OTEL_*` variables ask (undefined when they do not): the SDK and the span makers are imported only
 * then. A variable this process cannot honour is a usage error naming it.
 */
export async function serveTracing(env: CliIo['env'], transport: McpTransportName): Promise<ServeTracing | undefined> {
  let config: ReturnType<typeof tracingConfig>;
  try {
    config = tracingConfig(env);
  } catch (error) {
    if (error instanceof TracingConfigError) throw new UsageError(error.message, 'serve');
    throw error;
  }
  if (config === undefined) return undefined;
  const [{ startTracingSdk }, { Tracing }] = await Promise.all([
    import('../observability/tracing-sdk.js'),
    import('../observability/tracing.js'),
  ]);
  const sdk = startTracingSdk(config, packageVersion());
  return { tracing: new Tracing(sdk.tracer, transport), shutdown: () => sdk.shutdown() };
}

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

  /** The process's traces; undefined unless the `OTEL_*` variables turned them on. */
  readonly #tracing: ServeTracing | undefined;

  constructor(log: ServeLog, metrics?: ServiceMetrics, tracing?: ServeTracing) {
    this.log = log;
    this.metrics = metrics;
    this.#tracing = tracing;
  }

  /** The supervisor's run tracer (a span per execution of a run and per vertex), when tracing is on. */
  runTracer(): RunTracer | undefined {
    return this.#tracing?.tracing.runExecution;
  }

  /** The Admin API's request tracer, when tracing is on. */
  adminTracer(): AdminRequestTracer | undefined {
    return this.#tracing?.tracing.adminRequest;
  }

  /** Sends the spans still buffered (at most TRACE_FLUSH_MS) and stops tracing. */
  async close(): Promise<void> {
    const tracing = this.#tracing;
    if (tracing === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, TRACE_FLUSH_MS);
      timer.unref();
    });
    await Promise.race([tracing.shutdown().catch(() => undefined), late]);
    clearTimeout(timer);
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

  /** `profile` reporting every tool call's tool, outcome and latency, and tracing every request when tracing is on. */
  observed(profile: McpProfile): McpProfile {
    const metrics = this.metrics;
    const tracing = this.#tracing?.tracing;
    if (metrics === undefined && tracing === undefined) return profile;
    return {
      ...profile,
      ...(metrics === undefined
        ? {}
        : { observeToolCall: (tool, status, code, seconds) => metrics.toolCall(tool, status, code, seconds) }),
      ...(tracing === undefined ? {} : { traceRequest: tracing.mcpRequest }),
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
