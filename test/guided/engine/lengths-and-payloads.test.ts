import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject, JsonValue } from '../../../src/core/index.js';
import { BlockerCode, GuidedToolName } from '../../../src/guided/index.js';
import { blockersJson } from '../../../src/guided/engine/deps.js';
import type { Blocker } from '../../../src/guided/outcomes.js';
import { compileWorkflowEngineContracts } from '../../../src/mcp/workflow-engine/profile.js';
import { BODIES, begin, chooseRoute, prepareArgs, toRouteSelection } from '../fixtures/drive.js';
import { Session, hostDeclaration } from '../fixtures/harness.js';
import { fixtureRelease } from '../fixtures/release.js';

const release = fixtureRelease();
const GRINNING = '\u{1F600}'; // one code point, two UTF-16 units

/** An evidence log (fixture schema: claim maxLength 2000) whose one claim is `claim`, as JSON text. */
function evidence(claim: string): string {
  return JSON.stringify({ sources: [{ title: 'Ops review', claim }] });
}

function failures(result: JsonObject): JsonObject[] {
  return result['failures'] as JsonObject[];
}

describe('artifact JSON Schemas count string lengths in code points', () => {
  const session = new Session(release);
  const desk = chooseRoute(session, toRouteSelection(session), 'desk-research');
  const prepare = (log: string): JsonObject => session.prepare(prepareArgs(desk, { ...BODIES, 'evidence-log': log }));

  test('a claim of 2,000 astral characters (4,000 UTF-16 units) meets maxLength 2000, raw or \\u-escaped', () => {
    assert.equal(prepare(evidence(GRINNING.repeat(2000)))['status'], 'ready_for_semantic_validation');
    const escaped = evidence('x').replace('"x"', `"${'\\ud83d\\ude00'.repeat(2000)}"`);
    assert.equal(prepare(escaped)['status'], 'ready_for_semantic_validation');
  });

  test('one character more breaks maxLength, astral or not', () => {
    for (const claim of [GRINNING.repeat(2001), 'a'.repeat(2001), `${'a'.repeat(2000)}${GRINNING}`]) {
      const result = prepare(evidence(claim));
      assert.equal(result['status'], 'deterministic_validation_failed');
      assert.deepEqual(
        failures(result).map((f) => [f['code'], f['keyword']]),
        [['json_schema_failed', 'maxLength']],
      );
    }
  });
});

describe('tool contract limits as the workflow-engine profile checks them', () => {
  const prepareContract = compileWorkflowEngineContracts().find((c) => c.name === GuidedToolName.PrepareStepValidation);
  const session = new Session(release);
  const desk = chooseRoute(session, toRouteSelection(session), 'desk-research');
  const withContent = (content: string): JsonObject => {
    const args = prepareArgs(desk, BODIES);
    const [first, ...rest] = args['artifacts'] as JsonObject[];
    return { ...args, artifacts: [{ ...(first as JsonObject), content }, ...rest] };
  };

  test('an artifact body of 1,048,576 characters passes the input schema and one more does not', () => {
    assert.ok(prepareContract);
    assert.deepEqual(prepareContract.checkInput(withContent('a'.repeat(1_048_576))), { ok: true });
    assert.equal(prepareContract.checkInput(withContent('a'.repeat(1_048_577))).ok, false);
  });

  test('astral characters count as two toward that limit, so it is never exceeded in code points either', () => {
    assert.ok(prepareContract);
    assert.deepEqual(prepareContract.checkInput(withContent(GRINNING.repeat(524_288))), { ok: true });
    assert.equal(prepareContract.checkInput(withContent(`${GRINNING.repeat(524_288)}a`)).ok, false);
  });
});

