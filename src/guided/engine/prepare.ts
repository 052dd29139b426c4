/**
 * rimthan.prepare_step_validation: deterministic checks only, accumulated as closed failure objects (never a partial
 * success): repository policy, validator capabilities, artifacts, step-input receipts, and the attestation the step
 * needs (host attestation at setup-workspace, output attestation elsewhere). On success a signed validation bundle and
 * the validators that must report now (those without a pass receipt for these exact inputs).
 */
import type { JsonObject } from '../../core/index.js';
import { RimthanError } from '../../core/index.js';
import type { StepDefinition, ValidatorCapability, ValidatorDefinition } from '../../registry/model/index.js';
import { issueBundle } from '../checkpoint/bundle.js';
import type { BundleValidator } from '../checkpoint/bundle.js';
import { verifyCheckpoint } from '../checkpoint/verify.js';
import { FailureCode, FailureReason, PrepareStatus } from '../codes.js';
import type { RepositoryPolicy } from '../host/declaration.js';
import { sameSet } from '../host/declaration.js';
import { policyConflicts } from '../host/repository-policy.js';
import { attestedPaths, checkHostAttestation } from '../host/setup-attestation.js';
import type { HostAttestation } from '../host/setup-attestation.js';
import { WORKSPACE_MANIFEST_ARTIFACT, checkWorkspaceManifest } from '../host/workspace-manifest.js';
import type { Failure } from '../outcomes.js';
import { refKey } from '../scope.js';
import type { ReleaseScope } from '../scope.js';
import { resourceUri } from '../uris.js';
import { checkArtifacts } from './artifacts.js';
import type { SubmittedArtifact } from './artifacts.js';
import { projectionOf, requirePriorState } from './confirmed-state.js';
import { nowIso, outcomeJson, checkpointLifetime } from './deps.js';
import type { GuidedEngineDeps } from './deps.js';
import { checkOutputAttestation } from './output-attestation.js';
import type { OutputAttestation } from './output-attestation.js';
import { inputSha256, validatorInputs } from './receipts.js';
import { boundAdapter } from './step-payload.js';

/** The step's validators with their instruction digests; a verified release always has both (else a fault). */
function stepValidators(scope: ReleaseScope, step: StepDefinition): { v: ValidatorDefinition; instruction: string }[] {
  return step.validators.map((ref) => {
    const v = scope.validator(ref.id, ref.version);
    const instruction = scope.instructionSha256(ref.id, ref.version);
    if (v === undefined || instruction === undefined) {
      throw new RimthanError('invalid_release', 'a step names a validator the release lacks');
    }
    return { v, instruction };
  });
}

