/**
 * rimthan.start_workflow: select the workflow (ID or alias; newest version unless one is named), validate the initial
 * confirmed state and its confirmations, bind the host to the pinned adapter, then issue sequence 1 at setup-workspace.
 */
import { RimthanError } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { envelopeJson } from '../checkpoint/state.js';
import { issueCheckpoint } from '../checkpoint/issue.js';
import { ProgressStatus } from '../codes.js';
import { ProtocolReason, protocolError } from '../errors.js';
import { checkHost } from '../host/adapter.js';
import type { HostDeclaration } from '../host/declaration.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';
import { initialConfirmationBlockers, projectionDigest, projectionOf, requireValidState } from './confirmed-state.js';
import { blockersJson } from './deps.js';
import type { GuidedEngineDeps } from './deps.js';
import { stepPayload } from './step-payload.js';

/** Resolves `workflow` (ID or alias) and an optional exact version; throws workflow_protocol_error when unknown. */
export function selectWorkflow(scope: ReleaseScope, workflow: string, version: string | undefined): WorkflowIndex {
  const versions = scope.workflowVersions(workflow);
  const newest = versions[0];
  if (newest === undefined) throw protocolError(ProtocolReason.UnknownWorkflow, 'no workflow has that ID or alias');
  if (version === undefined) return newest;
  const exact = versions.find((w) => w.workflow.version === version);
  if (exact === undefined) {
    throw protocolError(ProtocolReason.UnknownWorkflowVersion, 'the workflow has no such version in this release');
  }
  return exact;
}

/** rimthan.start_workflow: `active` at setup-workspace with sequence 1, or `blocked` with every blocker. */
export function startWorkflow(deps: GuidedEngineDeps, scope: ReleaseScope, args: JsonObject): JsonObject {
  const versionArg = args['workflow_version'];
  const index = selectWorkflow(
    scope,
    args['workflow'] as string,
    typeof versionArg === 'string' ? versionArg : undefined,
  );
  const projection = projectionOf(args['confirmed_state']);
  requireValidState(scope, index.workflow.confirmed_state_schema, projection);
  const host = args['host'] as unknown as HostDeclaration;
  const now = deps.clock.now();
  const blockers = initialConfirmationBlockers(projection, now);
  const bound = checkHost(scope, index, host);
  if (!bound.ok) blockers.push(...bound.blockers);
  if (blockers.length > 0 || !bound.ok) {
    return { status: ProgressStatus.Blocked, checkpoint: null, step: null, blockers: blockersJson(blockers) };
  }
  const release = scope.release;
  const checkpoint = issueCheckpoint(deps.signer, {
    registry_id: release.registry_id,
    registry_release: release.release,
    manifest_sha256: release.manifest_sha256,
    workflow: { id: index.workflow.id, version: index.workflow.version },
    current_step: index.workflow.start_step,
    sequence: 1,
    parent_checkpoint_sha256: null,
    confirmed_state_sha256: projectionDigest(projection),
    artifacts: {},
    validators: {},
    host: bound.binding,
    issued_at: now.toISOString(),
  });
  const step = index.steps.get(index.workflow.start_step);
  if (step === undefined) throw new RimthanError('invalid_release', 'the workflow has no start step');
  return {
    status: ProgressStatus.Active,
    checkpoint: envelopeJson(checkpoint),
    step: stepPayload(scope, index, step, bound.binding, bound.adapter),
    blockers: [],
  };
}
