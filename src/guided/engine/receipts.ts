/**
 * Receipts: artifact ID → content digest, and validator pass receipts bound to the digest of the exact input set. A
 * pass is reusable only while its inputs are byte-identical.
 */
import { digestJson } from '../../core/index.js';
import type { StepDefinition } from '../../registry/model/index.js';
import { refKey } from '../scope.js';
import type { ReleaseScope } from '../scope.js';

/** The digest a validator pass receipt records: of the sorted input artifact ID → SHA-256 map. */
export function inputSha256(inputs: Readonly<Record<string, string>>): string {
  return digestJson(inputs);
}

/** Digest inputs for one validator from the artifact receipts, or the missing artifact IDs. */
export function validatorInputs(
  inputIds: readonly string[],
  receipts: Readonly<Record<string, string>>,
): { ok: true; input_artifacts: Record<string, string> } | { ok: false; missing: string[] } {
  const input_artifacts: Record<string, string> = {};
  const missing: string[] = [];
  for (const id of [...new Set(inputIds)].sort()) {
    const digest = Object.prototype.hasOwnProperty.call(receipts, id) ? receipts[id] : undefined;
    if (digest === undefined) missing.push(id);
    else input_artifacts[id] = digest;
  }
  return missing.length > 0 ? { ok: false, missing } : { ok: true, input_artifacts };
}

/**
 * True when a gated step's work is already accepted in the checkpoint: every output has a receipt and every required
 * validator a pass receipt for exactly the current inputs.
 */
export function isSatisfied(
  scope: ReleaseScope,
  step: StepDefinition,
  artifacts: Readonly<Record<string, string>>,
  validators: Readonly<Record<string, { input_sha256: string }>>,
): boolean {
  const required = step.validators.filter((ref) => scope.validator(ref.id, ref.version)?.required === true);
  // Nothing to show for the step (no outputs, no required validator): only a fresh submission can complete it.
  if (step.outputs.length === 0 && required.length === 0) return false;
  if (step.outputs.some((o) => !Object.prototype.hasOwnProperty.call(artifacts, o.artifact_id))) return false;
  for (const ref of step.validators) {
    const validator = scope.validator(ref.id, ref.version);
    if (validator === undefined) return false;
    if (!validator.required) continue;
    const inputs = validatorInputs(validator.input_artifacts, artifacts);
    const receipt = validators[refKey(ref.id, ref.version)];
    if (!inputs.ok || receipt === undefined || receipt.input_sha256 !== inputSha256(inputs.input_artifacts))
      return false;
  }
  return true;
}
