/** Shared helpers for the run engine tests: a temp SQLite store, pending-run creation, polling, deferred promises. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { sha256Hex } from '../../src/core/digest.js';
import type { JsonObject } from '../../src/core/json.js';
import { SqliteRunStore } from '../../src/runs/store/sqlite.js';
import type { RunRecord, RunStatus, RunStore } from '../../src/runs/store/types.js';
import { FlowCatalog } from '../../src/runs/flow/catalog.js';
import { Supervisor } from '../../src/runs/supervisor/supervisor.js';
import type { SessionController, StartRequest, SupervisorOptions } from '../../src/runs/supervisor/types.js';

export interface TempStore {
  readonly store: SqliteRunStore;
  readonly dir: string;
  readonly path: string;
  /** Revisions of every checkpoint of a run, read straight from the file. */
  checkpointRevisions(runId: string): number[];
  cleanup(): Promise<void>;
}

/** Opens a SQLite run store in a fresh temp directory. */
export async function tempStore(dir = mkdtempSync(join(tmpdir(), 'rimthan-engine-'))): Promise<TempStore> {
  const path = join(dir, 'runs.db');
  const store = new SqliteRunStore(path);
  await store.open();
  return {
    store,
    dir,
    path,
    checkpointRevisions(runId) {
      const db = new Database(path, { readonly: true });
      try {
        return (
          db
            .prepare('SELECT revision FROM checkpoints WHERE run_id = ? ORDER BY revision')
            .pluck()
            .all(runId) as number[]
        ).map(Number);
      } finally {
        db.close();
      }
    },
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Does what the workflow_run_start tool does before Supervisor.start: stores the input and creates a pending run. */
export async function createPendingRun(
  store: RunStore,
  opts: { sessionId: string; name: string; version: string; input: JsonObject; runId?: string },
): Promise<RunRecord> {
  const canonical = canonicalJson(opts.input);
  const sha = sha256Hex(canonical);
  await store.putInput(sha, canonical);
  const runId = opts.runId ?? randomUUID();
  const now = new Date().toISOString();
  return store.createRun({
    session_id: opts.sessionId,
    run_id: runId,
    definition_name: opts.name,
    definition_version: opts.version,
    parent_run_id: null,
    input_sha256: sha,
    idempotency_key: null,
    status: 'pending',
    status_summary: '',
    cancel_requested: false,
    checkpoint_revision: -1,
    activity_cursor: 0,
    artifacts: [],
    artifact_namespace: {
      session_id: opts.sessionId,
      run_id: runId,
      input_kind: '',
      input_session_id: '',
      input_run_id: '',
    },
    interrupt: null,
    created_at: now,
    updated_at: now,
  });
}

/** Polls `probe` until it returns a value other than undefined; fails after `timeoutMs` (a hang guard, not a timing assertion). */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waitFor: condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits until the run reaches one of `statuses` and returns its record. */
export function waitForStatus(store: RunStore, runId: string, ...statuses: RunStatus[]): Promise<RunRecord> {
  return waitFor(async () => {
    const record = await store.getRunById(runId);
    return record !== undefined && statuses.includes(record.status) ? record : undefined;
  });
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Every activity entry of a run, in order. */
export async function fullHistory(store: RunStore, runId: string) {
  return store.history(runId, { limit: 1000 });
}

/** A closed object schema with the given properties (all required unless listed as optional). */
export function closedSchema(properties: Record<string, JsonObject>, optional: readonly string[] = []): JsonObject {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

export interface EngineFixture extends TempStore {
  readonly catalog: FlowCatalog;
  readonly supervisor: Supervisor;
  readonly session: SessionController;
  readonly sessionId: string;
  /** Creates a pending run of `name` (version v1 unless given) in the fixture's session. */
  pending(name: string, input: JsonObject, version?: string): Promise<RunRecord>;
  /** Creates a pending run and starts it (returns the start acknowledgement). */
  started(name: string, input: JsonObject, version?: string): Promise<RunRecord>;
  close(): Promise<void>;
}

/** A temp store, a catalog filled by `register`, and a started supervisor; `close()` stops and removes everything. */
export async function engineFixture(
  register: (catalog: FlowCatalog) => void,
  options: Partial<Omit<SupervisorOptions, 'store' | 'catalog'>> = {},
): Promise<EngineFixture> {
  const temp = await tempStore();
  const catalog = new FlowCatalog();
  register(catalog);
  const supervisor = new Supervisor({ store: temp.store, catalog, leaseMs: 2000, ...options });
  await supervisor.start();
  const sessionId = randomUUID();
  const session = supervisor.forSession(sessionId);
  const pending = (name: string, input: JsonObject, version = 'v1') =>
    createPendingRun(temp.store, { sessionId, name, version, input });
  return {
    ...temp,
    catalog,
    supervisor,
    session,
    sessionId,
    pending,
    async started(name, input, version) {
      const record = await pending(name, input, version);
      return session.start(record.run_id);
    },
    async close() {
      await supervisor.stop();
      await temp.cleanup();
    },
  };
}

/**
 * A start of `name@version` with `input` as a harness makes one: no parent, no idempotency key, a random run id and
 * the wall clock, unless `extra` says otherwise.
 */
export function startRequest(
  name: string,
  version: string,
  input: JsonObject,
  extra: Partial<StartRequest> = {},
): StartRequest {
  return {
    definitionName: name,
    definitionVersion: version,
    input,
    parentRunId: null,
    idempotencyKey: null,
    mintRunId: () => randomUUID(),
    now: () => new Date().toISOString(),
    ...extra,
  };
}
