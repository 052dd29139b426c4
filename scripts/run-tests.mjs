#!/usr/bin/env node
// Runs the compiled test files under dist/test with Node's own test runner.
//   node scripts/run-tests.mjs [--unit] [<substring>...]
// With no `--unit` it runs every file, one process per file (`node --test`): the full gate. Substrings keep the files
// whose dist path contains one of them. Files that change machine-wide state (MACHINE_WIDE) run alone after the rest.
// `--unit` keeps the unit files only (not *.e2e.test.js, not *.pg.test.js) and runs them in a few shard processes (one
// per core, scripts/unit-shard.mjs) that each import many files, so a module graph is loaded once per shard rather than
// once per file. Each shard preloads scripts/unit-guard.mjs: a unit file that starts a process or connects to
// PostgreSQL fails with the rule.
// A compiled test whose source test/….ts no longer exists (a moved or deleted test) is skipped, not run stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = process.env.RIMTHAN_TEST_ROOT ?? 'dist/test';
const args = process.argv.slice(2);
const unit = args.includes('--unit');
const only = args.filter((a) => a !== '--unit');

const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.js')) files.push(path);
  }
})(root);

/** True when the compiled file still has its TypeScript source (only checked for the default dist/test root). */
function hasSource(file) {
  if (root !== 'dist/test') return true;
  return existsSync(join('test', relative(root, file)).replace(/\.js$/, '.ts'));
}

const isUnit = (f) => !f.endsWith('.e2e.test.js') && !f.endsWith('.pg.test.js');
const selected = files
  .filter(hasSource)
  .filter((f) => !unit || isUnit(f))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
if (selected.length === 0) {
  console.error('no test files found under', root, unit ? '(unit files only)' : '');
  process.exit(1);
}

// Files that change machine-wide state other files' processes read run alone, after the rest: the Claude Code rollout
// test places a managed-settings fragment in /etc/claude-code/managed-settings.d/ (when root), whose
// allowedMcpServers makes every concurrently running `claude` refuse its own servers.
const MACHINE_WIDE = ['system/hosts/claude-code-rollout.e2e.test.js'];
const alone = (f) => MACHINE_WIDE.some((m) => f.endsWith(m));

if (!unit) {
  let status = 0;
  for (const batch of [selected.filter((f) => !alone(f)), selected.filter(alone)]) {
    if (batch.length === 0) continue;
    const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...batch], { stdio: 'inherit' });
    if (result.status !== 0) status = result.status ?? 1;
  }
  process.exit(status);
}

// Unit shards: the largest files first, each to the shard with the fewest bytes so far (sizes stand in for cost).
const shardCount = Math.min(selected.length, Math.max(2, availableParallelism()));
const shards = Array.from({ length: shardCount }, () => ({ files: [], bytes: 0 }));
for (const file of [...selected].sort((a, b) => statSync(b).size - statSync(a).size)) {
  const shard = shards.reduce((least, s) => (s.bytes < least.bytes ? s : least));
  shard.files.push(file);
  shard.bytes += statSync(file).size;
}
const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const codes = await Promise.all(
  shards.map(
    (shard, index) =>
      new Promise((done) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            here('./unit-guard.mjs'),
            '--test-reporter=spec',
            here('./unit-shard.mjs'),
            ...shard.files.sort(),
          ],
          { env: { ...process.env, RIMTHAN_UNIT_GUARD: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        const out = [];
        child.stdout.on('data', (chunk) => out.push(chunk));
        child.stderr.on('data', (chunk) => out.push(chunk));
        child.on('close', (code, signal) => {
          // One shard's report at a time, so that reports do not interleave.
          process.stdout.write(`\n# unit shard ${index + 1}/${shardCount}: ${shard.files.length} files\n`);
          process.stdout.write(Buffer.concat(out));
          done(code ?? (signal ? 1 : 0));
        });
      }),
  ),
);
const failed = codes.filter((code) => code !== 0).length;
console.log(
  `\n# unit: ${selected.length} files in ${shardCount} shards, ${failed === 0 ? 'all passed' : `${failed} shard(s) failed`}`,
);
process.exit(failed === 0 ? 0 : 1);
