/**
 * Every deterministic failure prepare_step_validation can return for artifacts, inputs and capabilities, and submit's
 * reused-receipt refusal, through the MCP tools of a workflow-engine server running the active packaged release (spec
 * guided-protocol.md "rimthan.prepare_step_validation", "rimthan.submit_step_validation"). Each test starts from a
 * faithful participant at desk-research and changes one thing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import { outputAttestation } from '../../support/faithful-harness.js';
import { RESEARCH_RELEASE, callTool, connect, tempReleaseStore, workflowProfile } from '../support/connect.js';
import { Participant } from '../support/participant.js';
import { BODIES } from '../support/research-artifacts.js';
import { toRouteQuestion } from '../support/research-run.js';
import { resignBundle, resignCheckpoint } from '../support/resign.js';

interface Failure {
  readonly code: string;
  readonly [key: string]: unknown;
}

describe('deterministic failures through the tools', () => {
  const releases = tempReleaseStore(RESEARCH_RELEASE);
  // An operator may raise the request limit (RIMTHAN_MCP_MAX_REQUEST_BYTES); only then can artifacts exceed the total.
  let conn: Awaited<ReturnType<typeof connect>>;
  let desk: Participant;

  before(async () => {
    conn = await connect(workflowProfile(releases.store, { maxArgumentBytes: 16 * 1024 * 1024 }));
    desk = new Participant((name, args) => callTool(conn.client, name, args));
    await toRouteQuestion(desk);
    const routed = await desk.continue({ ...(desk.state['state'] as JsonObject), research_route: 'desk-research' });
    assert.equal(routed['status'], 'active');
    assert.equal(desk.currentStep, 'desk-research');
    assert.equal(desk.checkpoint?.['registry_release'], RESEARCH_RELEASE);
  });
  after(async () => {
    await conn.close();
    releases.cleanup();
  });

  /** prepare at desk-research with `artifacts` (faithfully attested unless `extra` overrides). */
  async function prepare(artifacts: JsonObject[], extra: JsonObject = {}): Promise<Failure[]> {
    const step = desk.step as JsonObject;
    const result = await desk.ok('rimthan.prepare_step_validation', {
      checkpoint: desk.checkpoint as JsonObject,
      confirmed_state: desk.state,
      artifacts,
      repository_policy: { conflict: false },
      validator_capabilities: ['workspace.read', 'web.read'],
      output_attestation: outputAttestation(step, artifacts),
      ...extra,
    });
    assert.equal(result['status'], 'deterministic_validation_failed');
    assert.equal(result['validation_bundle'], null);
    assert.deepEqual(result['validators'], []);
    return result['failures'] as unknown as Failure[];
  }

  function faithful(bodies: Record<string, string> = {}): JsonObject[] {
    return desk.artifacts(desk.step as JsonObject, { ...BODIES, ...bodies });
  }

  function only(failures: Failure[], code: string): Failure[] {
    return failures.filter((f) => f.code === code);
  }

  test('the faithful artifacts are ready (the baseline every case changes one thing of)', async () => {
    const ready = await desk.prepare();
    assert.equal(ready['status'], 'ready_for_semantic_validation', JSON.stringify(ready['failures']));
  });

  test('artifact_too_large: a Markdown artifact over its declared max_bytes', async () => {
    const failures = await prepare(faithful({ 'desk-findings': `# Findings\n\n${'x'.repeat(131_072)}` }));
    assert.deepEqual(only(failures, 'artifact_too_large'), [
      { code: 'artifact_too_large', artifact_id: 'desk-findings', limit: 131_072 },
    ]);
  });

  test('artifacts_total_too_large: declared artifacts together over 4 MiB', async () => {
    // 1,000,000 three-byte characters each: within the contract's per-artifact length, 6 MB of UTF-8 together.
    const big = '€'.repeat(1_000_000);
    const failures = await prepare(faithful({ 'evidence-table': big, 'desk-findings': big }));
    assert.deepEqual(only(failures, 'artifacts_total_too_large'), [
      { code: 'artifacts_total_too_large', limit: 4 * 1_048_576 },
    ]);
  });

  test('duplicate_artifact and undeclared_artifact', async () => {
    const artifacts = faithful();
    const findings = artifacts.find((a) => a['artifact_id'] === 'desk-findings') as JsonObject;
    const failures = await prepare([
      ...artifacts,
      { ...findings },
      {
        artifact_id: 'spike-notes',
        media_type: 'text/markdown',
        content: '# Spike\n',
        path: 'research/spike-notes.md',
      },
    ]);
    assert.deepEqual(only(failures, 'duplicate_artifact'), [
      { code: 'duplicate_artifact', artifact_id: 'desk-findings' },
    ]);
    assert.deepEqual(only(failures, 'undeclared_artifact'), [
      { code: 'undeclared_artifact', artifact_id: 'spike-notes' },
    ]);
  });

  test('media_type_mismatch and artifact_path_mismatch', async () => {
    const artifacts = faithful().map((a) =>
      a['artifact_id'] === 'desk-findings'
        ? { ...a, media_type: 'application/json' }
        : { ...a, path: 'research/evidence.json' },
    );
    const failures = await prepare(artifacts);
    assert.deepEqual(only(failures, 'media_type_mismatch'), [
      { code: 'media_type_mismatch', artifact_id: 'desk-findings' },
    ]);
    assert.deepEqual(only(failures, 'artifact_path_mismatch'), [
      { code: 'artifact_path_mismatch', artifact_id: 'evidence-table', path: 'research/evidence-table.json' },
    ]);
  });

  test('invalid_json: a JSON artifact that does not parse strictly', async () => {
    for (const text of ['{"decision_question": ', '{"a": 1, "a": 2}', '{"a": 1,}']) {
      const failures = await prepare(faithful({ 'evidence-table': text }));
      assert.deepEqual(only(failures, 'invalid_json'), [{ code: 'invalid_json', artifact_id: 'evidence-table' }], text);
    }
  });

  test('empty_artifact: a declared output with no bytes', async () => {
    const failures = await prepare(faithful({ 'desk-findings': '' }));
    assert.deepEqual(only(failures, 'empty_artifact'), [{ code: 'empty_artifact', artifact_id: 'desk-findings' }]);
  });

  test('artifact_not_utf8: text holding a lone surrogate has no UTF-8 encoding', async () => {
    const failures = await prepare(faithful({ 'desk-findings': '# Findings\n\nbroken \uD800 text\n' }));
    assert.deepEqual(only(failures, 'artifact_not_utf8'), [
      { code: 'artifact_not_utf8', artifact_id: 'desk-findings' },
    ]);
  });

  test('missing_validator_capability at prepare: a host that lost web.read since the start learns which validator needs it', async () => {
    const failures = await prepare(faithful(), { validator_capabilities: ['workspace.read'] });
    assert.deepEqual(failures, [
      { code: 'validator_capability_mismatch', reason: 'validator_capabilities' },
      { code: 'missing_validator_capability', validator_id: 'citation-check', capability: 'web.read' },
    ]);
  });

  test('input_receipt_missing: a checkpoint at desk-research without the research plan it declares as input', async () => {
    const checkpoint = resignCheckpoint(desk.checkpoint as JsonObject, (state) => {
      const { 'research-plan': _plan, ...artifacts } = state.artifacts;
      return { ...state, artifacts };
    });
    const failures = await prepare(faithful(), { checkpoint });
    assert.deepEqual(failures, [{ code: 'input_receipt_missing', artifact_id: 'research-plan' }]);
  });

  test('reused_receipt_missing: a bundle that reuses a pass the checkpoint does not hold is refused', async () => {
    // A failed round keeps citation-check's pass: the next bundle reuses it.
    const first = await desk.prepare();
    const failed = await desk.submit(first, ['evidence-quality']);
    assert.equal(failed['status'], 'validation_failed');
    const retry = await desk.prepare();
    const bundle = retry['validation_bundle'] as JsonObject;
    const reused = (bundle['validators'] as JsonObject[]).filter((v) => v['report_required'] === false);
    assert.deepEqual(
      reused.map((v) => v['validator_id']),
      ['citation-check'],
    );
    // The same checkpoint without that pass receipt, and the bundle bound to it.
    const checkpoint = resignCheckpoint(desk.checkpoint as JsonObject, (state) => {
      const { 'citation-check@1.0.0': _pass, ...validators } = state.validators;
      return { ...state, validators };
    });
    const outcome = await desk.call('rimthan.submit_step_validation', {
      checkpoint,
      confirmed_state: desk.state,
      validation_bundle: resignBundle(bundle, checkpoint, (b) => b),
      reports: desk.reports(retry),
    });
    assert.equal(outcome.isError, true);
    const error = outcome.value['error'] as JsonObject;
    assert.equal(error['code'], 'workflow_protocol_error');
    assert.equal(error['reason'], 'reused_receipt_missing');
    // The genuine pair still advances.
    assert.equal((await desk.submit(retry))['status'], 'advanced');
  });
});
