/**
 * `npm run bench` entry point: runs every suite (or the ones named), shows progress on stderr, prints a Markdown table on
 * stdout and writes bench/results/latest.json + latest.md. Each suite lives in its own module, loaded on demand, so a
 * suite whose engine part is missing is reported as skipped instead of breaking the others.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/package/root.js';
import { fmt, renderMarkdown } from './format.js';
import { elapsedMs, nowNs } from './harness.js';
import type { Suite, SuiteContext, SuiteResult } from './model.js';

/** Suite name → module path (relative to this file) exporting `suite`. */
const SUITES: Readonly<Record<string, { file: string; summary: string }>> = {
  guided: {
    file: './suites/guided.js',
    summary:
      'four guided tools in-process ops/s; 1 MiB prepare vs JSON.parse+SHA-256; checkpoint token size; contract bytes; tracing on vs off',
  },
  runs: {
    file: './suites/runs.js',
    summary:
      'durable step overhead vs LangGraph+SqliteSaver; start acks/s group commit vs per-start commit; history paging',
  },
  http: {
    file: './suites/http.js',
    summary:
      'continue_workflow over Streamable HTTP vs a bare SDK echo tool served the same way (1 and 16 clients); RSS under load',
  },
  startup: {
    file: './suites/startup.js',
    summary:
      'time to the first stdio answer of rimthan serve, cold (both profiles; initialize and server/discover) vs a bare SDK echo server',
  },
  hosts: {
    file: './suites/hosts.js',
    summary:
      'the real Claude Code and Codex CLIs through research-decision: bytes the model reads and is sent, turns, first answer vs an earlier build',
  },
  flows: {
    file: './suites/flows.js',
    summary:
      '8-way fan-out and join vs LangGraph parallel branches (SQLite, PostgreSQL); 10,000 sleeping runs RSS; wake-up lateness; child run round trip',
  },
  regress: {
    file: './suites/regress.js',
    summary:
      'this build vs an earlier revision (default: before the issue-22 flow work; --baseline=REV): ms/step, 64-client throughput, start acks/s, WAL flushes',
  },
  postgres: {
    file: './suites/postgres.js',
    summary:
      'runs on PostgreSQL vs DBOS and LangGraph PostgresSaver (steps, 64 clients, starts, WAL); 1/2/4 workers; failover',
  },
};

const HELP = `Usage: node dist/bench/run.js [suite ...] [--long] [--no-write] [--baseline=REV] [--help]

Suites (default: all):
${Object.entries(SUITES)
  .map(([name, s]) => `  ${name.padEnd(8)} ${s.summary}`)
  .join('\n')}

Options:
  --long      more rounds and longer windows (several minutes); use for figures worth quoting
  --no-write  do not write bench/results/latest.{json,md}
  --duration=S soak length in seconds (http: the RSS window; default 20, --long 300)
  --parts=a,b run only these parts of the chosen suites (guided: tools, prepare, token, contracts, tracing; runs: steps, starts,
              history; startup: initialize, discover; hosts: claude-code, codex; postgres: steps, closed, starts,
              wal, workers, failover;
              flows: fanout, fanout-pg, sleeping, lateness, child; regress: steps, starts, closed, wal)
  --baseline=REV the Git revision the hosts and regress suites build and run as their baseline (default: their own)
  --help      this text

Every figure is printed next to a baseline measured in the same run, as a ratio, with absolute numbers alongside.
Progress goes to stderr; the Markdown report goes to stdout.
`;

interface Options {
  readonly suites: readonly string[];
  readonly long: boolean;
  readonly write: boolean;
  readonly parts: ReadonlySet<string> | undefined;
  readonly durationSeconds: number | undefined;
  readonly baseline: string | undefined;
}

