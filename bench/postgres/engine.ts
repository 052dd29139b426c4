/**
 * What the PostgreSQL comparison needs from each engine, all on the same server: run one whole 10-step workflow and
 * resolve when its completion is durable; start one and resolve at the engine's durable start acknowledgement (the
 * execution goes on in the background); wait until every started workflow finished.
 */
export interface PgEngine {
  readonly name: string;
  /** Starts a fresh workflow and resolves once it completed (durably). */
  runOnce(): Promise<void>;
  /** Starts a fresh workflow and resolves at its durable start acknowledgement. */
  startOnly(): Promise<void>;
  /** Resolves when every workflow started so far has finished. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Steps per workflow in every PostgreSQL part (the same trivial chain as the SQLite parts). */
export const PG_STEPS = 10;

/** The bench's own database on the test server (created when missing), so per-database counters are ours alone. */
export const BENCH_DATABASE = 'rimthan_bench';
