/**
 * `npm run bench -- startup`: how long `rimthan serve` takes to answer its first stdio message, cold (a fresh process
 * for every start), as an MCP host sees it: spawn, write the opening message at once, wait for the first line on
 * stdout. Both profiles (workflow-engine, and runs on SQLite) and both openings (a 2025-11-25 `initialize`, a
 * 2026-07-28 `server/discover`), against a bare SDK stdio server with one echo tool (bench/baselines/echo-stdio.ts)
 * started the same way in the same run, interleaved. Each start also sends `tools/list` as soon as the first answer is
 * in and records when that is answered: what a host that waits for the tools (Codex) waits for.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fmt } from '../format.js';
import { median, medianRatio, roundCounter } from '../harness.js';
import type { Figure, Suite, SuiteContext } from '../model.js';
import { withTempFolder } from '../tmp.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const ECHO = fileURLToPath(new URL('../baselines/echo-stdio.js', import.meta.url));
/** A start that has not answered by then is a failure, not a slow figure. */
const START_TIMEOUT_MS = 60_000;

const CLIENT_INFO = { name: 'rimthan-bench', version: '1.0.0' };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
};

interface Opening {
  readonly name: 'initialize' | 'discover';
  readonly label: string;
  /** The opening request (id 1). */
  readonly first: object;
  /** What the host sends once it is answered, ending with tools/list (id 2). */
  readonly then: readonly object[];
}

const OPENINGS: readonly Opening[] = [
  {
    name: 'initialize',
    label: '2025-11-25 initialize',
    first: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO },
    },
    then: [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ],
  },
  {
    name: 'discover',
    label: '2026-07-28 server/discover',
    first: { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } },
    then: [{ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } }],
  },
];

interface Contender {
  readonly name: string;
  readonly argv: readonly string[];
}

const ECHO_SERVER: Contender = { name: 'echo', argv: [ECHO] };
const PROFILES: readonly Contender[] = [
  { name: 'workflow-engine', argv: [MAIN, 'serve'] },
  { name: 'runs', argv: [MAIN, 'serve', '--profile', 'runs'] },
];

interface Start {
  /** Milliseconds from spawn to the first line on stdout. */
  readonly firstMs: number;
  /** Milliseconds from spawn to the tools/list answer. */
  readonly listMs: number;
  /** Whether the first answer was a result (false: a JSON-RPC error). */
  readonly answered: boolean;
}

interface Dirs {
  readonly state: string;
  readonly cwd: string;
}

/** One cold start: spawn, open, list, then close stdin and wait for the process to exit. */
function start(contender: Contender, opening: Opening, dirs: Dirs): Promise<Start> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, [...contender.argv], {
      cwd: dirs.cwd,
      env: { ...process.env, XDG_STATE_HOME: dirs.state },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${contender.name} did not answer ${opening.name} within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    let pending = '';
    let first: { ms: number; answered: boolean } | undefined;
    let result: Start | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        const now = performance.now() - began;
        const message = JSON.parse(line) as { id?: unknown; result?: unknown };
        if (first === undefined) {
          first = { ms: now, answered: message.result !== undefined };
          for (const next of opening.then) child.stdin.write(`${JSON.stringify(next)}\n`);
        } else if (message.id === 2 && result === undefined) {
          result = { firstMs: first.ms, listMs: now, answered: first.answered };
          child.stdin.end();
        }
      }
    });
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(timer);
      if (result !== undefined) resolve(result);
      else reject(new Error(`${contender.name} exited before answering tools/list after ${opening.name}`));
    });
    child.stdin.write(`${JSON.stringify(opening.first)}\n`);
  });
}

function figureFor(
  profile: string,
  opening: Opening,
  ours: readonly Start[],
  echo: readonly Start[],
  rounds: number,
): Figure {
  const first = ours.map((s) => s.firstMs);
  const echoFirst = echo.map((s) => s.firstMs);
  const ratio = medianRatio(first, echoFirst);
  const max = Math.max(...first);
  return {
    name: `first answer, ${profile}, ${opening.label}`,
    rimthan: { value: median(first), unit: 'ms' },
    baseline: {
      label: 'bare SDK echo server, same start',
      quantity: { value: median(echoFirst), unit: 'ms' },
    },
    ratio: { value: ratio, text: `${fmt(ratio)}× the echo's time` },
    aim: { text: '≤ 1,000 ms, every start', met: max <= 1000 },
    note: `max ${fmt(max)} ms (echo ${fmt(Math.max(...echoFirst))} ms); tools/list answered at ${fmt(median(ours.map((s) => s.listMs)))} ms; ${rounds} cold starts each, interleaved`,
  };
}

async function run(ctx: SuiteContext): Promise<{ figures: Figure[]; notes: string[] }> {
  const openings = OPENINGS.filter((o) => ctx.parts === undefined || ctx.parts.has(o.name));
  const rounds = ctx.long ? 25 : 9;
  const contenders = [...PROFILES, ECHO_SERVER];
  return withTempFolder('startup', async (folder) => {
    const dirs: Dirs = { state: folder.file('state'), cwd: folder.file('cwd') };
    mkdirSync(dirs.state);
    mkdirSync(dirs.cwd);
    const figures: Figure[] = [];
    let echoAnswersDiscover = true;
    for (const opening of openings) {
      // One start each first: it creates the signing key, the run store and the session, which later starts reuse.
      for (const contender of contenders) await start(contender, opening, dirs);
      const starts = new Map<string, Start[]>(contenders.map((c) => [c.name, []]));
      const tick = roundCounter(rounds, (done, total) => ctx.progress(`startup: ${opening.name} ${done}/${total}`));
      for (let r = 0; r < rounds; r++) {
        for (let i = 0; i < contenders.length; i++) {
          const contender = contenders[(i + r) % contenders.length] as Contender;
          const measured = await start(contender, opening, dirs);
          if (contender !== ECHO_SERVER && !measured.answered) {
            throw new Error(`${contender.name} answered ${opening.name} with an error`);
          }
          if (contender === ECHO_SERVER && opening.name === 'discover' && !measured.answered)
            echoAnswersDiscover = false;
          starts.get(contender.name)?.push(measured);
        }
        tick();
      }
      const echo = starts.get(ECHO_SERVER.name) ?? [];
      for (const profile of PROFILES) {
        figures.push(figureFor(profile.name, opening, starts.get(profile.name) ?? [], echo, rounds));
      }
    }
    const notes = [
      'A start is timed from spawn to the first line on stdout, the opening message written at once (as a host does); each start is a new process. The signing key, run store and stdio session exist from one untimed start before (a host restarts the server with them in place).',
      'workflow-engine: `rimthan serve` (the packaged releases, verified at every start); runs: `rimthan serve --profile runs` (SQLite in the working directory, the example flow).',
      'Baseline: a bare @modelcontextprotocol/sdk McpServer with one zod-typed echo tool on its stdio transport (bench/baselines/echo-stdio.ts).',
    ];
    if (!echoAnswersDiscover) {
      notes.push(
        'The echo server answers server/discover with a JSON-RPC error (the v1 SDK predates 2026-07-28); its time is still its first answer.',
      );
    }
    return { figures, notes };
  });
}

export const suite: Suite = {
  name: 'startup',
  description:
    'time to the first stdio answer of rimthan serve (both profiles, both openings) vs a bare SDK echo server',
  run,
};
