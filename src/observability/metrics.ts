/**
 * `ServiceMetrics`: the Prometheus metrics of one Rimthan process, in a registry of its own (never prom-client's
 * global one, so two servers in one process, or a test, never mix their figures). The Admin API serves it as
 * `GET /admin/metrics` through `{ contentType, render() }`. The release metrics exist once a release follower is
 * followed (workflow-engine profile), the runs metrics once a run store reports (runs profile): a scrape shows only
 * what this process does.
 *
 * Labels carry closed words only: tool names from the served contracts, call statuses, error codes that are
 * string-literal codes of ours (anything else counts as `other`), HTTP status codes, client-abort reasons, fault
 * places, run statuses, channel names and release names (the operator's). Never a principal, a session or run id, a
 * token, an argument or a result.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FollowerState } from '../registry/index.js';
import type { StoreObserver } from '../runs/index.js';

/** What a tool call ended as: a result, a tool error (with its code), or our own internal error. */
export type ToolCallStatus = 'ok' | 'tool_error' | 'internal_error';

/** Why a client's exchange ended without our answer: a reset or broken pipe, a time limit, a hang-up mid-request. */
export type ClientAbortReason = 'reset' | 'timeout' | 'aborted';

/** What the release gauges read at each scrape (a ReleaseFollower's state). */
export type ReleaseStateSource = () => Pick<
  FollowerState,
  'active' | 'migration_target' | 'degraded' | 'refreshes' | 'refresh_failures'
>;

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

interface RunsMetrics {
  readonly commitLatency: Histogram<'outcome'>;
  readonly commits: Counter<'outcome'>;
  readonly claimed: Counter;
  readonly takeovers: Counter;
  readonly pruned: Counter<'flow'>;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics of one service process; see the module comment. */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #toolCalls: Counter<'tool' | 'status' | 'code'>;
  readonly #toolLatency: Histogram<'tool'>;
  readonly #httpResponses: Counter<'status'>;
  readonly #clientAborts: Counter<'reason'>;
  readonly #faults: Counter<'where'>;
  #releases: ReleaseStateSource | undefined;
  #runs: RunsMetrics | undefined;
  #runStatuses: (() => Promise<Readonly<Record<string, number>>>) | undefined;

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
    this.#clientAborts = new Counter({
      name: 'rimthan_http_client_aborts_total',
      help:
        'MCP exchanges the client ended before our answer: reset (reset, broken pipe), timeout (headers or body ' +
        'too slow), aborted (hung up mid-request). Not faults.',
      labelNames: ['reason'],
      registers,
    });
    this.#faults = new Counter({
      name: 'rimthan_internal_faults_total',
      help: 'Unexpected faults of ours (a bug or a broken dependency) by where they happened; each is also logged.',
      labelNames: ['where'],
      registers,
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

  /** A client ended an exchange before our answer (not a fault: any remote client can do it at will). */
  clientAbort(reason: ClientAbortReason): void {
    this.#clientAborts.inc({ reason });
  }

  /** An unexpected fault of ours, by where it happened (`http`, `admin`, `supervisor`, a tool name). */
  fault(where: string): void {
    this.#faults.inc({ where: word(where, TOOL) });
  }

  /**
   * The release metrics, read from `source` (ReleaseFollower#state) at each scrape: the release each channel serves,
   * whether the replica is degraded, refreshes done and refused. A second call replaces the source.
   */
  followReleases(source: ReleaseStateSource): void {
    const first = this.#releases === undefined;
    this.#releases = source;
    if (!first) return;
    const registers = [this.registry];
    // `this` inside collect() is the metric; the source is read through the closure.
    const state = (): ReturnType<ReleaseStateSource> => (this.#releases ?? source)();
    new Gauge({
      name: 'rimthan_release_info',
      help: 'The verified release each channel serves (1; a channel without a verified release is absent).',
      labelNames: ['channel', 'release'],
      registers,
      collect() {
        const s = state();
        this.reset();
        if (s.active !== null) this.set({ channel: 'active', release: word(s.active.release, RELEASE) }, 1);
        if (s.migration_target !== null) {
          this.set({ channel: 'migration-target', release: word(s.migration_target.release, RELEASE) }, 1);
        }
      },
    });
    new Gauge({
      name: 'rimthan_release_degraded',
      help: '1 while the last release refresh was refused and the last verified snapshot is served, else 0.',
      registers,
      collect() {
        this.set(state().degraded === null ? 0 : 1);
      },
    });
    new Counter({
      name: 'rimthan_release_refreshes_total',
      help: 'Release channel refreshes done (notified or polled).',
      registers,
      collect() {
        this.reset();
        this.inc(state().refreshes);
      },
    });
    new Counter({
      name: 'rimthan_release_refresh_failures_total',
      help: 'Release refreshes refused (corrupt, unverifiable, unreachable); the last verified release is served.',
      registers,
      collect() {
        this.reset();
        this.inc(state().refresh_failures);
      },
    });
  }

  /** Where the runs-by-status gauge reads its figures at each scrape (RunStore#statusCounts). */
  runStatuses(source: () => Promise<Readonly<Record<string, number>>>): void {
    this.#runStatuses = source;
    this.#runsMetrics();
  }

  /** The run store's observer hooks: commit latency, commits, claims and lease takeovers. */
  storeObserver(): StoreObserver {
    const runs = this.#runsMetrics();
    return {
      commitBatch: ({ writes, durationMs, ok }) => {
        const outcome = ok ? 'ok' : 'failed';
        runs.commitLatency.observe({ outcome }, durationMs / 1000);
        runs.commits.inc({ outcome }, writes);
      },
      claimed: ({ runs: count, takeovers }) => {
        runs.claimed.inc(count);
        if (takeovers > 0) runs.takeovers.inc(takeovers);
      },
      pruned: ({ definition_name, runs: count }) => runs.pruned.inc({ flow: word(definition_name, TOOL) }, count),
    };
  }

  /** The runs profile's metrics, registered on first use. */
  #runsMetrics(): RunsMetrics {
    if (this.#runs !== undefined) return this.#runs;
    const registers = [this.registry];
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
    this.#runs = {
      commitLatency: new Histogram({
        name: 'rimthan_runs_commit_duration_seconds',
        help: 'Runs profile: time for a batch of run-store commits to become durable, by outcome.',
        labelNames: ['outcome'],
        buckets: LATENCY_BUCKETS,
        registers,
      }),
      commits: new Counter({
        name: 'rimthan_runs_commits_total',
        help: 'Runs profile: run-store commits made durable (ok) or failed.',
        labelNames: ['outcome'],
        registers,
      }),
      claimed: new Counter({
        name: 'rimthan_runs_claimed_total',
        help: 'Runs profile: runs this worker claimed from the store (unheld or lease-expired runs it adopted).',
        registers,
      }),
      takeovers: new Counter({
        name: 'rimthan_runs_lease_takeovers_total',
        help: 'Runs profile: leased runs whose previous worker had let its lease expire.',
        registers,
      }),
      pruned: new Counter({
        name: 'rimthan_runs_pruned_total',
        help: 'Runs profile: finished runs deleted by retention, by flow name.',
        labelNames: ['flow'],
        registers,
      }),
    };
    return this.#runs;
  }
}
