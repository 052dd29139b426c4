/**
 * Third-party MCP clients a harness author reaches for: `@langchain/mcp-adapters` (whose schema simplifier flattens
 * unions, once turning a confirmed-state value into `type: object` so start_workflow failed on the client) and
 * `@ai-sdk/mcp`. Each lists the four tools of a spawned `rimthan serve` over stdio, drives the packaged
 * research-decision workflow to `completed` through them, and delivers the server's own structured error code for a
 * call the protocol refuses (not a client-side schema failure). Each also calls all four tools with confirmed-state
 * values of every JSON kind (strings, numbers, booleans, null, arrays, nested objects, as deep as the contract allows,
 * and fast-check's generated values): the client passes each to the server, whose own verdict comes back.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import type { ToolMessage } from '@langchain/core/messages';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import type { JsonObject } from '../../../src/core/index.js';
import { GuidedToolName } from '../../../src/guided/index.js';
import { confirmed, LIBRARY_HOST, Participant } from '../../mcp/support/participant.js';
import type { Caller, CallOutcome } from '../../mcp/support/participant.js';
import { fromRouteToCompletion, toRouteQuestion } from '../../mcp/support/research-run.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
const FOUR = Object.values(GuidedToolName).sort();

function serverEnv(stateHome: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', HOME: stateHome, XDG_STATE_HOME: stateHome };
}

/** The server's error object from the canonical JSON text of a tool error. */
function errorOf(text: string): JsonObject {
  const start = text.indexOf('{');
  assert.ok(start >= 0, `no JSON in ${text.slice(0, 200)}`);
  return JSON.parse(text.slice(start)) as JsonObject;
}

/** Calls the protocol refuses, whatever the client: a tampered checkpoint and bundle, an unknown workflow. */
async function refusedCalls(call: Caller, p: Participant): Promise<Record<string, CallOutcome>> {
  const checkpoint = { ...(p.checkpoint as JsonObject), token: `${(p.checkpoint as JsonObject)['token'] as string}x` };
  const state = p.state;
  return {
    start: await call(GuidedToolName.StartWorkflow, {
      workflow: 'no-such-workflow',
      confirmed_state: state,
      host: p.host(),
    }),
    continue: await call(GuidedToolName.ContinueWorkflow, { checkpoint, confirmed_state: state }),
    prepare: await call(GuidedToolName.PrepareStepValidation, {
      checkpoint,
      confirmed_state: state,
      artifacts: [],
      repository_policy: { conflict: false },
      validator_capabilities: ['workspace.read', 'web.read'],
    }),
    submit: await call(GuidedToolName.SubmitStepValidation, {
      checkpoint,
      confirmed_state: state,
      validation_bundle: {
        registry_id: 'rimthan',
        registry_release: 'research-2026.11.1',
        manifest_sha256: '0'.repeat(64),
        workflow: { id: 'research-decision', version: '1.2.0' },
        step_id: 'desk-research',
        checkpoint_sha256: '0'.repeat(64),
        artifacts: {},
        validators: [],
        issued_at: '2026-11-02T09:00:00Z',
        key_id: 'k',
        validation_token: 'a.b',
      },
      reports: [],
    }),
  };
}

/** Confirmed-state values a workflow's schema may declare: every JSON kind, nested as deep as the contract allows. */
const RICH_STATE: JsonObject = {
  objective: 'Pick the queue for billing events — before Q1 (ünïcödé, "quotes", \\ backslash)',
  budget_eur: 12500,
  error_budget: 0.025,
  offset_hours: -3,
  on_call_ready: true,
  needs_legal_review: false,
  deadline: null,
  candidate_options: ['kafka', 'rabbitmq', 'nats'],
  scores: [0.9, 1, -2, null, true, 'n/a'],
  empty_list: [],
  empty_object: {},
  owners: { primary: { name: 'Billing team', pager: true, levels: [1, 2, 'sre', null] } },
  matrix: [
    [1, 2],
    ['a', null],
  ],
};

/**
 * Every tool with `state` as the confirmed state and otherwise well-formed arguments (the participant's current
 * checkpoint): what the server answered, whatever it was. A client-side schema refusal throws instead.
 */
async function callsWithState(call: Caller, p: Participant, state: JsonObject): Promise<Record<string, CallOutcome>> {
  const confirmed_state = confirmed(state);
  const checkpoint = p.checkpoint as JsonObject;
  return {
    start: await call(GuidedToolName.StartWorkflow, { workflow: 'research', confirmed_state, host: p.host() }),
    continue: await call(GuidedToolName.ContinueWorkflow, {
      checkpoint,
      confirmed_state: p.state,
      next_confirmed_state: confirmed_state,
    }),
    prepare: await call(GuidedToolName.PrepareStepValidation, {
      checkpoint,
      confirmed_state,
      artifacts: [],
      repository_policy: { conflict: false },
      validator_capabilities: ['workspace.read', 'web.read'],
    }),
    submit: await call(GuidedToolName.SubmitStepValidation, {
      checkpoint,
      confirmed_state,
      validation_bundle: {
        registry_id: 'rimthan',
        registry_release: 'research-2026.11.1',
        manifest_sha256: '0'.repeat(64),
        workflow: { id: 'research-decision', version: '1.2.0' },
        step_id: 'desk-research',
        checkpoint_sha256: '0'.repeat(64),
        artifacts: {},
        validators: [],
        issued_at: '2026-11-02T09:00:00Z',
        key_id: 'k',
        validation_token: 'a.b',
      },
      reports: [],
    }),
  };
}

