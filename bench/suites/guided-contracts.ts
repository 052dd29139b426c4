/**
 * The guided suite's `contracts` part: what the four tool contracts cost a model and a client, against the frozen
 * 1.0.0 contracts (test/guided/fixtures/contracts-1.0.0.json) served by the same server in the same run:
 * - bytes of the four input schemas, and of the whole workflow-engine `tools/list` answer;
 * - the official SDK client's `listTools()` (which compiles every output schema), interleaved rounds, old vs new;
 * - bytes a model receives over one whole research-decision run: `tools/list` plus every tool result as sent (canonical
 *   JSON text and `structuredContent`), driven by the faithful participant the MCP tests use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { packageRoot, SchemaCompiler } from '../../src/core/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import type { McpProfile } from '../../src/mcp/index.js';
import { compileToolContracts } from '../../src/mcp/tool-contract.js';
import type { ToolContract } from '../../src/mcp/tool-contract.js';
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

/** Bytes of every tool result over one whole research-decision run (both routes' shared path, desk research). */
async function runResultBytes(profile: McpProfile): Promise<{ total: number; calls: number; start: number }> {
  const c = await connected(profile);
  let total = 0;
  let calls = 0;
  let start = 0;
  try {
    const p = new Participant(async (name, args) => {
      const result = await c.client.callTool({ name, arguments: args });
      const size = bytes(result);
      total += size;
      calls += 1;
      if (name === 'rimthan.start_workflow') start = size;
      return { isError: result.isError === true, value: valueOf(result) };
    });
    await toRouteQuestion(p);
    await fromRouteToCompletion(p);
    return { total, calls, start };
  } finally {
    await c.close();
  }
}

function sizeFigure(name: string, now: number, old: number, aimBytes: number): Figure {
  return {
    name,
    rimthan: { value: now, unit: 'bytes' },
    baseline: { label: 'frozen 1.0.0 contracts', quantity: { value: old, unit: 'bytes' } },
    ratio: { value: now / old, text: `${fmt((now / old) * 100)}% of 1.0.0` },
    aim: { text: `≤ ${fmt(aimBytes / KB)} KB`, met: now <= aimBytes },
    note: `${fmt(now / KB)} KB vs ${fmt(old / KB)} KB`,
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
    const figures: Figure[] = [
      sizeFigure('input schemas of the four tools, with descriptions', newInputs, oldInputs, 16 * KB),
      sizeFigure('tools/list of the workflow-engine profile', newList, oldList, 40 * KB),
      {
        name: 'SDK client listTools() (compiles the output schemas)',
        rimthan: { value: nowNsMedian / 1e6, unit: 'ms' },
        baseline: { label: 'frozen 1.0.0 contracts', quantity: { value: oldNsMedian / 1e6, unit: 'ms' } },
        ratio: { value: oldNsMedian / nowNsMedian, text: lowerText(oldNsMedian / nowNsMedian) },
        note: `median of ${count} interleaved rounds, a fresh client each: ${fmtNs(nowNsMedian)} vs ${fmtNs(oldNsMedian)}`,
      },
      {
        name: 'bytes a model receives over one whole research-decision run (tools/list + every result)',
        rimthan: { value: newList + run.total, unit: 'bytes' },
        baseline: {
          label: 'same run, 1.0.0 tools/list',
          quantity: { value: oldList + run.total, unit: 'bytes' },
        },
        ratio: {
          value: (newList + run.total) / (oldList + run.total),
          text: `${fmt(((newList + run.total) / (oldList + run.total)) * 100)}% of 1.0.0`,
        },
        note:
          `${run.calls} calls, results ${fmt(run.total / KB)} KB (start_workflow ${fmt(run.start / KB)} KB); ` +
          'each result carries its JSON twice (text and structuredContent)',
      },
    ];
    const notes = [
      'contracts: sizes are JSON bytes as sent; the 1.0.0 contracts are served by the same server in the same run ' +
        '(same handlers, only the listed and checked schemas differ). The run is the desk-research route with one ' +
        'validator failure and repair, as test/mcp/stdio-e2e.test.ts drives it.',
    ];
    return { figures, notes };
  } finally {
    releases.cleanup();
  }
}
