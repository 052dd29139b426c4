/**
 * A real run-tools stack for tests: SqliteRunStore in a temp dir, the example catalog plus small test flows, a started
 * Supervisor, and one tool bundle per session. Every tool answer goes through `call`, which checks it against the
 * tool's output schema and records it so a test can assert what never appears in any output.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchemaCompiler } from '../../src/core/index.js';
import type { CompiledSchema, JsonObject } from '../../src/core/index.js';
import { testCatalog } from '../runs/fixtures/test-flows.js';
import { defineFlow, releaseNotesFlow, Supervisor } from '../../src/runs/index.js';
import type { FlowCatalog, SessionController } from '../../src/runs/index.js';
import { SqliteRunStore } from '../../src/runs/store/index.js';
import type { RunRecord } from '../../src/runs/store/index.js';
import { createRunTools } from '../../src/tools/index.js';
import { createPendingRun } from '../runs/helpers.js';
import type { RunTool, RunToolResult, RunToolsConfig } from '../../src/tools/index.js';

export const SESSION_A = 'session-a';
export const SESSION_B = 'session-b';

/** A gate a test opens by hand: the blocking flow's only vertex waits on it. */
export class Gate {
  #open!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.#open = resolve));
  entered = false;
  open(): void {
    this.#open();
  }
}

function testFlows(gate: Gate) {
  const blocking = defineFlow<{ marker: string }>({
    name: 'blocking_flow',
    version: 'v1',
    description: 'Waits until the test opens its gate.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['marker'],
      properties: { marker: { type: 'string' }, extra: { type: 'object' } },
    },
    graph: {
      start: 'wait',
      vertices: {
        wait: {
          run: async ({ signal }) => {
            gate.entered = true;
            await Promise.race([
              gate.opened,
              new Promise((_, reject) =>
                signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
              ),
            ]);
          },
        },
      },
    },
  });
  const askTwice = defineFlow<{ marker: string }>({
    name: 'ask_flow',
    version: 'v1',
    description: 'Interrupts until resumed with a number.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['marker'],
      properties: { marker: { type: 'string' } },
    },
    resumeSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['answer'],
      properties: { answer: { type: 'integer', minimum: 0 } },
    },
    graph: {
      start: 'ask',
      vertices: {
        ask: {
          // The executor of a Promise turns interrupt()'s throw into a rejection.
          run: (ctx) =>
            new Promise((resolve) => resolve(ctx.resume === undefined ? ctx.interrupt('answer please') : {})),
        },
      },
    },
  });
  return [blocking, askTwice] as const;
}

export interface Stack {
  readonly store: SqliteRunStore;
  readonly catalog: FlowCatalog;
  readonly supervisor: Supervisor;
  readonly gate: Gate;
  /** Every tool answer seen so far (values and errors), for leak checks. */
  readonly outputs: RunToolResult[];
  tools(sessionId?: string, extra?: Partial<RunToolsConfig>): RunTool[];
  call(tools: readonly RunTool[], name: string, args: JsonObject | string): Promise<RunToolResult>;
  /** Calls and asserts success; returns the value. */
  ok(tools: readonly RunTool[], name: string, args: JsonObject | string): Promise<JsonObject>;
  /** Calls and asserts the error code; returns the message. */
  fails(tools: readonly RunTool[], name: string, args: JsonObject | string, code: string): Promise<string>;
  /** Polls workflow_run_get until the run reaches `status`. */
  waitFor(tools: readonly RunTool[], runId: string, status: string): Promise<JsonObject>;
  close(): Promise<void>;
}

const compiler = new SchemaCompiler();
const outputChecks = new Map<string, CompiledSchema>();

function outputCheck(tool: RunTool): CompiledSchema {
  let check = outputChecks.get(tool.name);
  if (check === undefined) {
    check = compiler.compile(tool.outputSchema);
    outputChecks.set(tool.name, check);
  }
  return check;
}

