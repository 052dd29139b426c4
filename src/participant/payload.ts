/**
 * Typed readers of the served step payload (the `step` object of start/continue/submit results), so the rest of the
 * library works from named fields instead of casts. Only what the participant needs is read; unknown fields are
 * ignored. An asset may carry its `content` inline or only its `uri` and `sha256` (a reference to an asset attested
 * at setup): `assetText` reads the content from the resource then, and checks the digest either way.
 */
import { isJsonObject, sha256Hex } from '../core/index.js';
import type { JsonObject, JsonValue } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';

export type DeliveryMode = 'dynamic-context' | 'project-local';

export interface HostAssetPayload {
  readonly kind: string;
  readonly id: string;
  readonly version: string;
  readonly sha256: string;
  readonly uri: string;
  readonly content?: string;
  readonly delivery_modes: readonly DeliveryMode[];
  readonly project_local: { readonly path: string; readonly sha256: string; readonly content?: string } | null;
}

export interface OutputPayload {
  readonly artifact_id: string;
  readonly path: string;
  readonly media_type: string;
  readonly max_bytes: number;
  readonly write_policy: string;
  readonly schema: {
    readonly id: string;
    readonly version: string;
    readonly sha256: string;
    readonly uri: string;
  } | null;
}

export interface ValidatorPayload {
  readonly validator_id: string;
  readonly validator_version: string;
  readonly title: string;
  readonly required: boolean;
  readonly required_capabilities: readonly string[];
  readonly input_artifacts: readonly string[];
  readonly instruction_sha256: string;
  readonly uri: string;
  readonly brief: {
    readonly id: string;
    readonly version: string;
    readonly sha256: string;
    readonly uri: string;
    readonly content?: string;
  };
}

export interface StepPayload {
  readonly workflow: { readonly id: string; readonly version: string; readonly title: string };
  readonly step: JsonObject & { readonly id: string; readonly title?: string };
  readonly instruction: {
    readonly id: string;
    readonly version: string;
    readonly sha256: string;
    readonly uri: string;
    readonly content?: string;
  };
  readonly host_assets: readonly HostAssetPayload[];
  readonly host_adapter: {
    readonly id: string;
    readonly version: string;
    readonly sha256: string;
    readonly uri: string;
    readonly content?: string;
  };
  readonly validators: readonly ValidatorPayload[];
  readonly outputs: readonly OutputPayload[];
  readonly resources: readonly string[];
}

/** Reads a served step payload (refusing one without the fields the participant needs). */
export function stepPayloadOf(value: JsonValue | undefined): StepPayload {
  const ok =
    isJsonObject(value) &&
    isJsonObject(value['step']) &&
    Array.isArray(value['host_assets']) &&
    Array.isArray(value['outputs']) &&
    Array.isArray(value['validators']) &&
    isJsonObject(value['host_adapter']);
  if (!ok) throw new ParticipantError(ParticipantErrorCode.WrongStep, 'the server sent no usable step payload');
  return value as unknown as StepPayload;
}

/** The step id of a payload. */
export function stepIdOf(step: StepPayload): string {
  return step.step.id;
}

/** Something with a digest and either inline content or a resource URI. */
export interface ServedText {
  readonly sha256: string;
  readonly uri: string;
  readonly content?: string;
}

export type ResourceReader = (uri: string) => Promise<string | undefined>;

/**
 * The exact text of a served asset: inline content, or the resource at its URI; either must have the served digest
 * (a mismatch is refused, never delivered).
 */
export async function assetText(asset: ServedText, readResource: ResourceReader, what: string): Promise<string> {
  const text = typeof asset.content === 'string' ? asset.content : await readResource(asset.uri);
  if (text === undefined) {
    throw new ParticipantError(
      ParticipantErrorCode.AssetDigestMismatch,
      `${what}: the server does not serve ${asset.uri}`,
    );
  }
  if (sha256Hex(text) !== asset.sha256) {
    throw new ParticipantError(
      ParticipantErrorCode.AssetDigestMismatch,
      `${what}: the content does not have the served digest ${asset.sha256}`,
    );
  }
  return text;
}

/** A served scalar as text (a string as is, a number or boolean spelled out, anything else as JSON, absent as ''). */
export function str(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return `${value}`;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}
