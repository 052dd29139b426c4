/**
 * An approval resumed through form elicitation over MCP 2026-07-28 (a real `rimthan serve --profile runs`, the v2
 * client): `workflow_run_resume` of a run waiting for a person's review asks the person the definition's resume schema
 * as a form (the model's proposed values as defaults) and resumes with the answer; a declined form leaves the run
 * interrupted (`declined`, saying what resumes it); a cancelled form resumes with the call's own payload; a client
 * without elicitation resumes as before; a tampered request state is refused.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import type { JsonObject } from '../../../src/core/index.js';
import { REVIEW_FLOWS_MODULE } from '../../support/review-flow.js';
import { eventually, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';
import { elicitingClient, modernCall, modernHttp } from '../support/modern-client.js';

const TOKEN = 'run-elicitation-token-0123456789abcdef';

async function connect(client: Client, url: string): Promise<Client> {
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
  );
  return client;
}

/** Starts a review run through `client` and waits until it is interrupted for the person. */
async function interruptedRun(client: Client, title: string): Promise<string> {
  const started = await modernCall(client, 'workflow_run_start', {
    definition_name: 'review_flow',
    definition_version: 'v1',
    input: { title },
  });
  assert.equal(started.isError, false, JSON.stringify(started.value));
  const runId = started.value['run_id'] as string;
  await eventually('the run waits for its review', async () => (await status(client, runId)) === 'interrupted');
  return runId;
}

async function status(client: Client, runId: string): Promise<string> {
  const got = await modernCall(client, 'workflow_run_get', { run_id: runId });
  return got.value['run_status'] as string;
}

describe('a run resumed through form elicitation (MCP 2026-07-28)', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-run-elicit-'));
  const flows = join(work, 'flows.mjs');
  writeFileSync(flows, REVIEW_FLOWS_MODULE);
  const env = { HOME: work, XDG_STATE_HOME: work, RIMTHAN_MCP_BEARER_TOKEN: TOKEN };
  let server: ServeProcess | undefined;
  after(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('the person approves through the form; declined stays interrupted; cancelled proceeds; without elicitation, as before', async () => {
    const store = `sqlite:${join(work, 'runs.db')}`;
    server = await spawnServe(
      ['--profile', 'runs', '--transport', 'http', '--port', '0', '--store', store, '--flows', flows],
      env,
    );
    const plain = await modernHttp(server.url, TOKEN);
    try {
      // Declined: refused with `declined`, the run stays interrupted.
      const declinedRun = await interruptedRun(plain, 'Declined note');
      const declinedAsks: ElicitRequestFormParams[] = [];
      const declining = await connect(
        elicitingClient(() => ({ action: 'decline' }), declinedAsks),
        server.url,
      );
      const declined = await modernCall(declining, 'workflow_run_resume', {
        run_id: declinedRun,
        resume: { approved: true },
      });
      await declining.close();
      assert.equal(declinedAsks.length, 1);
      assert.equal(declined.isError, true);
      const refusal = declined.value['error'] as JsonObject;
      assert.equal(refusal['code'], 'declined');
      // The refusal says what resumes the run: the tool, the run id and the field the form asked.
      assert.match(refusal['message'] as string, new RegExp(`workflow_run_resume again with run_id "${declinedRun}"`));
      assert.match(refusal['message'] as string, /resume object of approved/);
      assert.equal(await status(plain, declinedRun), 'interrupted');

      // Cancelled (the host dismissed the form, as `claude -p` does with every form): no answer at all, so the call
      // goes on with the resume it carried, and the run completes.
      const cancelledRun = await interruptedRun(plain, 'Cancelled note');
      const cancelledAsks: ElicitRequestFormParams[] = [];
      const cancelling = await connect(
        elicitingClient(() => ({ action: 'cancel' }), cancelledAsks),
        server.url,
      );
      const proceeded = await modernCall(cancelling, 'workflow_run_resume', {
        run_id: cancelledRun,
        resume: { approved: true },
      });
      await cancelling.close();
      assert.equal(cancelledAsks.length, 1, 'the person was offered the form once');
      assert.equal(proceeded.isError, false, JSON.stringify(proceeded.value));
      await eventually(
        "the run resumed with the call's own answer completes",
        async () => (await status(plain, cancelledRun)) === 'completed',
      );

      // Approved through the form: the model proposed `approved: false` (which would keep the run waiting); the
      // person's answer wins, so the run completes.
      const runId = await interruptedRun(plain, 'Quarterly note');
      const asked: ElicitRequestFormParams[] = [];
      const person = await connect(
        elicitingClient(() => ({ action: 'accept', content: { approved: true } }), asked),
        server.url,
      );
      const resumed = await modernCall(person, 'workflow_run_resume', { run_id: runId, resume: { approved: false } });
      await person.close();
      assert.equal(resumed.isError, false, JSON.stringify(resumed.value));
      assert.equal(asked.length, 1, 'the person was asked once');
      const field = asked[0]?.requestedSchema.properties['approved'] as { type?: string; default?: unknown };
      assert.equal(field.type, 'boolean');
      assert.equal(field.default, false, "the model's proposal is the form's default");
      await eventually('the run completes', async () => (await status(plain, runId)) === 'completed');
      // Without elicitation: workflow_run_resume resumes with the given payload, as before.
      const other = await interruptedRun(plain, 'Plain note');
      // `approved: false` (the model's proposal above) keeps the run waiting: it is interrupted a second time.
      const refused = await modernCall(plain, 'workflow_run_resume', { run_id: other, resume: { approved: false } });
      assert.equal(refused.isError, false, JSON.stringify(refused.value));
      await eventually('the unapproved run waits again', async () => {
        const history = await modernCall(plain, 'workflow_run_history', { run_id: other });
        const kinds = (history.value['entries'] as JsonObject[]).map((e) => e['kind']);
        return (
          kinds.filter((k) => k === 'run_interrupted').length === 2 && (await status(plain, other)) === 'interrupted'
        );
      });
      const plainResume = await modernCall(plain, 'workflow_run_resume', { run_id: other, resume: { approved: true } });
      assert.equal(plainResume.isError, false, JSON.stringify(plainResume.value));
      await eventually('the plain run completes', async () => (await status(plain, other)) === 'completed');
    } finally {
      await plain.close();
    }
  });
});
