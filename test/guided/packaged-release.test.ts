import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { packageRoot } from '../../src/package/index.js';
import type { JsonObject } from '../../src/core/index.js';
import { RequestStateCodec } from '../../src/core/index.js';
import { createReleaseScope, elicitedContinue } from '../../src/guided/index.js';
import type { ReleaseScope } from '../../src/guided/index.js';
import { buildRelease, serializeReleaseFile, verifyReleaseFile } from '../../src/registry/index.js';
import type { Harness } from '../../src/registry/model/release.js';
import type { Position } from './fixtures/drive.js';
import { moved, passStep, prepareArgs, proceed, stepId } from './fixtures/drive.js';
import { Session, confirmed, signerFor } from './fixtures/harness.js';

const ACTIVE = readFileSync(join(packageRoot(), 'releases', 'ACTIVE'), 'utf8').trim();
const file = join(packageRoot(), 'releases', 'dist', `${ACTIVE}.json`);
const QUESTION = 'Which message queue should the billing service adopt?';
/** The source folder the active release is built from (releases/README.md). */
const SOURCE = join(packageRoot(), 'releases', 'src', 'library');
const HARNESSES: readonly Harness[] = ['codex', 'claude-code', 'cowork', 'buzz'];
/** The workflows lib-a added to the library (lib-b's live beside them under their own ids). */
const LIBRARY_WORKFLOWS = [
  'deliver-feature',
  'fix-bug',
  'incident-postmortem',
  'refactor-safely',
  'research-decision',
  'review-change',
  'test-gap-analysis',
  'threat-model',
  'upgrade-dependency',
];

const BODIES: Record<string, string> = {
  'research-plan': '# Research plan\n\n## Decision question\n\n' + QUESTION + '\n',
  'evidence-table': JSON.stringify({
    decision_question: QUESTION,
    criteria: [{ criterion_id: 'latency', description: 'p95 publish latency', priority: 'must-have' }],
    options: [
      { option_id: 'kafka', name: 'Kafka', summary: 'Log-based broker', status: 'candidate' },
      { option_id: 'rabbitmq', name: 'RabbitMQ', summary: 'AMQP broker', status: 'candidate' },
    ],
    sources: [
      {
        source_id: 'S1',
        title: 'Kafka docs',
        kind: 'official-docs',
        url: 'https://kafka.apache.org/documentation/',
        accessed: '2026-11-01',
        independence: 'vendor',
      },
    ],
    claims: [
      {
        claim_id: 'C1',
        option_id: 'kafka',
        criterion_id: 'latency',
        statement: 'Publishes in single-digit milliseconds at our volume.',
        direction: 'favours',
        evidence_quality: 'moderate',
        quality_rationale: 'Vendor documentation only.',
        citations: [{ source_id: 'S1' }],
      },
    ],
    gaps: [],
  }),
  'desk-findings': '# Desk findings\n\nKafka fits the latency criterion (C1).\n',
  'spike-results': JSON.stringify({
    decision_question: QUESTION,
    environment: { description: 'Laptop, Docker' },
    experiments: [
      {
        experiment_id: 'E1',
        option_id: 'kafka',
        hypothesis: 'p95 publish latency stays under 20 ms at 2,000 msg/s',
        setup: { description: 'Single broker', commands: ['make bench'], dependencies: [], notes_section: 'E1' },
        measurements: [{ metric: 'p95 latency', value: 12, unit: 'ms', runs: 5 }],
        verdict: 'confirmed',
        verdict_rationale: 'Well under the threshold.',
      },
    ],
    limitations: [],
  }),
  'spike-notes': '# Spike notes\n\n## E1\n\nRun `make bench`.\n',
  'decision-record': '# Decision\n\nAdopt Kafka.\n',
  'decision-summary': JSON.stringify({
    decision_question: QUESTION,
    status: 'proposed',
    decision: { outcome: 'adopt', chosen_option_id: 'kafka', statement: 'Adopt Kafka.' },
    options_considered: [
      { option_id: 'kafka', name: 'Kafka', verdict: 'chosen', reason: 'Latency.' },
      { option_id: 'rabbitmq', name: 'RabbitMQ', verdict: 'runner-up', reason: 'Slower at volume.' },
    ],
    rationale: ['Meets the latency criterion.'],
    risks: [],
    follow_ups: [],
    confidence: { level: 'medium', explanation: 'One measurement.' },
    evidence_refs: ['C1'],
  }),
};

function host(
  scope: ReleaseScope,
  harness: Harness,
  validatorCapabilities = ['workspace.read', 'web.read'],
): JsonObject {
  const workflow = scope.workflowVersions('research')[0]?.workflow;
  assert.ok(workflow);
  return {
    harness,
    adapter: { ...workflow.host_adapters[harness] },
    host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports', 'project-local-assets'],
    validator_capabilities: validatorCapabilities,
    repository_policy: { conflict: false },
  };
}

