/**
 * The workspace manifest: setup-workspace's JSON artifact `workspace-manifest` (when the workflow declares one) is the
 * on-disk record of what the host delivered, committed for Git handoff. It must say exactly what the host attestation
 * says: harness, adapter, and every delivered host asset with digest, delivery mode and (project-local) path.
 */
import { canonicalJson, parseStrictJson } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { FailureCode, FailureReason } from '../codes.js';
import type { Failure } from '../outcomes.js';
import type { HostAttestation } from './setup-attestation.js';

/** The artifact ID setup-workspace's manifest uses by convention. */
export const WORKSPACE_MANIFEST_ARTIFACT = 'workspace-manifest';

function expectedManifest(attestation: HostAttestation): JsonObject {
  const delivered = attestation.assets
    .filter((a) => a.kind !== 'host-adapter')
    .map((a) => ({
      kind: a.kind,
      id: a.asset_id,
      version: a.version,
      sha256: a.sha256,
      delivery: a.delivery,
      ...(a.path === null ? {} : { path: a.path }),
    }))
    .map((a) => canonicalJson(a))
    .sort();
  return {
    harness: attestation.harness,
    adapter: { id: attestation.adapter.id, version: attestation.adapter.version },
    delivered_assets: delivered,
  };
}

/** Failures when the submitted workspace manifest disagrees with the host attestation (none when it agrees). */
export function checkWorkspaceManifest(content: string, attestation: HostAttestation): Failure[] {
  const mismatch: Failure[] = [
    {
      code: FailureCode.WorkspaceManifestContractMismatch,
      reason: FailureReason.ManifestAttestationMismatch,
      artifact_id: WORKSPACE_MANIFEST_ARTIFACT,
    },
  ];
  const parsed = parseStrictJson(content);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    return mismatch;
  }
  const manifest = parsed.value;
  const assets = manifest['delivered_assets'];
  if (!Array.isArray(assets)) return mismatch;
  const actual = {
    harness: manifest['harness'] ?? null,
    adapter: manifest['adapter'] ?? null,
    delivered_assets: assets.map((a) => canonicalJson(a)).sort(),
  };
  return canonicalJson(actual) === canonicalJson(expectedManifest(attestation)) ? [] : mismatch;
}
