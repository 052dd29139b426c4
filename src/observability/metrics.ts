/**
 * `ServiceMetrics`: the Prometheus metrics of one Rimthan process, in a registry of its own (never prom-client's
 * global one, so two servers in one process, or a test, never mix their figures). The Admin API serves it as
 * `GET /admin/metrics` through `{ contentType, render() }`.
 *
 * Labels carry closed words only: tool names from the served contracts, call statuses, error codes that are
 * string-literal codes of ours (anything else counts as `other`), HTTP status codes, run statuses, channel names and
 * release names (the operator's). Never a principal, a session or run id, a token, an argument or a result.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { StoreObserver } from '../runs/index.js';

/** What a tool call ended as: a result, a tool error (with its code), or our own internal error. */
export type ToolCallStatus = 'ok' | 'tool_error' | 'internal_error';

/** The two release channels a replica follows. */
export type ReleaseChannel = 'active' | 'migration-target';

const CODE = /^[a-z][a-z0-9_]{0,63}$/;
const TOOL = /^[a-zA-Z][a-zA-Z0-9_.-]{0,127}$/;
const RELEASE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A closed word, or `other`: a label never carries free text. */
function word(value: string | undefined, pattern: RegExp): string {
  return value !== undefined && pattern.test(value) ? value : 'other';
}

export interface ServiceMetricsOptions {
  /** Process metrics (CPU, RSS, event-loop lag, GC) as well; default true. */
  readonly processMetrics?: boolean;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics of one service process; see the module comment. */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #toolCalls: Counter<'tool' | 'status' | 'code'>;
  readonly #toolLatency: Histogram<'tool'>;
  readonly #httpResponses: Counter<'status'>;
  readonly #release: Gauge<'channel' | 'release'>;
  readonly #refreshFailures: Counter;
  readonly #commitLatency: Histogram<'outcome'>;
  readonly #commits: Counter<'outcome'>;
  readonly #takeovers: Counter;
  readonly #claimed: Counter;
  #runStatuses: (() => Promise<Readonly<Record<string, number>>>) | undefined;
  readonly #current = new Map<ReleaseChannel, string>();

  constructor(opts: ServiceMetricsOptions = {}) {
    const registers = [this.registry];
    if (opts.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'rimthan_' });
    this.#toolCalls = new Counter({
      name: 'rimthan_tool_calls_total',
      help: 'Tool calls by tool, status (ok, tool_error, internal_error) and error code ("none" for ok).',
      labelNames: ['tool', 'status', 'code'],
      registers,
    });
    this.#toolLatency = new Histogram({
      name: 'rimthan_tool_call_duration_seconds',
      help: 'Tool call latency by tool, from validated arguments to the checked result.',
      labelNames: ['tool'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#httpResponses = new Counter({
      name: 'rimthan_http_responses_total',
      help: 'HTTP responses of the MCP endpoint by status code (401, 403, 413, ...).',
      labelNames: ['status'],
      registers,
    });
    this.#release = new Gauge({
      name: 'rimthan_release_info',
      help: 'The release each channel serves (1 for the current one; the migration target is absent when unset).',
      labelNames: ['channel', 'release'],
      registers,
    });
    this.#refreshFailures = new Counter({
      name: 'rimthan_release_refresh_failures_total',
      help: 'Release refreshes refused (corrupt or unverifiable); the last verified release keeps being served.',
      registers,
    });
    this.#commitLatency = new Histogram({
      name: 'rimthan_runs_commit_duration_seconds',
      help: 'Runs profile: time for a batch of run-store commits to become durable, by outcome.',
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#commits = new Counter({
      name: 'rimthan_runs_commits_total',
      help: 'Runs profile: run-store commits made durable (ok) or failed.',
      labelNames: ['outcome'],
      registers,
    });
    this.#claimed = new Counter({
      name: 'rimthan_runs_claimed_total',
      help: 'Runs profile: runs this worker leased.',
      registers,
    });
    this.#takeovers = new Counter({
      name: 'rimthan_runs_lease_takeovers_total',
      help: 'Runs profile: leased runs whose previous worker had let its lease expire.',
      registers,
    });
    // `this` inside collect() is the gauge; the source is read through the closure.
    const statuses = (): (() => Promise<Readonly<Record<string, number>>>) | undefined => this.#runStatuses;
    new Gauge({
      name: 'rimthan_runs',
      help: 'Runs profile: runs in the store by status (every session).',
      labelNames: ['status'],
      registers,
      async collect() {
        const source = statuses();
        if (source === undefined) return;
        this.reset();
        for (const [status, count] of Object.entries(await source())) this.set({ status: word(status, CODE) }, count);
      },
    });
  }

  /** The Content-Type of {@link render}'s text (Prometheus text exposition format). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The metrics as Prometheus text. */
  async render(): Promise<string> {
    return this.registry.metrics();
  }

  /** One tool call: its tool, how it ended (and the error code of a tool error), how long it took. */
  toolCall(tool: string, status: ToolCallStatus, code: string | undefined, seconds: number): void {
    const name = word(tool, TOOL);
    this.#toolCalls.inc({ tool: name, status, code: status === 'ok' ? 'none' : word(code, CODE) });
    this.#toolLatency.observe({ tool: name }, seconds);
  }

  /** One HTTP response of the MCP endpoint. */
  httpResponse(status: number): void {
    this.#httpResponses.inc({
      status: Number.isInteger(status) && status >= 100 && status < 600 ? String(status) : 'other',
    });
  }

  /** The release a channel now serves (undefined: the migration target was cleared). */
  release(channel: ReleaseChannel, name: string | undefined): void {
    const previous = this.#current.get(channel);
    if (previous !== undefined) this.#release.remove({ channel, release: previous });
    if (name === undefined) {
      this.#current.delete(channel);
      return;
    }
    const release = word(name, RELEASE);
    this.#current.set(channel, release);
    this.#release.set({ channel, release }, 1);
  }

  /** A release refresh was refused (the release follower keeps the last verified snapshot). */
  releaseRefreshFailed(): void {
    this.#refreshFailures.inc();
  }

  /** Where the runs-by-status gauge reads its figures at each scrape (RunStore#statusCounts). */
  runStatuses(source: () => Promise<Readonly<Record<string, number>>>): void {
    this.#runStatuses = source;
  }

  /** The run store's observer hooks: commit latency, commits, claims and lease takeovers. */
  storeObserver(): StoreObserver {
    return {
      commitBatch: ({ writes, durationMs, ok }) => {
        const outcome = ok ? 'ok' : 'failed';
        this.#commitLatency.observe({ outcome }, durationMs / 1000);
        this.#commits.inc({ outcome }, writes);
      },
      claimed: ({ runs, takeovers }) => {
        this.#claimed.inc(runs);
        if (takeovers > 0) this.#takeovers.inc(takeovers);
      },
    };
  }
}
