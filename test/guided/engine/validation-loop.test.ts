import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject, JsonValue } from '../../../src/core/index.js';
import { GuidedError } from '../../../src/guided/index.js';
import {
  BODIES,
  OBJECTIVE,
  begin,
  chooseRoute,
  moved,
  passStep,
  prepareArgs,
  proceed,
  stepId,
  toRouteSelection,
} from '../fixtures/drive.js';
import { Session, reportsFor } from '../fixtures/harness.js';
import { fixtureRelease } from '../fixtures/release.js';

const release = fixtureRelease();

function decodeToken(token: string): string {
  return Buffer.from(token.split('.')[0] as string, 'base64url').toString('utf8');
}

function protocolReason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof GuidedError);
    assert.equal(error.code, 'workflow_protocol_error');
    return error.reason;
  }
  assert.fail('expected a workflow_protocol_error');
}

function names(list: JsonValue): string[] {
  return (list as JsonObject[]).map((v) => v['validator_id'] as string).sort();
}

describe('complete stateless validation loop', () => {
  test('start returns setup-workspace with prompt, skill and subagent assets, and no objective in the token', () => {
    const session = new Session(release);
    const pos = begin(session);
    const step = pos.step as JsonObject;
    assert.equal((step['step'] as JsonObject)['id'], 'setup-workspace');
    assert.equal(pos.checkpoint['sequence'], 1);
    assert.equal(pos.checkpoint['parent_checkpoint_sha256'], null);
    assert.deepEqual(pos.checkpoint['artifacts'], {});
    assert.deepEqual(pos.checkpoint['validators'], {});
    const kinds = (step['host_assets'] as JsonObject[]).map((a) => a['kind']).sort();
    assert.deepEqual(kinds, ['prompt', 'skill', 'subagent']);
    assert.equal((step['host_adapter'] as JsonObject)['id'], 'claude-code-adapter');
    const token = pos.checkpoint['token'] as string;
    assert.ok(!decodeToken(token).includes('nightly batch'));
    assert.ok(!token.includes(OBJECTIVE) && !JSON.stringify(pos.checkpoint).includes('nightly batch'));
  });

  test('fails deterministically, rejects bad report sets and wrong hosts, loops on the same step, retries only failed validators, then advances', () => {
    const session = new Session(release);
    let pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    assert.equal(stepId(pos), 'desk-research');

    // Deterministic failure comes before any semantic validation: no bundle, no validators.
    const bad = session.prepare(prepareArgs(pos, { 'evidence-log': JSON.stringify({ sources: [] }) }));
    assert.equal(bad['status'], 'deterministic_validation_failed');
    assert.equal(bad['validation_bundle'], null);
    assert.deepEqual(bad['validators'], []);
    assert.deepEqual(
      (bad['failures'] as JsonObject[]).map((f) => [f['code'], f['artifact_id'], f['keyword']]),
      [['json_schema_failed', 'evidence-log', 'minItems']],
    );

    const prepared = session.prepare(prepareArgs(pos, BODIES));
    assert.equal(prepared['status'], 'ready_for_semantic_validation');
    assert.deepEqual(names(prepared['validators'] as JsonValue), ['evidence-check', 'source-check']);
    const bundle = prepared['validation_bundle'] as JsonObject;
    const all = reportsFor(prepared, pos.checkpoint);
    const submit = (reports: JsonObject[]) =>
      session.submit({ checkpoint: pos.checkpoint, confirmed_state: pos.state, validation_bundle: bundle, reports });

    assert.equal(
      protocolReason(() => submit(all.slice(0, 1))),
      'report_set_mismatch',
    );
    assert.equal(
      protocolReason(() => submit([...all, all[0] as JsonObject])),
      'report_duplicate',
    );
    const wrongHost = all.map((r) => ({ ...r, validated_by: { harness: 'codex', adapter_version: '1.1.0' } }));
    assert.equal(
      protocolReason(() => submit(wrongHost)),
      'report_host_mismatch',
    );
    const staleInputs = all.map((r) => ({ ...r, input_artifacts: { 'evidence-log': 'a'.repeat(64) } }));
    assert.equal(
      protocolReason(() => submit(staleInputs)),
      'report_input_mismatch',
    );
    const staleBrief = all.map((r) => ({ ...r, instruction_sha256: 'b'.repeat(64) }));
    assert.equal(
      protocolReason(() => submit(staleBrief)),
      'report_instruction_mismatch',
    );

    const failed = submit(
      reportsFor(prepared, pos.checkpoint, {
        'source-check': { outcome: 'failed', findings: [{ severity: 'error', message: 'No primary source cited.' }] },
      }),
    );
    assert.equal(failed['status'], 'validation_failed');
    const again = failed['checkpoint'] as JsonObject;
    assert.equal(again['current_step'], 'desk-research');
    assert.equal(again['sequence'], (pos.checkpoint['sequence'] as number) + 1);
    assert.deepEqual(names(failed['failed_validators'] as JsonValue), ['source-check']);
    assert.equal((failed['findings'] as JsonObject[])[0]?.['message'], 'No primary source cited.');
    assert.deepEqual(Object.keys(again['validators'] as JsonObject), ['evidence-check@1.0.0']);
    assert.deepEqual(again['artifacts'], pos.checkpoint['artifacts'], 'failed artifacts are not receipted');
    pos = { ...pos, checkpoint: again };

    // Retry with identical artifacts: only the failed validator runs again.
    const retry = session.prepare(prepareArgs(pos, BODIES));
    assert.deepEqual(names(retry['validators'] as JsonValue), ['source-check']);
    const reused = (retry['validation_bundle'] as JsonObject)['validators'] as JsonObject[];
    assert.deepEqual(
      reused.map((v) => [v['validator_id'], v['report_required']]),
      [
        ['evidence-check', false],
        ['source-check', true],
      ],
    );
    const advanced = session.submit({
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      validation_bundle: retry['validation_bundle'] as JsonObject,
      reports: reportsFor(retry, pos.checkpoint),
    });
    assert.equal(advanced['status'], 'advanced');
    assert.equal((advanced['checkpoint'] as JsonObject)['current_step'], 'synthesis');
    assert.ok(((advanced['checkpoint'] as JsonObject)['artifacts'] as JsonObject)['evidence-log']);
  });

  test('a pass receipt is reused only for identical input digests', () => {
    const session = new Session(release);
    let pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    const prepared = session.prepare(prepareArgs(pos, BODIES));
    const failed = session.submit({
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      validation_bundle: prepared['validation_bundle'] as JsonObject,
      reports: reportsFor(prepared, pos.checkpoint, { 'source-check': { outcome: 'failed', findings: [] } }),
    });
    pos = { ...pos, checkpoint: failed['checkpoint'] as JsonObject };
    const repaired = JSON.stringify({ sources: [{ title: 'Ops review v2', claim: 'Primary data attached' }] });
    const retry = session.prepare(prepareArgs(pos, { 'evidence-log': repaired }));
    assert.deepEqual(names(retry['validators'] as JsonValue), ['evidence-check', 'source-check']);
    // A validator that fails on the new inputs loses its old pass receipt.
    const refailed = session.submit({
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      validation_bundle: retry['validation_bundle'] as JsonObject,
      reports: reportsFor(retry, pos.checkpoint, { 'evidence-check': { outcome: 'failed', findings: [] } }),
    });
    assert.equal(refailed['status'], 'validation_failed');
    assert.deepEqual(Object.keys((refailed['checkpoint'] as JsonObject)['validators'] as JsonObject), [
      'source-check@1.0.0',
    ]);
  });

  test('continue never advances a gated step that has not passed validation', () => {
    const session = new Session(release);
    const pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    const again = proceed(session, pos);
    assert.equal(again['status'], 'active');
    assert.equal((again['checkpoint'] as JsonObject)['current_step'], 'desk-research');
    assert.equal((again['checkpoint'] as JsonObject)['token'], pos.checkpoint['token'], 'same checkpoint');
    const setup = begin(new Session(release));
    const stay = proceed(session, setup);
    assert.equal((stay['checkpoint'] as JsonObject)['current_step'], 'setup-workspace');
  });

  test('every gate of the fixture workflow executes to completed, with a late-step token of at most 2 KiB', () => {
    const session = new Session(release);
    let pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    for (const expected of ['synthesis', 'decision-record']) {
      const result = passStep(session, pos);
      assert.equal(result['status'], 'advanced');
      pos = moved(pos, result);
      assert.equal(stepId(pos), expected);
    }
    const token = pos.checkpoint['token'] as string;
    assert.ok(Buffer.byteLength(token) <= 2048, `late-step token is ${Buffer.byteLength(token)} bytes`);
    const done = passStep(session, pos);
    assert.equal(done['status'], 'completed');
    const last = done['checkpoint'] as JsonObject;
    assert.ok(Buffer.byteLength(last['token'] as string) <= 2048);
    assert.deepEqual(Object.keys(last['artifacts'] as JsonObject).sort(), [
      'decision-record',
      'evidence-log',
      'synthesis',
      'workspace-manifest',
    ]);
    const finished = proceed(session, { ...pos, checkpoint: last });
    assert.equal(finished['status'], 'completed');
  });
});

describe('optional validators', () => {
  test('a failed optional validator keeps the step active like any failed report (the spec: "if any validator fails")', () => {
    const session = new Session(release);
    let pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    while (stepId(pos) !== 'decision-record') pos = moved(pos, passStep(session, pos));
    const prepared = session.prepare(prepareArgs(pos, BODIES));
    assert.deepEqual(names(prepared['validators'] as JsonValue), ['decision-check', 'style-check']);
    const result = session.submit({
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      validation_bundle: prepared['validation_bundle'] as JsonObject,
      reports: reportsFor(prepared, pos.checkpoint, {
        'style-check': {
          outcome: 'failed',
          findings: [{ severity: 'warning', message: 'Headings are inconsistent.' }],
        },
      }),
    });
    assert.equal(result['status'], 'validation_failed');
    assert.equal((result['checkpoint'] as JsonObject)['current_step'], 'decision-record');
    assert.deepEqual(names(result['failed_validators'] as JsonValue), ['style-check']);
  });
});
