/**
 * Applies the store migrations to a SQLite database: each pending migration and its schema_version bump in one
 * IMMEDIATE transaction (the write lock serialises processes opening the same file at once).
 */
import type Database from 'better-sqlite3';
import { RimthanError } from '../../core/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

function currentVersion(db: Database.Database): number {
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
  return row?.version ?? 0;
}

/** Brings the database to SCHEMA_VERSION; refuses a database written by a newer schema. */
export function migrateSqlite(db: Database.Database): void {
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const { n } = db.prepare('SELECT count(*) AS n FROM schema_version').get() as { n: number };
    if (n === 0) db.exec('INSERT INTO schema_version (version) VALUES (0)');
  }).immediate();
  for (;;) {
    const applied = db
      .transaction((): boolean => {
        const version = currentVersion(db);
        if (version > SCHEMA_VERSION) {
          throw new RimthanError('unavailable', `run store schema version ${version} is newer than this code supports`);
        }
        const migration = MIGRATIONS[version];
        if (migration === undefined) return false;
        for (const sql of migration.sqlite) db.exec(sql);
        db.prepare('UPDATE schema_version SET version = ?').run(version + 1);
        return true;
      })
      .immediate();
    if (!applied) return;
  }
}
