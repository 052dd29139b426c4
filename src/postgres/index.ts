/**
 * PostgreSQL mechanisms the stores share (the run store, the release store): schema-name quoting, one transaction on a
 * pooled client, migrations as data applied one per transaction under an advisory lock, and the dedicated LISTEN
 * connection that turns NOTIFY into in-process wake-ups. Nothing here knows what a store keeps.
 */
export { pgDriver } from './driver.js';
export { quoteSchema } from './schema-name.js';
export { withTransaction } from './transaction.js';
export { migrateSchema, type PostgresMigration, type MigrationPlan } from './migrate.js';
export { PostgresListener } from './listener.js';
