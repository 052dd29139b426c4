import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject, JsonValue } from '../../../src/core/index.js';
import { createReleaseScope } from '../../../src/guided/index.js';
import type { Harness } from '../../../src/registry/model/release.js';
import {
  OBJECTIVE,
  begin,
  chooseRoute,
  moved,
  passStep,
  proceed,
  stepId,
  toRouteSelection,
} from '../fixtures/drive.js';
import type { Position } from '../fixtures/drive.js';
import {
  Session,
  artifactsFor,
  confirmed,
  hostDeclaration,
  outputAttestation,
  policy,
  setupAttestation,
  workspaceManifest,
} from '../fixtures/harness.js';
import { WORKFLOW_ID, fixtureRelease } from '../fixtures/release.js';

const HARNESSES: Harness[] = ['codex', 'claude-code', 'cowork', 'buzz'];
const release = fixtureRelease();

function start(session: Session, host: JsonObject): JsonObject {
  return session.start({
    workflow: WORKFLOW_ID,
    confirmed_state: confirmed({ objective: OBJECTIVE, decision_owner: 'ops-lead' }, session.clock.iso()),
    host,
  });
}

function blockers(result: JsonObject): JsonValue[][] {
  return (result['blockers'] as JsonObject[]).map((b) => [b['code'] as string, b['capability'] ?? b['path'] ?? null]);
}

/** prepare at setup with the workspace manifest a faithful harness writes for `attestation` (unless overridden). */
function prepareSetup(session: Session, pos: Position, attestation: JsonObject, extra: JsonObject = {}): JsonObject {
  return session.prepare({
    checkpoint: pos.checkpoint,
    confirmed_state: pos.state,
    artifacts: artifactsFor(pos.step as JsonObject, { 'workspace-manifest': workspaceManifest(attestation) }),
    repository_policy: policy(),
    validator_capabilities: (pos.checkpoint['host'] as JsonObject)['validator_capabilities'] as JsonValue,
    host_attestation: attestation,
    ...extra,
  });
}

function failures(result: JsonObject): JsonValue[][] {
  return (result['failures'] as JsonObject[]).map((f) => [f['code'] as string, f['reason'] ?? null]);
}

