import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { describeRunStoreConformance } from './store-conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'rimthan-store-sqlite-'));
const file = join(dir, 'runs.db');

describeRunStoreConformance(
  'SQLite (group commit)',
  () => Promise.resolve(new SqliteRunStore(file)),
  () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
);

const singleDir = mkdtempSync(join(tmpdir(), 'rimthan-store-sqlite-single-'));
const singleFile = join(singleDir, 'runs.db');

describeRunStoreConformance(
  'SQLite (one commit per write)',
  () => Promise.resolve(new SqliteRunStore(singleFile, { groupCommit: false })),
  () => Promise.resolve(rmSync(singleDir, { recursive: true, force: true })),
);
