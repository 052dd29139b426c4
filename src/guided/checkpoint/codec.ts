/**
 * The compact body of version 1 checkpoint tokens. New checkpoints carry digest-bound version 2 tokens
 * (bound-token.ts); version 1 tokens are still verified, so checkpoints issued before keep resuming. A version 1 body
 * records everything the checkpoint proves, spelled more tightly than the envelope does:
 *   - every SHA-256 as unpadded base64url (43 characters) instead of hex (64);
 *   - a validator receipt as its input digest alone (only pass receipts are ever recorded);
 *   - each capability set as a bitmask over a frozen, append-only order owned here.
 * Decoding is strict (closed schema, canonical base64url, no unknown mask bits) and yields the envelope form.
 */
import { RimthanError, SchemaCompiler } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import type { HostCapability, ValidatorCapability } from '../../registry/model/index.js';
import { boundTokens } from './bound-token.js';
import {
  closedObject,
  harnessSchema,
  idSchema,
  keyIdSchema,
  mapOf,
  refSchema,
  releaseSchema,
  timestampSchema,
  validatorKeySchema,
  versionSchema,
} from '../contracts/primitives.js';
import type { CheckpointState } from './state.js';

/** Version 1: the token body repeats the whole state compactly (still verified; no longer issued). */
export const CHECKPOINT_TOKEN_SCHEMA = 'rimthan.checkpoint/1';
/** Version 2: the token body signs the envelope's members by digest (bound-token.ts); what is issued now. */
export const CHECKPOINT_TOKEN_SCHEMA_V2 = 'rimthan.checkpoint/2';
export const checkpointTokens = boundTokens('checkpoint', CHECKPOINT_TOKEN_SCHEMA_V2);

/** Bit order of host capabilities in tokens. Append only: reordering would change what old tokens mean. */
export const HOST_CAPABILITY_BITS: readonly HostCapability[] = Object.freeze([
  'mcp.tools',
  'mcp.resources',
  'mcp.prompts',
  'native-subagents',
  'scoped-inputs',
  'read-only-capabilities',
  'structured-reports',
  'project-local-assets',
]);
/** Bit order of validator capabilities in tokens. Append only. */
export const VALIDATOR_CAPABILITY_BITS: readonly ValidatorCapability[] = Object.freeze([
  'workspace.read',
  'web.read',
  'browser.read',
  'git.read',
  'database.read',
]);

const b64Digest: JsonObject = { type: 'string', minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]{43}$' };
const mask = (bits: number): JsonObject => ({ type: 'integer', minimum: 0, maximum: 2 ** bits - 1 });

/** The checkpoint token body's schema (a shipped document: compiled on its first use). */
export const CHECKPOINT_BODY_SCHEMA: JsonObject = closedObject({
  schema: { type: 'string', enum: [CHECKPOINT_TOKEN_SCHEMA] },
  token_kind: { type: 'string', enum: ['checkpoint'] },
  key_id: keyIdSchema,
  registry_id: releaseSchema,
  registry_release: releaseSchema,
  manifest_sha256: b64Digest,
  workflow: refSchema,
  current_step: idSchema,
  sequence: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
  parent_checkpoint_sha256: { anyOf: [{ type: 'null' }, b64Digest] },
  confirmed_state_sha256: b64Digest,
  artifacts: mapOf(idSchema, b64Digest),
  validators: mapOf(validatorKeySchema, b64Digest),
  host: closedObject({
    harness: harnessSchema,
    adapter_id: idSchema,
    adapter_version: versionSchema,
    host_capabilities: mask(HOST_CAPABILITY_BITS.length),
    validator_capabilities: mask(VALIDATOR_CAPABILITY_BITS.length),
  }),
  issued_at: timestampSchema,
});
// Every string of the body is ASCII by pattern or enum, so counting UTF-16 units is exact here.
const checkBody = new SchemaCompiler({ unicodeLength: false }).compileOrDefer(CHECKPOINT_BODY_SCHEMA);

function toB64(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64url');
}

const B64URL_DIGEST = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/**
 * Hex of an unpadded base64url SHA-256, or undefined unless `b64` is its one canonical spelling: 43 characters of the
 * URL-safe alphabet, the last of which carries two zero padding bits.
 */
function toHex(b64: string): string | undefined {
  return B64URL_DIGEST.test(b64) ? Buffer.from(b64, 'base64url').toString('hex') : undefined;
}