describe('step payloads are immutable release data', () => {
  const scope = new Session(release).scope;

  test('participants with the same host get the very same frozen payload, which nobody can alter', () => {
    const a = begin(new Session(scope));
    const b = begin(new Session(scope));
    assert.ok(a.step !== null && b.step !== null);
    assert.equal(a.step, b.step, 'built once per release scope and host binding class');
    const hostAssets = a.step['host_assets'] as JsonObject[];
    assert.ok(hostAssets.length > 0);
    assert.throws(() => {
      (hostAssets[0] as JsonObject)['content'] = 'tampered';
    }, TypeError);
    assert.throws(() => {
      (a.step as JsonObject)['resources'] = [];
    }, TypeError);
    assert.notEqual((hostAssets[0] as JsonObject)['content'], 'tampered');
  });

  test('a host that did not declare project-local-assets gets a payload without project-local files', () => {
    const local = begin(new Session(scope));
    const caps = (hostDeclaration()['host_capabilities'] as string[]).filter((c) => c !== 'project-local-assets');
    const dynamic = begin(
      new Session(scope),
      'claude-code',
      hostDeclaration('claude-code', { host_capabilities: caps }),
    );
    assert.ok(local.step !== null && dynamic.step !== null);
    const files = (p: JsonObject): JsonValue[] =>
      (p['host_assets'] as JsonObject[]).map((a) => a['project_local'] ?? null);
    assert.ok(files(local.step).some((f) => f !== null));
    assert.ok(files(dynamic.step).every((f) => f === null));
  });
});

describe('blocker lists', () => {
  test('the cap holds whatever kind of blocker overflows it', () => {
    const policy = (i: number): Blocker => ({ code: BlockerCode.RepositoryPolicyConflict, path: `research/n-${i}.md` });
    const field = (i: number): Blocker => ({ code: BlockerCode.ConfirmationRequired, field: `f${i}` });
    const hostHeavy = blockersJson([field(0), ...Array.from({ length: 70 }, (_, i) => policy(i))]);
    assert.equal(hostHeavy.length, 64);
    assert.ok(hostHeavy.every((b) => b['code'] === 'repository_policy_conflict'));
    const mixed = blockersJson([...Array.from({ length: 70 }, (_, i) => field(i)), policy(0)]);
    assert.deepEqual(
      mixed.slice(0, 2).map((b) => b['code']),
      ['repository_policy_conflict', 'confirmation_required'],
    );
    assert.equal(mixed.length, 64);
    const few = [field(0), policy(0)];
    assert.deepEqual(
      blockersJson(few).map((b) => b['code']),
      ['confirmation_required', 'repository_policy_conflict'],
    );
  });

  test('more blockers than a result may carry keep every host blocker and as many field confirmations as fit', () => {
    // A release whose confirmed-state schema is open: 64 unconfirmed fields are 64 confirmation blockers.
    const open = fixtureRelease((d) => {
      d.schemas = d.schemas.map((s) =>
        s.id === 'research-state'
          ? { ...s, schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } }
          : s,
      );
    });
    const session = new Session(open);
    const state = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`f${i}`, 'v']));
    const out = session.start({
      workflow: 'research',
      confirmed_state: { state, confirmations: {} },
      host: hostDeclaration('claude-code', { repository_policy: { conflict: true } }),
    });
    assert.equal(out['status'], 'blocked');
    const codes = (out['blockers'] as JsonObject[]).map((b) => b['code']);
    assert.equal(codes.length, 64, 'the output schema allows 64');
    assert.ok(codes.includes('repository_policy_conflict'), 'the host blocker is kept');
    assert.equal(codes.filter((c) => c === 'confirmation_required').length, 63);
  });
});

describe('artifact count', () => {
  test('more than 16 artifacts is the deterministic failure artifact_count_exceeded, not an argument error', () => {
    const session = new Session(release);
    const pos = chooseRoute(session, toRouteSelection(session), 'desk-research');
    const args = prepareArgs(pos, BODIES);
    const declared = args['artifacts'] as JsonObject[];
    const extra = Array.from({ length: 17 - declared.length }, (_, i) => ({
      artifact_id: `extra-${i}`,
      media_type: 'text/markdown',
      content: 'x',
      path: `notes/extra-${i}.md`,
    }));
    const out = session.prepare({ ...args, artifacts: [...declared, ...extra] });
    assert.equal(out['status'], 'deterministic_validation_failed');
    assert.deepEqual(
      (out['failures'] as JsonObject[]).find((f) => f['code'] === 'artifact_count_exceeded'),
      { code: 'artifact_count_exceeded', limit: 16 },
    );
  });
});