/** The server judged the value itself: an answer, or one of its own errors other than a refused argument shape. */
function assertReachedServer(outcomes: Record<string, CallOutcome>, what: string): void {
  for (const [tool, outcome] of Object.entries(outcomes)) {
    if (!outcome.isError) continue;
    const error = outcome.value['error'] as JsonObject | undefined;
    assert.equal(typeof error?.['code'], 'string', `${tool} (${what}): the server's error object arrived`);
    assert.notEqual(error?.['code'], 'invalid_arguments', `${tool} (${what}): ${JSON.stringify(error)}`);
  }
}

/** Rich values, then generated ones, through all four tools. */
async function everyKindOfState(call: Caller, p: Participant): Promise<void> {
  const rich = await callsWithState(call, p, RICH_STATE);
  assertReachedServer(rich, 'rich state');
  // The research contract declares none of the extra fields: start is refused by the server for that, not the client.
  assert.equal(rich['start']?.isError === true || rich['start']?.value['status'] === 'blocked', true);
  const value = fc.jsonValue({ maxDepth: 2 });
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/), value, { maxKeys: 4 }),
      async (extra) => {
        assertReachedServer(await callsWithState(call, p, { objective: 'o', ...(extra as JsonObject) }), 'generated');
      },
    ),
    { numRuns: 15 },
  );
}

function assertRefusedByServer(outcomes: Record<string, CallOutcome>): void {
  for (const [tool, outcome] of Object.entries(outcomes)) {
    assert.equal(outcome.isError, true, `${tool} is refused`);
    const error = outcome.value['error'] as JsonObject | undefined;
    assert.equal(typeof error?.['code'], 'string', `${tool}: the server's error object arrived`);
  }
  assert.equal((outcomes['continue']?.value['error'] as JsonObject)['code'], 'workflow_checkpoint_error');
  assert.equal((outcomes['prepare']?.value['error'] as JsonObject)['code'], 'workflow_checkpoint_error');
  assert.equal((outcomes['submit']?.value['error'] as JsonObject)['code'], 'workflow_checkpoint_error');
  assert.notEqual((outcomes['start']?.value['error'] as JsonObject)['code'], 'invalid_arguments');
}

describe('third-party MCP clients over stdio', () => {
  const stateHome = mkdtempSync(join(tmpdir(), 'rimthan-adapters-'));
  after(() => rmSync(stateHome, { recursive: true, force: true }));

  test('@langchain/mcp-adapters lists and calls all four tools, through to completed', async () => {
    const client = new MultiServerMCPClient({
      mcpServers: {
        rimthan: { transport: 'stdio', command: process.execPath, args: [MAIN, 'serve'], env: serverEnv(stateHome) },
      },
    });
    try {
      const tools = await client.getTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), FOUR);
      let id = 0;
      const call: Caller = async (name, args) => {
        const tool = tools.find((t) => t.name === name);
        assert.ok(tool, name);
        try {
          const message = (await tool.invoke({ type: 'tool_call', id: `call-${++id}`, name, args })) as ToolMessage;
          const artifacts = message.artifact as { type: string; data?: unknown }[];
          const structured = artifacts.find((a) => a.type === 'mcp_structured_content');
          assert.ok(structured, `${name}: structured content delivered`);
          return { isError: false, value: structured.data as JsonObject };
        } catch (error) {
          // A tool error of the server arrives as a ToolException carrying its text; a client-side schema refusal
          // (ToolInputParsingException) is a failure of this test.
          if (!(error instanceof Error) || error.name !== 'ToolException') throw error;
          return { isError: true, value: errorOf(error.message) };
        }
      };
      const p = new Participant(call, LIBRARY_HOST);
      await toRouteQuestion(p);
      assert.deepEqual(await fromRouteToCompletion(p), ['validation_failed', 'advanced', 'completed']);
      assertRefusedByServer(await refusedCalls(call, p));
      await everyKindOfState(call, p);
    } finally {
      await client.close();
    }
  });

  test('@ai-sdk/mcp lists and calls all four tools, through to completed', async () => {
    const client = await createMCPClient({
      transport: new Experimental_StdioMCPTransport({
        command: process.execPath,
        args: [MAIN, 'serve'],
        env: serverEnv(stateHome),
      }),
    });
    try {
      const tools = await client.tools();
      assert.deepEqual(Object.keys(tools).sort(), FOUR);
      let id = 0;
      const call: Caller = async (name, args) => {
        const tool = tools[name];
        assert.ok(tool?.execute, name);
        const result = (await tool.execute(args, { toolCallId: `call-${++id}`, messages: [] })) as {
          isError?: boolean;
          structuredContent?: JsonObject;
          content: { type: string; text?: string }[];
        };
        if (result.isError === true) return { isError: true, value: errorOf(result.content[0]?.text ?? '') };
        assert.ok(result.structuredContent, `${name}: structured content delivered`);
        return { isError: false, value: result.structuredContent };
      };
      const p = new Participant(call, LIBRARY_HOST);
      await toRouteQuestion(p);
      assert.deepEqual(await fromRouteToCompletion(p), ['validation_failed', 'advanced', 'completed']);
      assertRefusedByServer(await refusedCalls(call, p));
      await everyKindOfState(call, p);
    } finally {
      await client.close();
    }
  });
});
