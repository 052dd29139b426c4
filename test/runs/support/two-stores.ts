/**
 * Two run store objects on one database, for each backend (SQLite file, PostgreSQL schema): what two workers, or a
 * worker and an observer, see of one store. Shared by the supervisor tests that need two processes' views.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import type { RunStore } from '../../../src/runs/store/types.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';

export interface TwoStoreBackend {
  readonly name: string;
  readonly skip?: string;
  open(): Promise<{ a: RunStore; b: RunStore; cleanup(): Promise<void> }>;
}

const pgReason = await postgresSkipReason();

/** Both backends; `label` names the temporary folder and schema. */
export function twoStoreBackends(label: string): TwoStoreBackend[] {
  return [
    {
      name: 'SQLite',
      async open() {
        const dir = mkdtempSync(join(tmpdir(), `rimthan-${label}-`));
        const a = new SqliteRunStore(join(dir, 'runs.db'));
        const b = new SqliteRunStore(join(dir, 'runs.db'));
        await a.open();
        await b.open();
        return {
          a,
          b,
          async cleanup() {
            await a.close();
            await b.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
    {
      name: 'PostgreSQL',
      ...(pgReason === undefined ? {} : { skip: pgReason }),
      async open() {
        const schema = uniqueSchema(`runs_${label}`);
        const a = new PostgresRunStore({ connectionString: TEST_PG_URL, schema, pool: { max: 4 } });
        const b = new PostgresRunStore({ connectionString: TEST_PG_URL, schema, pool: { max: 4 } });
        await a.open();
        await b.open();
        return {
          a,
          b,
          async cleanup() {
            await a.close();
            await b.close();
            await dropSchema(schema);
          },
        };
      },
    },
  ];
}