describe('host adapters', () => {
  test('every named host has one pinned fail-closed adapter', () => {
    const scope = createReleaseScope(release);
    const workflow = scope.workflowVersions(WORKFLOW_ID)[0]?.workflow;
    assert.deepEqual(Object.keys(workflow?.host_adapters ?? {}).sort(), [...HARNESSES].sort());
    for (const harness of HARNESSES) {
      const session = new Session(scope);
      const pinned = workflow?.host_adapters[harness];
      const ok = start(session, hostDeclaration(harness));
      assert.equal(ok['status'], 'active', harness);
      const adapter = (ok['step'] as JsonObject)['host_adapter'] as JsonObject;
      assert.deepEqual([adapter['id'], adapter['version']], [pinned?.id, pinned?.version]);

      const other = start(session, hostDeclaration(harness, { adapter: { id: pinned?.id ?? '', version: '9.9.9' } }));
      assert.equal(other['status'], 'blocked');
      assert.deepEqual(other['checkpoint'], null);
      assert.deepEqual((other['blockers'] as JsonObject[])[0], {
        code: 'host_adapter_binding_mismatch',
        expected_adapter: { id: pinned?.id, version: pinned?.version },
      });
      const { adapter: _adapter, ...undeclared } = hostDeclaration(harness);
      assert.deepEqual(blockers(start(session, undeclared)), [['unsupported_host_adapter', null]]);
      const noSubagents = hostDeclaration(harness, { host_capabilities: ['mcp.tools', 'mcp.resources'] });
      assert.ok(
        blockers(start(session, noSubagents)).some(
          ([c, cap]) => c === 'missing_host_capability' && cap === 'native-subagents',
        ),
      );
    }
  });

  test('hosts without a project-local convention only ever get dynamic-context delivery', () => {
    for (const harness of ['cowork', 'buzz'] as const) {
      const step = start(new Session(release), hostDeclaration(harness))['step'] as JsonObject;
      for (const asset of step['host_assets'] as JsonObject[]) {
        assert.deepEqual(asset['delivery_modes'], ['dynamic-context']);
        assert.equal(asset['project_local'], null);
      }
    }
  });

  test('an unpinned harness, a missing adapter asset and an incompatible adapter block the start', () => {
    const unpinned = fixtureRelease((d) => {
      d.workflows = d.workflows.map((w) => ({ ...w, host_adapters: { codex: w.host_adapters.codex! } }));
    });
    assert.deepEqual(blockers(start(new Session(unpinned), hostDeclaration('buzz'))), [['unsupported_harness', null]]);
    const missing = fixtureRelease((d) => {
      d.assets = d.assets.filter((a) => a.id !== 'cowork-adapter');
    });
    assert.deepEqual(blockers(start(new Session(missing), hostDeclaration('cowork'))), [
      ['host_adapter_asset_missing', null],
    ]);
    const incompatible = fixtureRelease((d) => {
      d.workflows = d.workflows.map((w) => ({
        ...w,
        host_adapters: { ...w.host_adapters, buzz: { id: 'codex-adapter', version: '1.1.0' } },
      }));
    });
    const result = start(
      new Session(incompatible),
      hostDeclaration('buzz', { adapter: { id: 'codex-adapter', version: '1.1.0' } }),
    );
    assert.deepEqual(blockers(result), [['unsupported_host_adapter', null]]);
  });

  test('legacy adapter without a typed contract loads but cannot start', () => {
    const legacy = fixtureRelease((d) => {
      d.workflows = d.workflows.map((w) => ({
        ...w,
        host_adapters: { ...w.host_adapters, 'claude-code': { id: 'legacy-adapter', version: '1.0.0' } },
      }));
    });
    const scope = createReleaseScope(legacy);
    assert.ok(scope.asset('host-adapter', 'legacy-adapter', '1.0.0'), 'the legacy adapter loads');
    const result = start(
      new Session(scope),
      hostDeclaration('claude-code', { adapter: { id: 'legacy-adapter', version: '1.0.0' } }),
    );
    assert.equal(result['status'], 'blocked');
    assert.deepEqual(blockers(result), [['host_adapter_contract_unavailable', null]]);
    assert.equal(start(new Session(scope), hostDeclaration('codex'))['status'], 'active', 'typed adapters still start');
  });

  test('a validator capability every route needs blocks the start; one only a route needs does not', () => {
    const noWorkspace = start(new Session(release), hostDeclaration('codex', { validator_capabilities: ['web.read'] }));
    assert.deepEqual(blockers(noWorkspace), [['missing_validator_capability', 'workspace.read']]);
    // web.read is needed only by source-check on the desk-research route.
    const noWeb = start(new Session(release), hostDeclaration('codex', { validator_capabilities: ['workspace.read'] }));
    assert.equal(noWeb['status'], 'active', JSON.stringify(noWeb['blockers']));
    // On a step every route passes through (decision-record), the same validator blocks the start.
    const everywhere = fixtureRelease((d) => {
      d.workflows = d.workflows.map((w) => ({
        ...w,
        steps: w.steps.map((s) =>
          s.id === 'decision-record'
            ? { ...s, validators: [...s.validators, { id: 'source-check', version: '1.0.0' }] }
            : s,
        ),
      }));
    });
    const blocked = start(
      new Session(everywhere),
      hostDeclaration('codex', { validator_capabilities: ['workspace.read'] }),
    );
    assert.deepEqual(blockers(blocked), [['missing_validator_capability', 'web.read']]);
  });

  test('a route whose validators need a capability the host lacks is blocked where it is chosen', () => {
    const session = new Session(release);
    const host = hostDeclaration('claude-code', { validator_capabilities: ['workspace.read'] });
    let pos = begin(session, 'claude-code', host);
    pos = moved(pos, passStep(session, pos));
    pos = moved(pos, proceed(session, pos));
    pos = moved(pos, proceed(session, pos));
    assert.equal(stepId(pos), 'route-selection');
    session.clock.advance(1000);
    const desk = confirmed(
      { ...(pos.state['state'] as JsonObject), research_route: 'desk-research' },
      session.clock.iso(),
      pos.state,
    );
    const refused = proceed(session, pos, desk);
    assert.equal(refused['status'], 'blocked');
    assert.deepEqual(blockers(refused), [['missing_validator_capability', 'web.read']]);
    assert.deepEqual(
      refused['checkpoint'],
      pos.checkpoint,
      'the checkpoint (and the unconfirmed route) stay as they were',
    );
    const interviews = confirmed(
      { ...(pos.state['state'] as JsonObject), research_route: 'user-interviews' },
      session.clock.iso(),
      pos.state,
    );
    const routed = proceed(session, pos, interviews);
    assert.equal(routed['status'], 'active');
    assert.equal((routed['checkpoint'] as JsonObject)['current_step'], 'interview-plan');
  });

  test('repository policy conflict blocks before setup writes', () => {
    const session = new Session(release);
    const declared = start(session, hostDeclaration('claude-code', { repository_policy: policy(true) }));
    assert.equal(declared['status'], 'blocked');
    assert.equal(declared['checkpoint'], null);
    assert.equal(declared['step'], null, 'no setup step (and so no setup writes) is handed out');
    assert.deepEqual(blockers(declared), [['repository_policy_conflict', null]]);

    const research = start(
      session,
      hostDeclaration('claude-code', { repository_policy: policy(false, ['research/']) }),
    );
    assert.deepEqual(blockers(research), [
      ['repository_policy_conflict', 'research/decision.md'],
      ['repository_policy_conflict', 'research/evidence-log.json'],
      ['repository_policy_conflict', 'research/interview-plan.md'],
      ['repository_policy_conflict', 'research/synthesis.md'],
      ['repository_policy_conflict', 'research/workspace-manifest.json'],
    ]);
    const claudeDir = hostDeclaration('claude-code', { repository_policy: policy(false, ['.claude']) });
    assert.ok(blockers(start(session, claudeDir)).some(([, p]) => p === '.claude/skills/research-method/SKILL.md'));
    const dynamicOnly = hostDeclaration('claude-code', {
      repository_policy: policy(false, ['.claude']),
      host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents'],
    });
    assert.equal(
      start(session, dynamicOnly)['status'],
      'active',
      'no project-local writes are planned without the capability',
    );

    const pos = begin(session);
    const prepared = prepareSetup(session, pos, setupAttestation(pos.step as JsonObject, pos.checkpoint), {
      repository_policy: policy(false, ['.claude/agents']),
    });
    assert.equal(prepared['status'], 'deterministic_validation_failed');
    assert.deepEqual(failures(prepared), [['repository_policy_conflict', 'protected_path']]);
  });
});

