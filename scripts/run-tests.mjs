#!/usr/bin/env node
// Runs every compiled test file under dist/test with Node's own test runner.
// Node 20 has no glob support in `node --test`, so the file list is collected here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = process.env.RIMTHAN_TEST_ROOT ?? 'dist/test';
const only = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.js')) files.push(path);
  }
})(root);
const selected = only.length === 0 ? files : files.filter((f) => only.some((o) => f.includes(o)));
if (selected.length === 0) {
  console.error('no test files found under', root);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...selected], { stdio: 'inherit' });
process.exit(result.status ?? 1);
