import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { KeyRing, RequestStateCodec, RequestStateError, TokenSigner } from '../../src/core/index.js';
import type { Clock, JsonObject } from '../../src/core/index.js';
import { createRunHandles } from '../../src/tools/index.js';
import type { ResumeRound, RunHandles, RunToolResult } from '../../src/tools/index.js';
import { openStack, SESSION_B } from './harness.js';
import type { Stack } from './harness.js';

const RELEASE = { definition_name: 'approval_flow', definition_version: 'v1' };
const RELEASE_INPUT = { version: '1.2.3', changes: ['fix the thing'] };
const COUNTER = { definition_name: 'counter_flow', definition_version: 'v1' };

let t = Date.parse('2026-12-02T07:00:00.000Z');
const clock: Clock = { now: () => new Date(t) };
const codec = new RequestStateCodec(
  new TokenSigner(new KeyRing({ activeKeyId: 'k', activeSecret: 's'.repeat(32) })),
  clock,
);

function value(result: RunToolResult): JsonObject {
  assert.ok(result.ok, result.ok ? '' : `${result.error.code}: ${result.error.message}`);
  return result.value;
}

function asked(round: ResumeRound): Extract<ResumeRound, { kind: 'ask' }> {
  assert.equal(round.kind, 'ask');
  return round;
}

