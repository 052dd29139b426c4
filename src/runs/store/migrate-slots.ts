/**
 * `migrate-store`'s part for concurrency slots (see RunConcurrency): the key rows and, for every unfinished run of a
 * limited flow, its slot key, and its `wait_until` when it waits for a slot. Without them a run waiting for a slot
 * would arrive as an ordinary queued run and start at once, beyond its flow's limit. Runs in the same transaction as
 * the rest of the copy, after every run was inserted.
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { WAITS_FOR_SLOT } from './concurrency-plan.js';

interface SlotRow {
  readonly run_id: string;
  readonly slot_key: string;
  readonly waiting: number;
  readonly wait_until: number | null;
}

/** Copies the slot keys and slot waits of the source's unfinished runs into the target (schema `q`, quoted). */
export async function copySlots(db: Database.Database, client: pg.PoolClient, q: string): Promise<void> {
  const keys = db.prepare('SELECT definition_name, slot_key, slot_limit FROM run_slot_keys').all() as {
    definition_name: string;
    slot_key: string;
    slot_limit: number;
  }[];
  if (keys.length > 0) {
    await client.query(
      `INSERT INTO ${q}.run_slot_keys (definition_name, slot_key, slot_limit)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[])
       ON CONFLICT (definition_name, slot_key) DO UPDATE SET slot_limit = EXCLUDED.slot_limit`,
      [keys.map((k) => k.definition_name), keys.map((k) => k.slot_key), keys.map((k) => k.slot_limit)],
    );
  }
  const runs = db
    .prepare(
      `SELECT run_id, slot_key, (${WAITS_FOR_SLOT}) AS waiting, wait_until FROM runs
       WHERE slot_key IS NOT NULL AND status IN ('pending', 'running', 'interrupted')`,
    )
    .all() as SlotRow[];
  if (runs.length === 0) return;
  await client.query(
    `UPDATE ${q}.runs AS r SET slot_key = u.slot_key, wait_until = u.wait_until
     FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u(run_id, slot_key, wait_until) WHERE r.run_id = u.run_id`,
    [
      runs.map((r) => r.run_id),
      runs.map((r) => r.slot_key),
      runs.map((r) => (Number(r.waiting) === 1 ? r.wait_until : null)),
    ],
  );
}
