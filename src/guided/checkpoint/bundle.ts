/**
 * The validation-bundle token: what prepare_step_validation proved deterministically (artifact receipts, validator
 * instruction and input digests, which validators must report), bound to one checkpoint digest and step. Signed as
 * kind `validation-bundle`, so it can never pass as a checkpoint (and the reverse).
 */
import { SchemaCompiler, isJsonObject } from '../../core/index.js';
import type { JsonObject, TokenSigner } from '../../core/index.js';
import { validationBundleDef } from '../contracts/defs-checkpoint.js';
import { closedObject } from '../contracts/primitives.js';
import { defsFor } from '../contracts/published.js';
import { checkpointError } from '../errors.js';
import { boundTokens } from './bound-token.js';
import { sameAsClean } from './same-json.js';
import type { VerifiedCheckpoint } from './verify.js';

/** Version 1: the token body repeats the bundle (still verified; no longer issued). */
export const BUNDLE_TOKEN_SCHEMA = 'rimthan.validation-bundle/1';
/** Version 2: the token signs the bundle's members by digest (bound-token.ts); what is issued now. */
export const BUNDLE_TOKEN_SCHEMA_V2 = 'rimthan.validation-bundle/2';
const bundleTokens = boundTokens('validation-bundle', BUNDLE_TOKEN_SCHEMA_V2);

export interface BundleValidator {
  readonly validator_id: string;
  readonly validator_version: string;
  readonly instruction_sha256: string;
  /** Input artifact ID → SHA-256 (from this step's artifacts or earlier receipts). */
  readonly input_artifacts: Readonly<Record<string, string>>;
  /** Digest of `input_artifacts`: what a pass receipt records. */
  readonly input_sha256: string;
  readonly required: boolean;
  /** False when a pass receipt for these exact inputs already exists (the pass is reused). */
  readonly report_required: boolean;
}

export interface BundleState {
  readonly registry_id: string;
  readonly registry_release: string;
  readonly manifest_sha256: string;
  readonly workflow: { readonly id: string; readonly version: string };
  readonly step_id: string;
  readonly checkpoint_sha256: string;
  readonly artifacts: Readonly<Record<string, string>>;
  readonly validators: readonly BundleValidator[];
  readonly issued_at: string;
}

const bundleProperties = validationBundleDef.shape['properties'] as Record<string, JsonObject>;
// Every string of the body is ASCII by pattern or enum, so counting UTF-16 units is exact here.
const bodySchema = closedObject({
  schema: { type: 'string', enum: [BUNDLE_TOKEN_SCHEMA] },
  token_kind: { type: 'string', enum: ['validation-bundle'] },
  ...Object.fromEntries(Object.entries(bundleProperties).filter(([k]) => k !== 'validation_token')),
});
/** The validation-bundle token body's schema (a shipped document: compiled on its first use). */
export const BUNDLE_BODY_SCHEMA: JsonObject = { ...bodySchema, $defs: defsFor(bodySchema) };
const checkBody = new SchemaCompiler({ unicodeLength: false }).compileOrDefer(BUNDLE_BODY_SCHEMA);

function bundleJson(s: BundleState): JsonObject {
  return {
    registry_id: s.registry_id,
    registry_release: s.registry_release,
    manifest_sha256: s.manifest_sha256,
    workflow: { id: s.workflow.id, version: s.workflow.version },
    step_id: s.step_id,
    checkpoint_sha256: s.checkpoint_sha256,
    artifacts: { ...s.artifacts },
    validators: s.validators.map((v) => ({ ...v, input_artifacts: { ...v.input_artifacts } })),
    issued_at: s.issued_at,
  };
}

/** Signs a bundle and returns the object the harness presents back to submit_step_validation. */
export function issueBundle(signer: TokenSigner, state: BundleState): JsonObject {
  const members = { ...bundleJson(state), key_id: signer.activeKeyId };
  return { ...members, validation_token: bundleTokens.sign(signer, members) };
}

/**
 * Verifies a presented bundle: signature and kind, every visible field exactly what was signed (version 2: their
 * digest; version 1: equal to the closed signed body), and the binding to this exact checkpoint (release, manifest, workflow, step, checkpoint digest). Fails closed with
 * workflow_checkpoint_error.
 */
export function verifyBundle(signer: TokenSigner, checkpoint: VerifiedCheckpoint, presented: unknown): BundleState {
  if (!isJsonObject(presented)) throw checkpointError();
  const token = presented['validation_token'];
  if (typeof token !== 'string') throw checkpointError();
  const verified = signer.verify('validation-bundle', token);
  if (!verified.ok) throw checkpointError();
  const { validation_token: _token, ...members } = presented;
  if (verified.body['schema'] === BUNDLE_TOKEN_SCHEMA) {
    // Version 1: the presented members must equal the signed body (strictly parsed, so it always canonicalises).
    if (!checkBody(verified.body).ok) throw checkpointError();
    const { schema: _schema, token_kind: _kind, ...visible } = verified.body;
    if (!sameAsClean(members, visible)) throw checkpointError();
  } else if (members['key_id'] !== verified.keyId || !bundleTokens.binds(verified.body, members)) {
    // Version 2: the signed digest is the presented members' (exactly a bundle the server built and signed).
    throw checkpointError();
  }
  const { key_id: _keyId, ...rest } = members;
  const state = rest as unknown as BundleState;
  const c = checkpoint.state;
  const bound =
    state.registry_id === c.registry_id &&
    state.registry_release === c.registry_release &&
    state.manifest_sha256 === c.manifest_sha256 &&
    state.workflow.id === c.workflow.id &&
    state.workflow.version === c.workflow.version &&
    state.step_id === c.current_step &&
    state.checkpoint_sha256 === checkpoint.digest;
  if (!bound) throw checkpointError();
  return state;
}
