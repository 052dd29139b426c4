/**
 * The guided suite's `contracts` part: what the four tool contracts cost a model and a client, against the frozen
 * 1.0.0 contracts (test/guided/fixtures/contracts-1.0.0.json) served by the same server in the same run:
 * - bytes of the four input schemas, and of the whole workflow-engine `tools/list` answer;
 * - the official SDK client's `listTools()` (which compiles every output schema), interleaved rounds, old vs new;
 * - bytes a model receives over one whole research-decision run: `tools/list` plus every tool result as sent (canonical
 *   JSON text and `structuredContent`), driven by the faithful participant the MCP tests use; the start_workflow
 *   result and the median continue_workflow result on their own. The 1.0.0 form of each result (every host asset
 *   body resent after setup) is rebuilt from the same run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson, SchemaCompiler } from '../../src/core/index.js';
import { packageRoot } from '../../src/package/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import type { McpProfile } from '../../src/mcp/index.js';
import { compileToolContracts } from '../../src/mcp/server/tool-contract.js';
import type { ToolContract } from '../../src/mcp/server/tool-contract.js';
import { tempReleaseStore, valueOf, workflowProfile } from '../../test/mcp/support/connect.js';
import { Participant } from '../../test/mcp/support/participant.js';
import { fromRouteToCompletion, toRouteQuestion } from '../../test/mcp/support/research-run.js';
import { fmt, fmtNs, lowerText } from '../format.js';
import { elapsedMs, median, nowNs, rounds } from '../harness.js';
import type { Figure, SuiteContext } from '../model.js';

const KB = 1024;

function frozenContracts(): ToolContract[] {
  const file = join(packageRoot(), 'test', 'guided', 'fixtures', 'contracts-1.0.0.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { tools: ToolContract[] }).tools;
}

/** The same workflow-engine profile with the frozen contracts listed and checked instead of the current ones. */
function withContracts(profile: McpProfile, contracts: readonly ToolContract[]): McpProfile {
  const compiled = compileToolContracts(contracts, {
    compiler: new SchemaCompiler({ unicodeLength: false, inlineRefs: false }),
    issueCompiler: new SchemaCompiler({ unicodeLength: false }),
  });
  return {
    ...profile,
    tools: profile.tools.map((entry) => {
      const contract = compiled.find((c) => c.name === entry.contract.name);
      if (contract === undefined) throw new Error(`no frozen contract for ${entry.contract.name}`);
      return { ...entry, contract };
    }),
  };
}