export interface StackOptions {
  /** Also serve the shipped release_notes flow, for repositories below this folder. */
  readonly workspace?: string;
}

/** Opens a fresh stack; close it in `after`/`finally`. */
export async function openStack(options: StackOptions = {}): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-tools-'));
  const store = new SqliteRunStore(join(dir, 'runs.db'));
  await store.open();
  const gate = new Gate();
  const catalog = testCatalog();
  for (const flow of testFlows(gate)) catalog.register(flow);
  if (options.workspace !== undefined) catalog.register(releaseNotesFlow({ workspace: options.workspace }));
  const supervisor = new Supervisor({ store, catalog, leaseMs: 2_000, stopGraceMs: 50 });
  await supervisor.start();
  const outputs: RunToolResult[] = [];

  const stack: Stack = {
    store,
    catalog,
    supervisor,
    gate,
    outputs,
    tools(sessionId = SESSION_A, extra = {}) {
      return createRunTools({ sessionId, catalog, store, supervisor: supervisor.forSession(sessionId), ...extra });
    },
    async call(tools, name, args) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `no tool ${name}`);
      const result = await tool.invoke(typeof args === 'string' ? args : JSON.stringify(args));
      outputs.push(result);
      if (result.ok) {
        const check = outputCheck(tool)(result.value);
        assert.ok(check.ok, `${name} output breaks its schema: ${JSON.stringify(check)}`);
      }
      return result;
    },
    async ok(tools, name, args) {
      const result = await stack.call(tools, name, args);
      assert.ok(result.ok, `${name} failed: ${JSON.stringify(result)}`);
      return result.value;
    },
    async fails(tools, name, args, code) {
      const result = await stack.call(tools, name, args);
      assert.equal(result.ok, false, `${name} unexpectedly succeeded: ${JSON.stringify(result)}`);
      if (result.ok) return '';
      assert.equal(result.error.code, code, result.error.message);
      return result.error.message;
    },
    async waitFor(tools, runId, status) {
      for (let i = 0; i < 2_000; i++) {
        const run = await stack.ok(tools, 'workflow_run_get', { run_id: runId });
        if (run['run_status'] === status) return run;
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.fail(`run ${runId} never reached ${status}`);
    },
    async close() {
      gate.open();
      await supervisor.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return stack;
}

/** A stack that also serves release_notes for a fresh temporary workspace, which `close()` removes. */
export async function openWorkspaceStack(): Promise<Stack & { readonly workspace: string }> {
  const workspace = mkdtempSync(join(tmpdir(), 'rimthan-workspace-'));
  const stack = await openStack({ workspace });
  return {
    ...stack,
    workspace,
    async close() {
      await stack.close();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** The session's real controller, wrapped so a test can see which operations reached the engine. */
export function spyController(stack: Stack, sessionId: string): { controller: SessionController; calls: string[] } {
  const real = stack.supervisor.forSession(sessionId);
  const calls: string[] = [];
  const controller: SessionController = {
    sessionId,
    start: (id) => (calls.push('start'), real.start(id)),
    startNew: (request) => (calls.push('startNew'), real.startNew(request)),
    resume: (id, resume) => (calls.push('resume'), real.resume(id, resume)),
    cancel: (id, reason) => (calls.push('cancel'), real.cancel(id, reason)),
    history: (id, query) => (calls.push('history'), real.history(id, query)),
  };
  return { controller, calls };
}

/** Asserts `marker` appears in no tool output recorded so far. */
export function assertNeverShown(stack: Stack, marker: string): void {
  for (const output of stack.outputs)
    assert.ok(!JSON.stringify(output).includes(marker), 'a tool output leaked the marker');
}

/** A pending run created straight in the store (as if its start had not reached the seed yet). */
export function insertPendingRun(stack: Stack, sessionId: string, runId: string): Promise<RunRecord> {
  return createPendingRun(stack.store, { sessionId, runId, name: 'counter_flow', version: 'v1', input: { count: 1 } });
}
