/**
 * Explicit release migration (continue_workflow with `migration`), fail closed, checked in the spec's order: the
 * target must be the verified migration-target scope, a newer version of the same workflow, and a different release;
 * every target field must be re-confirmed after the checkpoint; the host must pass the target's blockers. The preview
 * lists every artifact and validator receipt as invalidated. Unconfirmed → blocked with migration_confirmation_required; confirmed → restart at
 * setup-workspace in the target release, the new checkpoint's parent being the old checkpoint's digest.
 */
import { RimthanError } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { issueCheckpoint } from '../checkpoint/issue.js';
import { envelopeJson } from '../checkpoint/state.js';
import type { VerifiedCheckpoint } from '../checkpoint/verify.js';
import { BlockerCode, ProgressStatus } from '../codes.js';
import { ProtocolReason, protocolError } from '../errors.js';
import { checkHost } from '../host/adapter.js';
import type { HostDeclaration } from '../host/declaration.js';
import type { Blocker } from '../outcomes.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';
import { compareVersions } from '../../registry/model/index.js';
import { migrationConfirmationBlockers, projectionDigest, projectionOf, requireValidState } from './confirmed-state.js';
import { blockersJson } from './deps.js';
import type { GuidedEngineDeps } from './deps.js';
import { stepPayload } from './step-payload.js';

interface MigrationRequest {
  readonly target_release: string;
  readonly workflow_version: string;
  readonly host: HostDeclaration;
  readonly confirm: boolean;
}

/** The release and workflow version a checkpoint (or a release's workflow, before any checkpoint) is pinned to. */
export interface MigrationSource {
  readonly registry_release: string;
  readonly workflow: { readonly id: string; readonly version: string };
}

/** The target workflow version a migration may move to, or the protocol refusal a migration request would get. */
export type MigrationTarget =
  | { readonly ok: true; readonly index: WorkflowIndex }
  | { readonly ok: false; readonly reason: ProtocolReason; readonly message: string };

/**
 * Checks a migration's target in the spec's order, after the target release itself was matched: the target release
 * must have the workflow version, it must be newer than the source's, and the target must be another release.
 */
export function resolveMigrationTarget(
  source: MigrationSource,
  target: ReleaseScope,
  workflowVersion: string,
): MigrationTarget {
  const index = target.workflow(source.workflow.id, workflowVersion);
  if (index === undefined) {
    return {
      ok: false,
      reason: ProtocolReason.UnknownWorkflowVersion,
      message: 'the target release has no such workflow version',
    };
  }
  if (compareVersions(index.workflow.version, source.workflow.version) <= 0) {
    return { ok: false, reason: ProtocolReason.MigrationNotNewer, message: 'the target workflow version is not newer' };
  }
  if (target.release.release === source.registry_release) {
    return {
      ok: false,
      reason: ProtocolReason.MigrationSameRelease,
      message: 'the migration target is the checkpoint release',
    };
  }
  return { ok: true, index };
}

/** What a migration does, apart from the source position: where it restarts and which receipts it invalidates. */
export interface MigrationFacts {
  readonly target: {
    readonly registry_release: string;
    readonly workflow: { readonly id: string; readonly version: string };
    readonly step: string;
  };
  readonly invalidated_artifacts: string[];
  readonly invalidated_validators: string[];
}

/**
 * The facts of a migration preview: the target restarts at its start step, and every artifact and validator receipt
 * held (`receipts`: artifact ids and `validator@version` keys) is invalidated, listed sorted.
 */
export function migrationFacts(
  target: ReleaseScope,
  index: WorkflowIndex,
  receipts: { readonly artifacts: Iterable<string>; readonly validators: Iterable<string> },
): MigrationFacts {
  return {
    target: {
      registry_release: target.release.release,
      workflow: { id: index.workflow.id, version: index.workflow.version },
      step: index.workflow.start_step,
    },
    invalidated_artifacts: [...new Set(receipts.artifacts)].sort(),
    invalidated_validators: [...new Set(receipts.validators)].sort(),
  };
}

/** Previews a migration (blocked until confirmed) or restarts the workflow at setup-workspace in the target release. */
export function migrateWorkflow(
  deps: GuidedEngineDeps,
  current: VerifiedCheckpoint,
  args: JsonObject,
  target: ReleaseScope | undefined,
): JsonObject {
  if (target === undefined) {
    throw protocolError(ProtocolReason.MigrationUnavailable, 'no verified migration target release is loaded');
  }
  const request = args['migration'] as unknown as MigrationRequest;
  const source = current.state;
  if (request.target_release !== target.release.release) {
    throw protocolError(
      ProtocolReason.MigrationTargetMismatch,
      'the migration target is not the loaded target release',
    );
  }
  const resolved = resolveMigrationTarget(source, target, request.workflow_version);
  if (!resolved.ok) throw protocolError(resolved.reason, resolved.message);
  const index = resolved.index;

  const proposed = args['next_confirmed_state'];
  const next = projectionOf(proposed ?? args['confirmed_state']);
  requireValidState(target, index.workflow.confirmed_state_schema, next);
  const blockers: Blocker[] = migrationConfirmationBlockers(
    projectionOf(args['confirmed_state']),
    next,
    source.issued_at,
    deps.clock.now(),
  );
  const pinned = index.workflow.host_adapters[source.host.harness];
  if (request.host.harness !== source.host.harness) {
    blockers.push(
      pinned === undefined
        ? { code: BlockerCode.UnsupportedHarness }
        : {
            code: BlockerCode.HostAdapterBindingMismatch,
            expected_adapter: { id: pinned.id, version: pinned.version },
          },
    );
  }
  const host = checkHost(target, index, request.host);
  if (!host.ok) blockers.push(...host.blockers);

  const facts = migrationFacts(target, index, {
    artifacts: Object.keys(source.artifacts),
    validators: Object.keys(source.validators),
  });
  const preview = (confirmed: boolean): JsonObject => ({
    source: { registry_release: source.registry_release, workflow: { ...source.workflow }, step: source.current_step },
    target: { ...facts.target, workflow: { ...facts.target.workflow } },
    invalidated_artifacts: [...facts.invalidated_artifacts],
    invalidated_validators: [...facts.invalidated_validators],
    confirmed,
  });
  const blocked = (list: readonly Blocker[]): JsonObject => ({
    status: ProgressStatus.Blocked,
    checkpoint: envelopeJson(current),
    step: null,
    question: null,
    blockers: blockersJson(list),
    migration: preview(false),
  });
  if (blockers.length > 0 || !host.ok) return blocked(blockers);
  if (!request.confirm) return blocked([{ code: BlockerCode.MigrationConfirmationRequired }]);

  const release = target.release;
  const restarted = issueCheckpoint(deps.signer, {
    registry_id: release.registry_id,
    registry_release: release.release,
    manifest_sha256: release.manifest_sha256,
    workflow: { id: index.workflow.id, version: index.workflow.version },
    current_step: index.workflow.start_step,
    sequence: source.sequence + 1,
    parent_checkpoint_sha256: current.digest,
    confirmed_state_sha256: projectionDigest(next),
    artifacts: {},
    validators: {},
    host: host.binding,
    issued_at: deps.clock.now().toISOString(),
  });
  const setup = index.steps.get(index.workflow.start_step);
  if (setup === undefined) throw new RimthanError('invalid_release', 'the target workflow has no start step');
  return {
    status: ProgressStatus.Active,
    checkpoint: envelopeJson(restarted),
    step: stepPayload(target, index, setup, host.binding, host.adapter),
    question: null,
    blockers: [],
    migration: preview(true),
  };
}
