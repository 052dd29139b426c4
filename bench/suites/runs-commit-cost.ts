/**
 * The cost of one durable SQLite commit on this machine, measured in the benchmark's own temp folder: a one-row write
 * transaction in WAL mode at synchronous=FULL (one WAL fsync) and at NORMAL (no fsync). It tells how much of a
 * per-vertex figure is the disk, and bounds what any engine that makes each step durable can reach here.
 */
import Database from 'better-sqlite3';
import { median, nowNs, quantile } from '../harness.js';
import type { TempFolder } from '../tmp.js';

export interface CommitCost {
  /** Median milliseconds per one-row write transaction. */
  readonly fullMs: number;
  readonly normalMs: number;
  /** 10th–90th percentile of the FULL samples. */
  readonly fullSpread: readonly [number, number];
}

function commitTimes(path: string, synchronous: 'FULL' | 'NORMAL', samples: number): number[] {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const row = 'x'.repeat(400);
    const write = (): void => {
      db.exec('BEGIN IMMEDIATE');
      insert.run(row);
      db.exec('COMMIT');
    };
    for (let i = 0; i < 20; i++) write();
    const out: number[] = [];
    for (let i = 0; i < samples; i++) {
      const start = nowNs();
      write();
      out.push(Number(nowNs() - start) / 1e6);
    }
    return out;
  } finally {
    db.close();
  }
}

/** Measures both settings, interleaved in blocks so that load bursts hit both. */
export function measureCommitCost(folder: TempFolder, samples: number): CommitCost {
  const full: number[] = [];
  const normal: number[] = [];
  const blocks = 4;
  for (let b = 0; b < blocks; b++) {
    full.push(...commitTimes(folder.file('commit-full.db'), 'FULL', Math.ceil(samples / blocks)));
    normal.push(...commitTimes(folder.file('commit-normal.db'), 'NORMAL', Math.ceil(samples / blocks)));
  }
  return {
    fullMs: median(full),
    normalMs: median(normal),
    fullSpread: [quantile(full, 0.1), quantile(full, 0.9)],
  };
}