/** rimthan.prepare_step_validation: every deterministic failure, or a signed bundle and the validators to run. */
export function prepareStepValidation(deps: GuidedEngineDeps, scope: ReleaseScope, args: JsonObject): JsonObject {
  const current = verifyCheckpoint(deps.signer, scope, args['checkpoint'], checkpointLifetime(deps));
  requirePriorState(projectionOf(args['confirmed_state']), current.state.confirmed_state_sha256);
  const { step, index } = current;
  const binding = current.state.host;
  const isSetup = step.id === index.workflow.start_step;
  const hostAttestation = args['host_attestation'] as unknown as HostAttestation | undefined;
  const outputAttestation = args['output_attestation'] as unknown as OutputAttestation | undefined;
  const failures: Failure[] = [];

  // Repository policy against every write this step makes (outputs; at setup also project-local host assets).
  const policy = args['repository_policy'] as unknown as RepositoryPolicy;
  const writes = step.outputs.map((o) => o.path);
  if (isSetup && hostAttestation !== undefined) writes.push(...attestedPaths(hostAttestation));
  for (const conflict of policyConflicts(policy, writes)) {
    failures.push({
      code: FailureCode.RepositoryPolicyConflict,
      reason: conflict.path === undefined ? FailureReason.PolicyDeclaredConflict : FailureReason.ProtectedPath,
      ...conflict,
    });
  }

  // Validator capabilities: the same set the checkpoint bound, covering every validator of this step.
  const capabilities = args['validator_capabilities'] as ValidatorCapability[];
  if (!sameSet(capabilities, binding.validator_capabilities)) {
    failures.push({ code: FailureCode.ValidatorCapabilityMismatch, reason: FailureReason.ValidatorCapabilities });
  }
  // Each capability a validator of this step requires must be available now (as declared in this call) and have been
  // bound at start; a host that lost one since (another machine after a Git handoff) learns which.
  const validators = stepValidators(scope, step);
  for (const { v } of validators) {
    for (const capability of v.required_capabilities) {
      if (!binding.validator_capabilities.includes(capability) || !capabilities.includes(capability)) {
        failures.push({ code: FailureCode.MissingValidatorCapability, validator_id: v.id, capability });
      }
    }
  }

  const submitted = args['artifacts'] as unknown as SubmittedArtifact[];
  const artifacts = checkArtifacts(scope, step, submitted);
  failures.push(...artifacts.failures);
  const prior = current.state.artifacts;
  for (const input of step.inputs) {
    if (!Object.prototype.hasOwnProperty.call(prior, input)) {
      failures.push({ code: FailureCode.InputReceiptMissing, artifact_id: input });
    }
  }

  if (isSetup) {
    if (outputAttestation !== undefined) failures.push({ code: FailureCode.OutputAttestationNotAllowed });
    if (hostAttestation === undefined) failures.push({ code: FailureCode.HostAttestationRequired });
    else {
      failures.push(...checkHostAttestation(scope, index, binding, boundAdapter(scope, binding), hostAttestation));
      const manifest = submitted.find((a) => a.artifact_id === WORKSPACE_MANIFEST_ARTIFACT);
      if (manifest !== undefined && artifacts.receipts[WORKSPACE_MANIFEST_ARTIFACT] !== undefined) {
        failures.push(...checkWorkspaceManifest(manifest.content, hostAttestation));
      }
    }
  } else {
    if (hostAttestation !== undefined) failures.push({ code: FailureCode.HostAttestationNotAllowed });
    if (outputAttestation !== undefined) {
      failures.push(...checkOutputAttestation(scope, step, outputAttestation, artifacts.receipts));
    } else if (step.outputs.length > 0) {
      failures.push({ code: FailureCode.OutputAttestationRequired });
    }
  }

  // Validator inputs: this step's new receipts over the checkpoint's earlier ones.
  const available = { ...prior, ...artifacts.receipts };
  const bundled: { v: ValidatorDefinition; b: BundleValidator }[] = [];
  for (const { v, instruction } of validators) {
    const inputs = validatorInputs(v.input_artifacts, available);
    if (!inputs.ok) {
      for (const artifact_id of inputs.missing) {
        if (!step.outputs.some((o) => o.artifact_id === artifact_id)) {
          failures.push({ code: FailureCode.InputReceiptMissing, artifact_id, validator_id: v.id });
        }
      }
      continue;
    }
    const digest = inputSha256(inputs.input_artifacts);
    const receipt = current.state.validators[refKey(v.id, v.version)];
    const b: BundleValidator = {
      validator_id: v.id,
      validator_version: v.version,
      instruction_sha256: instruction,
      input_artifacts: inputs.input_artifacts,
      input_sha256: digest,
      required: v.required,
      report_required: receipt === undefined || receipt.input_sha256 !== digest,
    };
    bundled.push({ v, b });
  }

  if (failures.length > 0) {
    return {
      status: PrepareStatus.DeterministicValidationFailed,
      step_id: step.id,
      failures: failures.map(outcomeJson),
      validation_bundle: null,
      validators: [],
    };
  }
  const release = scope.release;
  const bundle = issueBundle(deps.signer, {
    registry_id: release.registry_id,
    registry_release: release.release,
    manifest_sha256: release.manifest_sha256,
    workflow: { ...current.state.workflow },
    step_id: step.id,
    checkpoint_sha256: current.digest,
    artifacts: artifacts.receipts,
    validators: bundled.map((x) => x.b),
    issued_at: nowIso(deps),
  });
  const toRun = bundled
    .filter(({ b }) => b.report_required)
    .map(({ v, b }) => ({
      validator_id: v.id,
      validator_version: v.version,
      title: v.title,
      required: v.required,
      instruction_sha256: b.instruction_sha256,
      input_artifacts: { ...b.input_artifacts },
      uri: resourceUri.validator(release.release, v.id, v.version),
      brief_uri: resourceUri.asset(release.release, 'validator-brief', v.brief.id, v.brief.version),
    }));
  return {
    status: PrepareStatus.ReadyForSemanticValidation,
    step_id: step.id,
    failures: [],
    validation_bundle: bundle,
    validators: toRun,
  };
}