async function connected(profile: McpProfile): Promise<{ client: Client; close(): Promise<void> }> {
  const server = createMcpServer(profile);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench-contracts', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** tools/list as it goes over the wire (the JSON-RPC result). */
async function toolsListBytes(profile: McpProfile): Promise<number> {
  const c = await connected(profile);
  try {
    return bytes(await c.client.request({ method: 'tools/list' }, ListToolsResultSchema));
  } finally {
    await c.close();
  }
}

/** One fresh SDK client's `listTools()` (it compiles a validator per output schema), in ns. */
async function listToolsNs(profile: McpProfile): Promise<number> {
  const c = await connected(profile);
  try {
    const start = nowNs();
    const { tools } = await c.client.listTools();
    const ns = elapsedMs(start) * 1e6;
    if (tools.length !== 4) throw new Error(`expected four tools, got ${tools.length}`);
    return ns;
  } finally {
    await c.close();
  }
}

interface RunBytes {
  /** Bytes of every result as sent, and as the 1.0.0 payload would have sent it (every host asset body every step). */
  readonly total: number;
  readonly oldTotal: number;
  readonly calls: number;
  readonly start: number;
  readonly oldStart: number;
  readonly continues: readonly number[];
  readonly oldContinues: readonly number[];
}

type Entry = Record<string, unknown>;

/**
 * The 1.0.0 form of a result: after setup, every host asset and the host adapter carried its `content` again (and
 * `project_local.content`). Put back from what setup sent (same URI, same digest), so both forms are measured on
 * the very same run.
 */
function asSentBy100(result: Entry, setupTexts: Map<string, string>): Entry {
  const value = result['structuredContent'] as Entry | undefined;
  const step = value?.['step'] as Entry | null | undefined;
  if (value === undefined || step === undefined || step === null) return result;
  const inflate = (entry: Entry): Entry => {
    if (typeof entry['content'] === 'string') return entry;
    const text = setupTexts.get(entry['uri'] as string);
    if (text === undefined) throw new Error(`setup sent no ${String(entry['uri'])}`);
    const local = entry['project_local'] as Entry | null | undefined;
    const localText = local === undefined || local === null ? undefined : setupTexts.get(`${String(local['path'])}`);
    return local === undefined || local === null
      ? { ...entry, content: text }
      : { ...entry, content: text, project_local: { ...local, content: localText } };
  };
  const whole = {
    ...value,
    step: {
      ...step,
      host_assets: (step['host_assets'] as Entry[]).map(inflate),
      host_adapter: inflate(step['host_adapter'] as Entry),
    },
  };
  return { ...result, content: [{ type: 'text', text: canonicalJson(whole) }], structuredContent: whole };
}

/** What setup sent in full: host asset and adapter bodies by URI, project-local bodies by path. */
function rememberSetup(result: Entry, into: Map<string, string>): void {
  const step = (result['structuredContent'] as Entry | undefined)?.['step'] as Entry | null | undefined;
  if (step === undefined || step === null) return;
  for (const entry of [...(step['host_assets'] as Entry[]), step['host_adapter'] as Entry]) {
    if (typeof entry['content'] === 'string') into.set(entry['uri'] as string, entry['content']);
    const local = entry['project_local'] as Entry | null | undefined;
    if (local && typeof local['content'] === 'string') into.set(local['path'] as string, local['content']);
  }
}

/** Bytes of every tool result over one whole research-decision run (both routes' shared path, desk research). */
async function runResultBytes(profile: McpProfile): Promise<RunBytes> {
  const c = await connected(profile);
  const setupTexts = new Map<string, string>();
  let total = 0;
  let oldTotal = 0;
  let calls = 0;
  let start = 0;
  let oldStart = 0;
  const continues: number[] = [];
  const oldContinues: number[] = [];
  try {
    const p = new Participant(async (name, args) => {
      const result = (await c.client.callTool({ name, arguments: args })) as Entry;
      if (name === 'rimthan.start_workflow') rememberSetup(result, setupTexts);
      const size = bytes(result);
      const oldSize = bytes(asSentBy100(result, setupTexts));
      total += size;
      oldTotal += oldSize;
      calls += 1;
      if (name === 'rimthan.start_workflow') [start, oldStart] = [size, oldSize];
      if (name === 'rimthan.continue_workflow') {
        continues.push(size);
        oldContinues.push(oldSize);
      }
      return { isError: result['isError'] === true, value: valueOf(result) };
    });
    await toRouteQuestion(p);
    await fromRouteToCompletion(p);
    return { total, oldTotal, calls, start, oldStart, continues, oldContinues };
  } finally {
    await c.close();
  }
}

/** A byte figure against the 1.0.0 baseline of the same run; `aimBytes` as a number, or an aim relative to 1.0.0. */
function sizeFigure(
  name: string,
  now: number,
  old: number,
  aim: { readonly bytes: number } | { readonly text: string; readonly met: boolean },
  note: string,
): Figure {
  return {
    name,
    rimthan: { value: now, unit: 'bytes' },
    baseline: { label: 'frozen 1.0.0', quantity: { value: old, unit: 'bytes' } },
    ratio: { value: now / old, text: `${fmt((now / old) * 100)}% of 1.0.0` },
    aim: 'bytes' in aim ? { text: `≤ ${fmt(aim.bytes / KB)} KB`, met: now <= aim.bytes } : aim,
    note: `${fmt(now / KB)} KB vs ${fmt(old / KB)} KB; ${note}`,
  };
}

export async function contractsPart(ctx: SuiteContext): Promise<{ figures: Figure[]; notes: string[] }> {
  const active = readFileSync(join(packageRoot(), 'releases', 'ACTIVE'), 'utf8').trim();
  const releases = tempReleaseStore(active);
  try {
    const current = workflowProfile(releases.store);
    const frozen = frozenContracts();
    const old = withContracts(current, frozen);
    const inputBytes = (list: readonly { inputSchema: unknown }[]): number =>
      list.reduce((sum, t) => sum + bytes(t.inputSchema), 0);
    const newInputs = inputBytes(current.tools.map((t) => t.contract.listing));
    const oldInputs = inputBytes(frozen);
    const newList = await toolsListBytes(current);
    const oldList = await toolsListBytes(old);

    ctx.progress('guided/contracts: SDK listTools(), old and new contracts interleaved');
    const count = ctx.long ? 15 : 7;
    await listToolsNs(current); // warm both paths once
    await listToolsNs(old);
    const times = await rounds({ now: () => listToolsNs(current), old: () => listToolsNs(old) }, count);
    const nowNsMedian = median(times.now);
    const oldNsMedian = median(times.old);

    ctx.progress('guided/contracts: one whole research-decision run, bytes a model receives');
    const run = await runResultBytes(current);
    const whole = newList + run.total;
    const oldWhole = oldList + run.oldTotal;
    const continueNow = median(run.continues);
    const continueOld = median(run.oldContinues);
    const figures: Figure[] = [
      sizeFigure(
        'input schemas of the four tools, with descriptions',
        newInputs,
        oldInputs,
        { bytes: 16 * KB },
        'JSON',
      ),
      sizeFigure('tools/list of the workflow-engine profile', newList, oldList, { bytes: 40 * KB }, 'JSON-RPC result'),
      sizeFigure(
        'start_workflow result (setup: every host asset and the adapter in full)',
        run.start,
        run.oldStart,
        { text: '≤ 1.0.0 (setup sends each body once)', met: run.start <= run.oldStart },
        'text and structuredContent',
      ),
      sizeFigure(
        'median continue_workflow result',
        continueNow,
        continueOld,
        { text: '< 1.0.0 (attested assets by URI + digest)', met: continueNow < continueOld },
        `${run.continues.length} calls`,
      ),
      {
        name: 'SDK client listTools() (compiles the output schemas)',
        rimthan: { value: nowNsMedian / 1e6, unit: 'ms' },
        baseline: { label: 'frozen 1.0.0 contracts', quantity: { value: oldNsMedian / 1e6, unit: 'ms' } },
        ratio: { value: oldNsMedian / nowNsMedian, text: lowerText(oldNsMedian / nowNsMedian) },
        note: `median of ${count} interleaved rounds, a fresh client each: ${fmtNs(nowNsMedian)} vs ${fmtNs(oldNsMedian)}`,
      },
      sizeFigure(
        'bytes a model receives over one whole research-decision run (tools/list + every result)',
        whole,
        oldWhole,
        { text: '< 1.0.0 (nothing repeated that setup attested)', met: whole < oldWhole },
        `${run.calls} calls, results ${fmt(run.total / KB)} KB vs ${fmt(run.oldTotal / KB)} KB; each result carries ` +
          'its JSON twice (text and structuredContent)',
      ),
    ];
    const notes = [
      'contracts: sizes are JSON bytes as sent; the 1.0.0 contracts are served by the same server in the same run ' +
        '(same handlers, only the listed and checked schemas differ). The run is the desk-research route with one ' +
        'validator failure and repair, as test/mcp/transports/stdio.e2e.test.ts drives it. Its 1.0.0 result bytes ' +
        'are the same results with every host asset and adapter body put back after setup (1.0.0 resent them on ' +
        'every step), from the bodies setup sent (same URI and digest).',
    ];
    return { figures, notes };
  } finally {
    releases.cleanup();
  }
}
