import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isRimthanError } from '../../../src/core/errors.js';
import type { JsonObject } from '../../../src/core/json.js';
import { approvalFlow, counterFlow } from '../fixtures/test-flows.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { closedSchema, engineFixture, fullHistory, waitForStatus } from '../helpers.js';

function code(expected: string) {
  return (e: unknown) => isRimthanError(e) && e.code === expected;
}

describe('interrupt and resume', () => {
  test('approval_flow: interrupt for approval, reject with a comment, revise, approve, publish', async () => {
    const f = await engineFixture((c) => c.register(approvalFlow));
    try {
      const ack = await f.started('approval_flow', { version: '1.4.0', changes: ['Faster starts', 'Fix cancel'] });
      const first = await waitForStatus(f.store, ack.run_id, 'interrupted');
      assert.equal(first.interrupt?.reason, 'awaiting_input');
      assert.equal(first.interrupt?.vertex, 'await_approval');
      assert.equal(first.interrupt?.message, 'review the release notes (round 1)');

      await assert.rejects(f.session.resume(ack.run_id, { approved: 'yes' }), code('invalid_input'));
      await assert.rejects(f.session.resume(ack.run_id, { approved: true, extra: 1 }), code('invalid_input'));
      assert.equal((await f.store.getRunById(ack.run_id))?.record_revision, first.record_revision, 'nothing written');

      const resumed = await f.session.resume(ack.run_id, { approved: false, comment: 'mention the date' });
      assert.equal(resumed.status, 'running');
      const second = await waitForStatus(f.store, ack.run_id, 'interrupted');
      assert.equal(second.interrupt?.message, 'review the release notes (round 2)');
      const revised = (await f.store.latestCheckpoint(ack.run_id))?.state['flow_state'] as JsonObject;
      assert.match(revised['notes'] as string, /Revision 2: mention the date/);

      await f.session.resume(ack.run_id, { approved: true });
      const done = await waitForStatus(f.store, ack.run_id, 'completed');
      assert.equal(done.interrupt, null);
      const final = (await f.store.latestCheckpoint(ack.run_id))?.state['flow_state'] as JsonObject;
      assert.equal(final['published'], true);
      assert.match(final['publication_key'] as string, /^[0-9a-f]{64}$/);

      const history = await fullHistory(f.store, ack.run_id);
      assert.deepEqual(
        history.map((e) => [e.kind, e.vertex_id ?? '']),
        [
          ['run_started', ''],
          ['vertex_completed', 'draft_notes'],
          ['run_interrupted', 'await_approval'],
          ['run_resumed', 'await_approval'],
          ['vertex_completed', 'await_approval'],
          ['vertex_completed', 'revise_notes'],
          ['run_interrupted', 'await_approval'],
          ['run_resumed', 'await_approval'],
          ['vertex_completed', 'await_approval'],
          ['vertex_completed', 'publish'],
          ['run_completed', ''],
        ],
      );
      const revisions = f.checkpointRevisions(ack.run_id);
      assert.deepEqual(revisions, [...revisions.keys()], 'no gaps');
      assert.equal(done.checkpoint_revision, revisions.length - 1);
    } finally {
      await f.close();
    }
  });

  test('the resume payload reaches only the vertex resumed into', async () => {
    const seen: (JsonObject | undefined)[] = [];
    const ask = defineFlow<{ answer: string }>({
      name: 'ask_flow',
      version: 'v1',
      description: 'asks once',
      inputSchema: closedSchema({ answer: { type: 'string' } }),
      resumeSchema: closedSchema({ answer: { type: 'string' } }),
      graph: {
        start: 'ask',
        vertices: {
          ask: {
            run: ({ resume, interrupt }) => {
              seen.push(resume);
              if (resume === undefined) return interrupt('need an answer');
              return { answer: resume['answer'] as string };
            },
            next: 'after',
          },
          after: {
            run: ({ resume }) => {
              seen.push(resume);
            },
          },
        },
      },
    });
    const f = await engineFixture((c) => c.register(ask));
    try {
      const ack = await f.started('ask_flow', { answer: '' });
      await waitForStatus(f.store, ack.run_id, 'interrupted');
      await f.session.resume(ack.run_id, { answer: '42' });
      await waitForStatus(f.store, ack.run_id, 'completed');
      assert.deepEqual(seen, [undefined, { answer: '42' }, undefined]);
      assert.deepEqual((await f.store.latestCheckpoint(ack.run_id))?.state['flow_state'], { answer: '42' });
    } finally {
      await f.close();
    }
  });

  test('resume requires an interrupted run and a definition with a resume schema', async () => {
    const noResume = defineFlow<{ n: number }>({
      name: 'no_resume_flow',
      version: 'v1',
      description: 'interrupts but declares no resume schema',
      inputSchema: closedSchema({ n: { type: 'integer' } }),
      graph: { start: 'stop', vertices: { stop: { run: ({ interrupt }) => interrupt() } } },
    });
    const resumable = defineFlow<{ n: number }>({
      name: 'resumable_flow',
      version: 'v1',
      description: 'declares a resume schema but finishes without interrupting',
      inputSchema: closedSchema({ n: { type: 'integer' } }),
      resumeSchema: closedSchema({}),
      graph: { start: 'done', vertices: { done: { run: ({ state }) => state } } },
    });
    const f = await engineFixture((c) => {
      c.register(noResume);
      c.register(counterFlow);
      c.register(resumable);
    });
    try {
      const paused = await f.started('no_resume_flow', { n: 1 });
      await waitForStatus(f.store, paused.run_id, 'interrupted');
      await assert.rejects(f.session.resume(paused.run_id, {}), code('resume_not_supported'));

      // What the definition allows is checked before the run's status, as workflow_run_resume does.
      const done = await f.started('counter_flow', { count: 1 });
      await waitForStatus(f.store, done.run_id, 'completed');
      await assert.rejects(f.session.resume(done.run_id, {}), code('resume_not_supported'));

      const finished = await f.started('resumable_flow', { n: 1 });
      await waitForStatus(f.store, finished.run_id, 'completed');
      await assert.rejects(f.session.resume(finished.run_id, {}), code('conflict'));
      const pending = await f.pending('resumable_flow', { n: 1 });
      await assert.rejects(f.session.resume(pending.run_id, {}), code('conflict'));
    } finally {
      await f.close();
    }
  });
});