/** Runs the packaged workflow to completion on `route`; returns the final position and every status seen. */
function run(
  session: Session,
  harness: Harness,
  route: string,
  validatorCapabilities?: string[],
  answer: typeof answerRoute = answerRoute,
): Position & { statuses: string[] } {
  const statuses: string[] = [];
  const state = confirmed({ objective: 'Pick a queue for billing', decision_question: QUESTION }, session.clock.iso());
  const started = session.start({
    workflow: 'research',
    confirmed_state: state,
    host: host(session.scope, harness, validatorCapabilities),
  });
  assert.equal(started['status'], 'active', JSON.stringify(started['blockers']));
  let pos: Position = { checkpoint: started['checkpoint'] as JsonObject, state, step: started['step'] as JsonObject };
  for (let guard = 0; guard < 20; guard++) {
    const step = pos.step as JsonObject;
    const gated =
      ((step['step'] as JsonObject)['outputs'] as JsonObject[]).length > 0 || stepId(pos) === 'setup-workspace';
    if (gated) {
      const result = passStep(session, pos, BODIES);
      statuses.push(`${stepId(pos)}:submit:${result['status'] as string}`);
      if (result['status'] === 'completed') return { ...moved(pos, result), statuses };
      if (result['status'] === 'input_required') {
        // The gated step's work is accepted; its branch asks the route question (the step payload stays ours).
        pos = { ...moved(pos, result), step: pos.step };
        pos = answer(session, pos, result, route, statuses);
        continue;
      }
      assert.equal(result['status'], 'advanced', JSON.stringify(result));
      pos = moved(pos, result);
      continue;
    }
    const result = proceed(session, pos);
    if (result['status'] === 'input_required') {
      pos = answer(session, pos, result, route, statuses);
      continue;
    }
    assert.equal(result['status'], 'active');
    pos = moved(pos, result);
  }
  assert.fail('the packaged workflow did not complete');
}

/** Confirms `route` as the answer to the route question and continues to the chosen step. */
function answerRoute(session: Session, pos: Position, asked: JsonObject, route: string, statuses: string[]): Position {
  const question = asked['question'] as JsonObject;
  assert.equal(question['field'], 'research_route');
  session.clock.advance(1000);
  const next = confirmed(
    { ...(pos.state['state'] as JsonObject), research_route: route },
    session.clock.iso(),
    pos.state,
  );
  const routed = proceed(session, pos, next);
  statuses.push(`${stepId(pos)}:continue:${routed['status'] as string}`);
  assert.equal(routed['status'], 'active', JSON.stringify(routed['blockers']));
  return moved(pos, routed, next);
}

/** Answers the route question as a person would through a form: asked, then answered in the second round. */
function answerByForm(session: Session, pos: Position, asked: JsonObject, route: string, statuses: string[]): Position {
  const deps = {
    engine: session.engine,
    codec: new RequestStateCodec(signerFor(), session.clock),
    clock: session.clock,
  };
  const call = {
    tool: 'rimthan.continue_workflow',
    arguments: { checkpoint: pos.checkpoint, confirmed_state: pos.state },
    principalId: undefined,
  };
  const first = elicitedContinue(deps, session.scope, call, undefined);
  assert.equal(first.kind, 'ask');
  const question = asked['question'] as JsonObject;
  assert.equal(first.message, question['prompt']);
  const field = first.form.properties['research_route'];
  assert.ok(field !== undefined && 'oneOf' in field);
  assert.deepEqual(
    field.oneOf.map((c) => ({ value: c.const, label: c.title })),
    question['options'],
  );
  session.clock.advance(1000);
  const done = elicitedContinue(deps, session.scope, call, {
    requestState: first.requestState,
    action: 'accept',
    content: { research_route: route },
  });
  assert.equal(done.kind, 'result');
  statuses.push(`${stepId(pos)}:form:${done.result['status'] as string}`);
  assert.equal(done.result['status'], 'active', JSON.stringify(done.result['blockers']));
  assert.ok(done.confirmedState !== undefined);
  return moved(pos, done.result, done.confirmedState);
}