describe('runs as handles and resumes asked through a form', () => {
  let stack: Stack;
  let handles: RunHandles;
  let foreign: RunHandles;
  before(async () => {
    stack = await openStack();
    handles = createRunHandles({ tools: stack.tools(), catalog: stack.catalog, codec });
    foreign = createRunHandles({ tools: stack.tools(SESSION_B), catalog: stack.catalog, codec });
  });
  after(() => stack.close());

  async function interruptedRelease(): Promise<string> {
    const started = await stack.ok(stack.tools(), 'workflow_run_start', { ...RELEASE, input: RELEASE_INPUT });
    const runId = started['run_id'] as string;
    await stack.waitFor(stack.tools(), runId, 'interrupted');
    return runId;
  }

  async function waitPhase(runId: string, phase: string): Promise<JsonObject> {
    for (;;) {
      const view = value(await handles.view(runId));
      if (view['phase'] === phase) return view;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  test('a run interrupted for a person is awaiting_person with the form of its resume schema', async () => {
    const runId = await interruptedRelease();
    const view = value(await handles.view(runId));
    assert.equal(view['phase'], 'awaiting_person');
    assert.equal((view['run'] as JsonObject)['run_status'], 'interrupted');
    const form = view['form'] as JsonObject;
    assert.match(form['message'] as string, /Await approval/);
    assert.deepEqual(form['schema'], {
      type: 'object',
      properties: { approved: { type: 'boolean' }, comment: { type: 'string', maxLength: 2000 } },
      required: ['approved'],
    });
  });

  test('a run driven through its handle: answered, then completed, with progress', async () => {
    const runId = await interruptedRelease();
    const refused = await handles.answer(runId, { action: 'accept', content: { approved: 'yes' } });
    assert.equal(refused.ok, false);
    assert.equal(refused.ok ? '' : refused.error.code, 'invalid_input');
    // Bound to the interruption the form asked: an answer meant for another one is a conflict, never resumed.
    const interruption = (value(await handles.view(runId))['form'] as JsonObject)['interruption'] as string;
    assert.match(interruption, /^[0-9a-f]{64}$/);
    const good = { action: 'accept' as const, content: { approved: true, comment: 'ship it' } };
    const stale = await handles.answer(runId, good, 'f'.repeat(64));
    assert.equal(stale.ok ? '' : stale.error.code, 'conflict');
    assert.equal(value(await handles.view(runId))['phase'], 'awaiting_person', 'the stale answer changed nothing');
    value(await handles.answer(runId, good, interruption));
    const done = await waitPhase(runId, 'completed');
    assert.equal((done['run'] as JsonObject)['run_status'], 'completed');
    const progress = done['progress'] as JsonObject;
    assert.ok(
      (progress['completed'] as number) > 0 && (progress['completed'] as number) <= (progress['total'] as number),
    );
  });

  test('a handle of another session is not_found exactly like a missing one, and untouched', async () => {
    const runId = await interruptedRelease();
    const missing = randomUUID();
    for (const op of [
      (id: string) => foreign.view(id),
      (id: string) => foreign.answer(id, { action: 'accept', content: { approved: true } }),
      (id: string) => foreign.cancel(id),
    ]) {
      const a = await op(runId);
      const b = await op(missing);
      assert.ok(!a.ok && !b.ok);
      assert.deepEqual(a, b);
      assert.equal(a.ok ? '' : a.error.code, 'not_found');
    }
    assert.equal(value(await handles.view(runId))['phase'], 'awaiting_person');
  });

  test('cancelling a handle cancels as workflow_run_cancel does (and again is idempotent)', async () => {
    const runId = await interruptedRelease();
    assert.deepEqual(value(await handles.cancel(runId)), { run_id: runId, run_status: 'cancelled', idempotent: false });
    assert.equal(value(await handles.cancel(runId))['idempotent'], true);
    assert.equal(value(await handles.view(runId))['phase'], 'cancelled');
  });

  test('a run without a resume schema is working, then completed, never awaiting a person', async () => {
    const started = await stack.ok(stack.tools(), 'workflow_run_start', { ...COUNTER, input: { count: 2 } });
    const view = await waitPhase(started['run_id'] as string, 'completed');
    assert.equal(view['form'], undefined);
  });

  test('an approval resumed through a form: asked with the proposed values prefilled, then resumed by the answer', async () => {
    const runId = await interruptedRelease();
    const call = {
      tool: 'workflow_run_resume',
      arguments: { run_id: runId, resume: { approved: true } },
      principalId: 'user:alice',
    };
    const first = asked(await handles.elicitedResume(call, undefined));
    assert.equal(first.form.properties['approved']?.default, true);
    assert.equal(value(await handles.view(runId))['phase'], 'awaiting_person', 'asking changes nothing');

    // Refused: another run's arguments, another principal, a tampered state, an expired one.
    const otherArgs = { ...call, arguments: { run_id: runId, resume: { approved: false } } };
    const answer = { requestState: first.requestState, action: 'accept' as const, content: { approved: true } };
    const reasons: string[] = [];
    for (const [c, a] of [
      [otherArgs, answer],
      [{ ...call, principalId: 'user:bob' }, answer],
      [call, { ...answer, requestState: `${first.requestState.slice(0, -2)}AA` }],
    ] as const) {
      await assert.rejects(handles.elicitedResume(c, a), (e: unknown) => {
        assert.ok(e instanceof RequestStateError);
        reasons.push(e.reason);
        return true;
      });
    }
    assert.deepEqual(reasons, ['other_arguments', 'other_principal', 'tampered']);

    const declined = await handles.elicitedResume(call, { requestState: first.requestState, action: 'decline' });
    assert.equal(declined.kind, 'result');
    const declinedResult = declined.result;
    assert.equal(declinedResult.ok ? '' : declinedResult.error.code, 'declined');

    const resumed = await handles.elicitedResume(call, answer);
    assert.equal(resumed.kind, 'result');
    const run = value(resumed.result);
    assert.notEqual(run['run_status'], 'interrupted');
    await waitPhase(runId, 'completed');

    // Replaying the same round after the run moved on asks nothing and resumes nothing: it is the plain tool's answer.
    const replay = await handles.elicitedResume(call, answer);
    const replayed = (replay as Extract<ResumeRound, { kind: 'result' }>).result;
    assert.equal(replayed.ok ? '' : replayed.error.code, 'conflict');
  });

  test('a request state replayed after its lifetime is refused as expired', async () => {
    const runId = await interruptedRelease();
    const call = { tool: 'workflow_run_resume', arguments: { run_id: runId, resume: {} }, principalId: undefined };
    const first = asked(await handles.elicitedResume(call, undefined));
    t += 10 * 60 * 1000;
    await assert.rejects(
      handles.elicitedResume(call, { requestState: first.requestState, action: 'accept', content: { approved: true } }),
      (e: unknown) => e instanceof RequestStateError && e.reason === 'expired',
    );
  });
});