function toMask<T extends string>(values: readonly T[], order: readonly T[]): number {
  return values.reduce((m, v) => {
    const bit = order.indexOf(v);
    if (bit < 0) throw new RimthanError('invalid_capability', 'a capability has no bit in the checkpoint codec');
    return m | (1 << bit);
  }, 0);
}

/** Each capability with its bit, in sorted name order: decoding then yields a sorted list without sorting. */
function sortedBits<T extends string>(order: readonly T[]): readonly (readonly [T, number])[] {
  return order.map((v, i) => [v, 1 << i] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
const HOST_BITS_SORTED = sortedBits(HOST_CAPABILITY_BITS);
const VALIDATOR_BITS_SORTED = sortedBits(VALIDATOR_CAPABILITY_BITS);

function fromMask<T extends string>(m: number, sorted: readonly (readonly [T, number])[]): T[] {
  const out: T[] = [];
  for (const [value, bit] of sorted) if ((m & bit) !== 0) out.push(value);
  return out;
}

function mapValues(
  record: Readonly<Record<string, string>>,
  f: (v: string) => string | undefined,
): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(record)) {
    const mapped = f(v);
    if (mapped === undefined) return undefined;
    out[k] = mapped;
  }
  return out;
}

/** The compact token body for a checkpoint state (the signer adds `token_kind` and `key_id`). */
export function encodeCheckpointBody(state: CheckpointState): JsonObject {
  return {
    schema: CHECKPOINT_TOKEN_SCHEMA,
    registry_id: state.registry_id,
    registry_release: state.registry_release,
    manifest_sha256: toB64(state.manifest_sha256),
    workflow: { id: state.workflow.id, version: state.workflow.version },
    current_step: state.current_step,
    sequence: state.sequence,
    parent_checkpoint_sha256: state.parent_checkpoint_sha256 === null ? null : toB64(state.parent_checkpoint_sha256),
    confirmed_state_sha256: toB64(state.confirmed_state_sha256),
    artifacts: mapValues(state.artifacts, toB64) as JsonObject,
    validators: Object.fromEntries(Object.entries(state.validators).map(([k, r]) => [k, toB64(r.input_sha256)])),
    host: {
      harness: state.host.harness,
      adapter_id: state.host.adapter_id,
      adapter_version: state.host.adapter_version,
      host_capabilities: toMask(state.host.host_capabilities, HOST_CAPABILITY_BITS),
      validator_capabilities: toMask(state.host.validator_capabilities, VALIDATOR_CAPABILITY_BITS),
    },
    issued_at: state.issued_at,
  };
}

/** Decodes a verified token body back to the envelope form, or undefined when it is not a well-formed body. */
export function decodeCheckpointBody(body: JsonObject): CheckpointState | undefined {
  if (!checkBody(body).ok) return undefined;
  const b = body as unknown as {
    registry_id: string;
    registry_release: string;
    manifest_sha256: string;
    workflow: { id: string; version: string };
    current_step: string;
    sequence: number;
    parent_checkpoint_sha256: string | null;
    confirmed_state_sha256: string;
    artifacts: Record<string, string>;
    validators: Record<string, string>;
    host: {
      harness: CheckpointState['host']['harness'];
      adapter_id: string;
      adapter_version: string;
      host_capabilities: number;
      validator_capabilities: number;
    };
    issued_at: string;
  };
  const manifest = toHex(b.manifest_sha256);
  const parent = b.parent_checkpoint_sha256 === null ? null : toHex(b.parent_checkpoint_sha256);
  const stateDigest = toHex(b.confirmed_state_sha256);
  const artifacts = mapValues(b.artifacts, toHex);
  const validators = mapValues(b.validators, toHex);
  if (manifest === undefined || parent === undefined || stateDigest === undefined || !artifacts || !validators) {
    return undefined;
  }
  return {
    registry_id: b.registry_id,
    registry_release: b.registry_release,
    manifest_sha256: manifest,
    workflow: { id: b.workflow.id, version: b.workflow.version },
    current_step: b.current_step,
    sequence: b.sequence,
    parent_checkpoint_sha256: parent,
    confirmed_state_sha256: stateDigest,
    artifacts,
    validators: Object.fromEntries(
      Object.entries(validators).map(([k, d]) => [k, { outcome: 'passed', input_sha256: d }]),
    ),
    host: {
      harness: b.host.harness,
      adapter_id: b.host.adapter_id,
      adapter_version: b.host.adapter_version,
      host_capabilities: fromMask(b.host.host_capabilities, HOST_BITS_SORTED),
      validator_capabilities: fromMask(b.host.validator_capabilities, VALIDATOR_BITS_SORTED),
    },
    issued_at: b.issued_at,
  };
}
