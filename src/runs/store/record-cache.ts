/**
 * The records the SQLite store itself wrote last, by run id, so a commit that expects exactly that revision need not
 * read the row back. Safe because every change to a record's fields bumps record_revision (commits and claims, in any
 * process): a row still at the cached revision holds exactly the cached fields, and the commit's UPDATE ... WHERE
 * record_revision = expected proves the row is still there (else the commit is refused and its savepoint rolled back).
 * A rolled-back batch may leave entries for revisions that never became durable: the store clears the cache then.
 */
import { LruCache } from '../../core/lru.js';
import type { RunRecord } from './types.js';

const MAX_ENTRIES = 1024;

export class RecordCache {
  readonly #records = new LruCache<string, RunRecord>(MAX_ENTRIES);

  /** The cached record of `runId` when it is at `revision`. */
  get(runId: string, revision: number): RunRecord | undefined {
    const record = this.#records.peek(runId);
    return record !== undefined && record.record_revision === revision ? record : undefined;
  }

  /** Remembers `record` (frozen, as it is also handed to callers); the least recently written entry goes first. */
  set(record: RunRecord): RunRecord {
    Object.freeze(record.artifacts);
    Object.freeze(record.artifact_namespace);
    if (record.interrupt !== null) Object.freeze(record.interrupt);
    const frozen = Object.freeze(record);
    this.#records.set(record.run_id, frozen);
    return frozen;
  }

  clear(): void {
    this.#records.clear();
  }
}