function parseArgs(argv: readonly string[]): Options | 'help' | { error: string } {
  const suites: string[] = [];
  let long = false;
  let write = true;
  let parts: Set<string> | undefined;
  let durationSeconds: number | undefined;
  let baseline: string | undefined;
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--long') long = true;
    else if (arg === '--no-write') write = false;
    else if (arg.startsWith('--duration=')) {
      durationSeconds = Number(arg.slice('--duration='.length));
      if (!Number.isInteger(durationSeconds) || durationSeconds < 1) return { error: `bad ${arg}` };
    } else if (arg.startsWith('--baseline=')) {
      baseline = arg.slice('--baseline='.length);
      if (!/^[A-Za-z0-9._/~^-]{1,100}$/.test(baseline)) return { error: `bad ${arg}` };
    } else if (arg.startsWith('--parts='))
      parts = new Set(
        arg
          .slice('--parts='.length)
          .split(',')
          .filter((p) => p !== ''),
      );
    else if (arg.startsWith('-')) return { error: `unknown option ${arg}` };
    else if (SUITES[arg] === undefined) return { error: `unknown suite ${arg}` };
    else if (!suites.includes(arg)) suites.push(arg);
  }
  return { suites: suites.length > 0 ? suites : Object.keys(SUITES), long, write, parts, durationSeconds, baseline };
}

function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function runSuite(name: string, ctx: SuiteContext): Promise<SuiteResult> {
  const start = nowNs();
  const entry = SUITES[name];
  if (entry === undefined) throw new Error(`unknown suite ${name}`);
  let suite: Suite;
  try {
    suite = ((await import(entry.file)) as { suite: Suite }).suite;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { suite: name, figures: [], notes: [], skipped: `could not load: ${reason}`, durationMs: elapsedMs(start) };
  }
  progress(`${name}: ${suite.description}`);
  const result = await suite.run(ctx);
  return { suite: name, ...result, durationMs: elapsedMs(start) };
}

function machineHeader(long: boolean, parts: ReadonlySet<string> | undefined): string[] {
  const cpu = cpus();
  const load = loadavg().map((l) => fmt(l));
  return [
    `Date: ${new Date().toISOString()}`,
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${platform()} ${release()}, load average at start ${load.join(' / ')}`,
    `Node ${process.version}; mode: ${long ? '--long' : 'default (quick)'}${parts === undefined ? '' : `; parts: ${[...parts].join(', ')}`}`,
    'Ratios compare against a baseline measured in this same run (interleaved rounds, medians).',
  ];
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if ('error' in parsed) {
    process.stderr.write(`${parsed.error}\n\n${HELP}`);
    return 2;
  }
  const header = machineHeader(parsed.long, parsed.parts);
  const ctx: SuiteContext = {
    long: parsed.long,
    parts: parsed.parts,
    progress,
    ...(parsed.durationSeconds === undefined ? {} : { durationSeconds: parsed.durationSeconds }),
    ...(parsed.baseline === undefined ? {} : { baseline: parsed.baseline }),
  };
  const results: SuiteResult[] = [];
  const start = nowNs();
  for (const name of parsed.suites) {
    const result = await runSuite(name, ctx);
    results.push(result);
    progress(`${name}: ${result.skipped === undefined ? 'done' : 'skipped'} in ${fmt(result.durationMs / 1000)} s`);
  }
  header.push(
    `Total time: ${fmt(elapsedMs(start) / 1000)} s; load average at end ${loadavg()
      .map((l) => fmt(l))
      .join(' / ')}`,
  );
  const markdown = renderMarkdown(results, header);
  process.stdout.write(`${markdown}\n`);
  if (parsed.write) {
    const dir = join(packageRoot(), 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'latest.json'), `${JSON.stringify({ header, results }, null, 2)}\n`);
    writeFileSync(join(dir, 'latest.md'), `${markdown}\n`);
    progress(`wrote ${join(dir, 'latest.json')} and latest.md`);
  }
  const failedAims = results.flatMap((r) => r.figures).filter((f) => f.aim !== undefined && !f.aim.met).length;
  if (failedAims > 0) progress(`${failedAims} figure(s) below their aim (see the Met column)`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