describe('setup attestation binds capabilities and project-local paths', () => {
  const session = new Session(release);
  const pos = begin(session);
  const step = pos.step as JsonObject;
  const faithful = setupAttestation(step, pos.checkpoint);
  const entries = faithful['assets'] as JsonObject[];

  test('a faithful attestation passes, project-local or dynamic', () => {
    assert.equal(prepareSetup(session, pos, faithful)['status'], 'ready_for_semantic_validation');
    assert.equal(
      prepareSetup(session, pos, setupAttestation(step, pos.checkpoint, false))['status'],
      'ready_for_semantic_validation',
    );
    const paths = entries.map((e) => e['path']);
    assert.deepEqual(paths, [
      '.claude/commands/start-research.md',
      '.claude/skills/research-method/SKILL.md',
      '.claude/agents/evidence-validator.md',
      null,
    ]);
  });

  test('harness, adapter and capability sets must equal the checkpoint binding', () => {
    const cases: [JsonObject, string][] = [
      [{ harness: 'codex' }, 'harness'],
      [{ adapter: { id: 'claude-code-adapter', version: '1.0.0' } }, 'adapter_version'],
      [{ adapter: { id: 'codex-adapter', version: '1.1.0' } }, 'adapter_id'],
      [{ host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents'] }, 'host_capabilities'],
      [{ validator_capabilities: ['workspace.read', 'web.read'] }, 'validator_capabilities'],
    ];
    for (const [change, reason] of cases) {
      assert.deepEqual(failures(prepareSetup(session, pos, { ...faithful, ...change })), [
        ['host_binding_mismatch', reason],
      ]);
    }
    const mismatch = prepareSetup(session, pos, faithful, { validator_capabilities: ['workspace.read', 'web.read'] });
    assert.deepEqual(failures(mismatch), [['validator_capability_mismatch', 'validator_capabilities']]);
  });

  test('delivered digests, modes and project-local paths must match the per-asset contract', () => {
    const edit = (i: number, change: JsonObject): JsonObject => ({
      ...faithful,
      assets: entries.map((e, j) => (j === i ? { ...e, ...change } : e)),
    });
    const skill = step['host_assets'] as JsonObject[];
    const rawSkillDigest = (skill[1] as JsonObject)['sha256'] as string;
    const cases: [JsonObject, string][] = [
      [edit(1, { path: '.claude/skills/other/SKILL.md' }), 'project_local_path_mismatch'],
      [edit(1, { sha256: rawSkillDigest }), 'asset_digest_mismatch'],
      [edit(3, { delivery: 'project-local', path: '.claude/adapter.md' }), 'delivery_mode_not_allowed'],
      [{ ...faithful, assets: entries.slice(0, 3) }, 'asset_missing'],
      [{ ...faithful, assets: [...entries, entries[0] as JsonObject] }, 'asset_duplicate'],
      [edit(0, { asset_id: 'other-prompt' }), 'asset_unexpected'],
    ];
    for (const [attestation, reason] of cases) {
      const result = prepareSetup(session, pos, attestation);
      assert.equal(result['status'], 'deterministic_validation_failed', reason);
      assert.ok(
        failures(result).some(([c, r]) => c === 'workspace_manifest_contract_mismatch' && r === reason),
        reason,
      );
    }
  });

  test('the workspace manifest must say exactly what the host attestation says', () => {
    const dynamic = setupAttestation(step, pos.checkpoint, false);
    const result = session.prepare({
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      artifacts: artifactsFor(step, { 'workspace-manifest': workspaceManifest(dynamic) }),
      repository_policy: policy(),
      validator_capabilities: (pos.checkpoint['host'] as JsonObject)['validator_capabilities'] as JsonValue,
      host_attestation: faithful,
    });
    assert.deepEqual(failures(result), [['workspace_manifest_contract_mismatch', 'manifest_attestation_mismatch']]);
    const missing = session.prepare({
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      artifacts: [],
      repository_policy: policy(),
      validator_capabilities: (pos.checkpoint['host'] as JsonObject)['validator_capabilities'] as JsonValue,
      host_attestation: faithful,
    });
    assert.deepEqual(failures(missing), [['missing_artifact', null]]);
  });

  test('project-local delivery is offered only when the host declared project-local-assets', () => {
    const dynamic = new Session(release);
    const result = start(
      dynamic,
      hostDeclaration('claude-code', { host_capabilities: ['mcp.tools', 'mcp.resources', 'native-subagents'] }),
    );
    for (const asset of (result['step'] as JsonObject)['host_assets'] as JsonObject[]) {
      assert.deepEqual(asset['delivery_modes'], ['dynamic-context']);
      assert.equal(asset['project_local'], null);
    }
    const codex = (start(dynamic, hostDeclaration('codex'))['step'] as JsonObject)['host_assets'] as JsonObject[];
    assert.deepEqual(
      codex.map((a) => [a['kind'], (a['project_local'] as JsonObject | null)?.['path'] ?? null]),
      [
        ['prompt', null],
        ['skill', '.agents/skills/research-method/SKILL.md'],
        ['subagent', '.codex/agents/evidence-validator.toml'],
      ],
    );
  });

  test('two host assets may not be delivered to one path', () => {
    const colliding = fixtureRelease((d) => {
      d.assets = d.assets.map((a) =>
        a.id === 'claude-code-adapter' && a.adapter?.adapter_contract
          ? {
              ...a,
              adapter: {
                ...a.adapter,
                adapter_contract: {
                  ...a.adapter.adapter_contract,
                  project_local_paths: {
                    ...a.adapter.adapter_contract.project_local_paths,
                    prompt: '.claude/agents/{asset_id}.md',
                  },
                },
              },
            }
          : a,
      );
      d.assets.push({ ...d.assets.find((a) => a.id === 'start-research')!, id: 'evidence-validator' });
      d.workflows = d.workflows.map((w) => ({
        ...w,
        steps: w.steps.map((s) =>
          s.id === 'setup-workspace'
            ? {
                ...s,
                host_assets: [
                  ...s.host_assets,
                  { kind: 'prompt' as const, id: 'evidence-validator', version: '1.0.0' },
                ],
              }
            : s,
        ),
      }));
    });
    const s = new Session(colliding);
    const p = begin(s);
    const result = prepareSetup(s, p, setupAttestation(p.step as JsonObject, p.checkpoint));
    assert.ok(
      failures(result).some(([c, r]) => c === 'workspace_manifest_contract_mismatch' && r === 'path_collision'),
    );
  });

  test('setup needs a host attestation and no output attestation; later steps the reverse', () => {
    const none = session.prepare({
      checkpoint: pos.checkpoint,
      confirmed_state: pos.state,
      artifacts: artifactsFor(step, { 'workspace-manifest': workspaceManifest(faithful) }),
      repository_policy: policy(),
      validator_capabilities: (pos.checkpoint['host'] as JsonObject)['validator_capabilities'] as JsonValue,
      output_attestation: { step_id: 'setup-workspace', outputs: [] },
    });
    assert.deepEqual(failures(none), [
      ['output_attestation_not_allowed', null],
      ['host_attestation_required', null],
    ]);
    const s = new Session(release);
    const desk = chooseRoute(s, toRouteSelection(s), 'desk-research');
    const artifacts = artifactsFor(desk.step as JsonObject, {
      'evidence-log': '{"sources":[{"title":"a","claim":"b"}]}',
    });
    const base = {
      checkpoint: desk.checkpoint,
      confirmed_state: desk.state,
      artifacts,
      repository_policy: policy(),
      validator_capabilities: (desk.checkpoint['host'] as JsonObject)['validator_capabilities'] as JsonValue,
    };
    assert.deepEqual(failures(s.prepare({ ...base, host_attestation: faithful })), [
      ['host_attestation_not_allowed', null],
      ['output_attestation_required', null],
    ]);
    const attestation = outputAttestation(desk.step as JsonObject, artifacts);
    const outputs = attestation['outputs'] as JsonObject[];
    const tampered = (change: JsonObject) => ({ ...attestation, outputs: [{ ...outputs[0], ...change }] });
    for (const [change, reason] of [
      [{ symlink_free: false }, 'symlink_not_excluded'],
      [{ readback_verified: false }, 'readback_not_verified'],
      [{ write_policy: 'create-owned' }, 'write_policy_mismatch'],
      [{ path: 'research/other.json' }, 'path_mismatch'],
      [{ content_sha256: 'c'.repeat(64) }, 'content_digest_mismatch'],
      [{ schema_sha256: null }, 'schema_digest_mismatch'],
      [{ owner_step: 'synthesis' }, 'owner_step_mismatch'],
      [{ max_bytes: 10 }, 'max_bytes_mismatch'],
    ] as [JsonObject, string][]) {
      assert.deepEqual(failures(s.prepare({ ...base, output_attestation: tampered(change) })), [
        ['output_attestation_mismatch', reason],
      ]);
    }
  });
});