describe('packaged release', { skip: existsSync(file) ? false : `releases/dist/${ACTIVE}.json is not built` }, () => {
  test('packaged workflow executes every gate to completed', () => {
    const verified = verifyReleaseFile(readFileSync(file));
    assert.ok(verified.ok, verified.ok ? '' : verified.reason);
    const scope = createReleaseScope(verified.release);
    for (const [harness, route, last] of [
      ['claude-code', 'desk-research', 'decision-record'],
      ['codex', 'prototype-spike', 'decision-record'],
    ] as const) {
      const done = run(new Session(scope), harness, route);
      assert.ok(done.statuses.includes('select-route:submit:input_required'), done.statuses.join(' '));
      assert.equal(done.checkpoint['current_step'], last);
      assert.ok(Buffer.byteLength(done.checkpoint['token'] as string) <= 2048);
    }
  });

  test('the route question answered through a form leads through the same workflow to completed', () => {
    const verified = verifyReleaseFile(readFileSync(file));
    assert.ok(verified.ok, verified.ok ? '' : verified.reason);
    const scope = createReleaseScope(verified.release);
    const done = run(new Session(scope), 'claude-code', 'prototype-spike', undefined, answerByForm);
    assert.ok(done.statuses.includes('select-route:form:active'), done.statuses.join(' '));
    assert.ok(done.statuses.includes('prototype-spike:submit:advanced'), done.statuses.join(' '));
    assert.equal(done.checkpoint['current_step'], 'decision-record');
  });
});

describe(
  'the packaged library',
  { skip: existsSync(file) ? false : `releases/dist/${ACTIVE}.json is not built` },
  () => {
    test('the active release is the library, built byte for byte from releases/src/library', () => {
      assert.equal(ACTIVE, 'library-2026.12.1');
      const built = buildRelease(SOURCE);
      assert.ok(built.ok, built.ok ? '' : JSON.stringify(built.problems.slice(0, 3)));
      assert.equal(built.file.manifest.release, ACTIVE);
      assert.ok(
        Buffer.from(serializeReleaseFile(built.file)).equals(readFileSync(file)),
        `releases/dist/${ACTIVE}.json is stale: rebuild it from releases/src/library`,
      );
    });

    test('every library workflow shares one adapter per harness, one validator subagent and one setup step', () => {
      const verified = verifyReleaseFile(readFileSync(file));
      assert.ok(verified.ok, verified.ok ? '' : verified.reason);
      const ids = [...new Set(verified.release.workflows.map((w) => w.id))].sort();
      for (const id of LIBRARY_WORKFLOWS) assert.ok(ids.includes(id), `the library has ${id}`);
      for (const workflow of verified.release.workflows) {
        for (const harness of HARNESSES) {
          assert.deepEqual(workflow.host_adapters[harness], { id: `${harness}-host`, version: '2.0.0' }, workflow.id);
        }
        const setup = workflow.steps[0];
        assert.ok(setup !== undefined && setup.id === 'setup-workspace');
        assert.deepEqual(setup.instruction, { id: 'prepare-workspace', version: '1.0.0' }, workflow.id);
        const subagents = workflow.steps.flatMap((s) => s.host_assets.filter((a) => a.kind === 'subagent'));
        assert.ok(subagents.length > 0, `${workflow.id} delivers the validator subagent`);
        for (const a of subagents)
          assert.deepEqual({ id: a.id, version: a.version }, { id: 'workflow-validator', version: '1.0.0' });
        const validators = workflow.steps.flatMap((s) => s.validators);
        assert.ok(validators.length > 0, `${workflow.id} has at least one independent validator`);
      }
    });

    test('every library workflow starts on every harness with its pinned adapter and accepts the setup attestation', () => {
      const verified = verifyReleaseFile(readFileSync(file));
      assert.ok(verified.ok, verified.ok ? '' : verified.reason);
      const scope = createReleaseScope(verified.release);
      for (const workflow of verified.release.workflows) {
        // The least a person confirms at start: every required field of the workflow's confirmed-state schema.
        const ref = workflow.confirmed_state_schema;
        const schema = verified.release.schemas.find((e) => e.id === ref.id && e.version === ref.version)?.schema;
        const required = (schema?.['required'] ?? []) as string[];
        const initial = Object.fromEntries(
          required.map((f) => [f, `The ${f.replace(/_/g, ' ')} the person confirmed`]),
        );
        for (const harness of HARNESSES) {
          const session = new Session(scope);
          const what = `${workflow.id} on ${harness}`;
          const started = session.start({
            workflow: workflow.id,
            confirmed_state: confirmed(initial, session.clock.iso()),
            host: {
              harness,
              adapter: { ...workflow.host_adapters[harness] },
              host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents', 'structured-reports'],
              // Every capability a library validator needs (refactor-safely's equivalence check reads git history).
              validator_capabilities: ['workspace.read', 'web.read', 'git.read'],
              repository_policy: { conflict: false },
            },
          });
          assert.equal(started['status'], 'active', `${what}: ${JSON.stringify(started['blockers'])}`);
          const pos: Position = {
            checkpoint: started['checkpoint'] as JsonObject,
            state: confirmed(initial, session.clock.iso()),
            step: started['step'] as JsonObject,
          };
          assert.equal(stepId(pos), 'setup-workspace', what);
          const prepared = session.prepare(prepareArgs(pos, {}));
          assert.equal(prepared['status'], 'ready_for_semantic_validation', `${what}: ${JSON.stringify(prepared)}`);
        }
      }
    });
  },
);
