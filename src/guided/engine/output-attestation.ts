/**
 * Output attestation (non-setup steps): the harness proves it read each declared output back from its declared,
 * symlink-free path, bound to the right artifact ID, owner step, media type, schema digest (JSON), max_bytes, write
 * policy and the exact content digest of the submitted artifact.
 */
import type { StepDefinition, WritePolicy } from '../../registry/model/index.js';
import { FailureCode, FailureReason } from '../codes.js';
import type { Failure } from '../outcomes.js';
import type { ReleaseScope } from '../scope.js';

export interface OutputAttestation {
  readonly step_id: string;
  readonly outputs: readonly {
    readonly artifact_id: string;
    readonly path: string;
    readonly owner_step: string;
    readonly media_type: string;
    readonly schema_sha256: string | null;
    readonly max_bytes: number;
    readonly content_sha256: string;
    readonly symlink_free: boolean;
    readonly readback_verified: boolean;
    readonly write_policy: WritePolicy;
  }[];
}

/** Failures of an output attestation against the step's declarations and the submitted artifacts' receipts. */
export function checkOutputAttestation(
  scope: ReleaseScope,
  step: StepDefinition,
  attestation: OutputAttestation,
  receipts: Readonly<Record<string, string>>,
): Failure[] {
  const failures: Failure[] = [];
  const fail = (reason: FailureReason, artifact_id?: string): void => {
    failures.push({
      code: FailureCode.OutputAttestationMismatch,
      reason,
      ...(artifact_id === undefined ? {} : { artifact_id }),
    });
  };
  if (attestation.step_id !== step.id) fail(FailureReason.StepMismatch);
  for (const entry of attestation.outputs) {
    if (!step.outputs.some((o) => o.artifact_id === entry.artifact_id))
      fail(FailureReason.OutputUnexpected, entry.artifact_id);
  }
  for (const declared of step.outputs) {
    const id = declared.artifact_id;
    const entries = attestation.outputs.filter((e) => e.artifact_id === id);
    const entry = entries[0];
    if (entry === undefined) {
      fail(FailureReason.OutputMissing, id);
      continue;
    }
    if (entries.length > 1) fail(FailureReason.OutputDuplicate, id);
    const schema =
      declared.schema === undefined ? undefined : scope.schema(declared.schema.id, declared.schema.version);
    if (entry.path !== declared.path) fail(FailureReason.PathMismatch, id);
    if (entry.owner_step !== step.id) fail(FailureReason.OwnerStepMismatch, id);
    if (entry.media_type !== declared.media_type) fail(FailureReason.MediaTypeMismatch, id);
    if (entry.schema_sha256 !== (schema?.sha256 ?? null)) fail(FailureReason.SchemaDigestMismatch, id);
    if (entry.max_bytes !== declared.max_bytes) fail(FailureReason.MaxBytesMismatch, id);
    const receipt = Object.prototype.hasOwnProperty.call(receipts, id) ? receipts[id] : undefined;
    if (receipt === undefined || entry.content_sha256 !== receipt) fail(FailureReason.ContentDigestMismatch, id);
    if (!entry.symlink_free) fail(FailureReason.SymlinkNotExcluded, id);
    if (!entry.readback_verified) fail(FailureReason.ReadbackNotVerified, id);
    if (entry.write_policy !== declared.write_policy) fail(FailureReason.WritePolicyMismatch, id);
  }
  return failures;
}
