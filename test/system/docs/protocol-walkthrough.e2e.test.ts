/**
 * docs/harness/protocol-walkthrough.md cannot drift from the contract: its JSON examples are sent to a spawned
 * `rimthan serve` over stdio (the start call as written; the prepare call and the validator report with their
 * `<placeholders>` filled from the real run), and every field and literal value they show must be what a faithful
 * harness really sends.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { packageRoot } from '../../../src/package/index.js';
import type { JsonObject, JsonValue } from '../../../src/core/index.js';
import { callTool } from '../../mcp/support/connect.js';
import { Participant } from '../../mcp/support/participant.js';
import { DECISION_QUESTION } from '../../mcp/support/research-artifacts.js';
import { codeBlocks } from './markdown.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
const DOC = readFileSync(join(packageRoot(), 'docs', 'harness', 'protocol-walkthrough.md'), 'utf8');
const examples = codeBlocks(DOC)
  .filter((b) => b.lang === 'json')
  .map((b) => JSON.parse(b.body) as JsonObject);

function example(has: string): JsonObject {
  const found = examples.find((e) => has in e);
  assert.ok(found, `the walkthrough has a JSON example with "${has}"`);
  return found;
}

const isPlaceholder = (v: JsonValue | undefined): boolean => typeof v === 'string' && /^<.*>$/.test(v);

/** Every field the doc shows exists in the real value, and every literal it shows is the real one. */
function sameShape(doc: JsonValue, real: JsonValue, where: string): void {
  if (isPlaceholder(doc)) return;
  if (Array.isArray(doc)) {
    assert.ok(Array.isArray(real), `${where} is an array`);
    doc.forEach((item, i) => {
      const id = (item as JsonObject | null)?.['artifact_id'];
      const match =
        typeof id === 'string' ? real.find((r) => (r as JsonObject)['artifact_id'] === id) : (real[i] as JsonValue);
      assert.ok(match !== undefined, `${where}[${i}] has a real counterpart`);
      sameShape(item, match, `${where}[${i}]`);
    });
    return;
  }
  if (doc !== null && typeof doc === 'object') {
    assert.ok(real !== null && typeof real === 'object' && !Array.isArray(real), `${where} is an object`);
    assert.deepEqual(Object.keys(doc).sort(), Object.keys(real).sort(), `${where} names the fields a harness sends`);
    for (const [k, v] of Object.entries(doc)) sameShape(v, real[k] as JsonValue, `${where}.${k}`);
    return;
  }
  assert.deepEqual(doc, real, `${where} as the doc shows it`);
}

describe('the protocol walkthrough, against rimthan serve', () => {
  const stateHome = mkdtempSync(join(tmpdir(), 'rimthan-walkthrough-'));
  after(() => rmSync(stateHome, { recursive: true, force: true }));

  test('its start, prepare and report examples are what the server accepts, as the doc describes', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve'],
      env: { PATH: process.env['PATH'] ?? '', HOME: stateHome, XDG_STATE_HOME: stateHome },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'walkthrough', version: '1.0.0' });
    await client.connect(transport);
    try {
      const sent = new Map<string, JsonObject>();
      const p = new Participant(async (name, args) => {
        sent.set(name, args);
        return callTool(client, name, args);
      });

      // 1. start_workflow exactly as written.
      const startArgs = example('host');
      const started = await p.ok('rimthan.start_workflow', startArgs);
      assert.equal(started['status'], 'active');
      p.state = startArgs['confirmed_state'] as JsonObject;
      p.checkpoint = started['checkpoint'] as JsonObject;
      p.step = started['step'] as JsonObject;
      assert.equal(p.currentStep, 'setup-workspace');
      const step = p.step;
      for (const field of [
        'step',
        'instruction',
        'host_assets',
        'host_adapter',
        'validators',
        'outputs',
        'resources',
      ]) {
        assert.ok(field in step, `the step payload has ${field}, as the doc lists`);
      }

      // 2. setup, the interview and the route, as the doc's prose says.
      assert.equal((await p.passStep())['status'], 'advanced');
      const interviewed = { ...(p.state['state'] as JsonObject), decision_question: DECISION_QUESTION };
      assert.equal((await p.continue(interviewed))['status'], 'active');
      while ((p.currentStep as string) !== 'select-route') await p.continue();
      // From research-decision@1.3.0 on, select-route is gated (it writes the research plan) and submit asks the
      // route question; earlier releases ask it on continue.
      const gated = ((p.step?.['outputs'] as JsonObject[] | undefined) ?? []).length > 0;
      assert.equal((await (gated ? p.passStep() : p.continue()))['status'], 'input_required');
      await p.continue({ ...(p.state['state'] as JsonObject), research_route: 'desk-research' });
      assert.equal(p.currentStep, 'desk-research');

      // 3. the gated prepare: the doc's example names exactly the fields sent, with the real literals.
      const prepared = await p.prepare();
      assert.equal(prepared['status'], 'ready_for_semantic_validation');
      sameShape(example('output_attestation'), sent.get('rimthan.prepare_step_validation') as JsonObject, 'prepare');

      // 4. the doc's report, one per listed validator, is accepted and fails the step as its outcome says.
      const docReport = example('validator_id');
      const reports = (prepared['validators'] as JsonObject[]).map((v) => ({
        ...docReport,
        validator_id: v['validator_id'] as string,
        validator_version: v['validator_version'] as string,
        instruction_sha256: v['instruction_sha256'] as string,
        input_artifacts: v['input_artifacts'] as JsonValue,
      }));
      for (const r of p.reports(prepared)) assert.deepEqual(Object.keys(docReport).sort(), Object.keys(r).sort());
      const submitted = await p.ok('rimthan.submit_step_validation', {
        checkpoint: p.checkpoint,
        confirmed_state: p.state,
        validation_bundle: prepared['validation_bundle'] as JsonObject,
        reports,
      });
      assert.equal(submitted['status'], 'validation_failed');
      assert.equal((submitted['findings'] as JsonObject[]).length, reports.length);

      // 5. the session file holds the checkpoint and confirmed state, the two things every call presents.
      const session = examples.find((e) => 'checkpoint' in e && !('artifacts' in e));
      assert.ok(session, 'the walkthrough shows the session file');
      assert.deepEqual(Object.keys(session).sort(), ['checkpoint', 'confirmed_state']);
    } finally {
      await client.close();
    }
  });
});
