/**
 * Setup-workspace host attestation (the workspace manifest the harness reports): it must name the checkpoint's
 * harness, adapter and capability sets, and list exactly the required host assets plus the selected adapter, each
 * with an allowed delivery mode, the contract's project-local path (or none for dynamic context), the digest of
 * what was delivered, and no two deliveries (or a delivery and a declared artifact) sharing a path.
 */
import type { AssetKind, DeliveryMode } from '../../registry/model/index.js';
import type { HostBinding } from '../checkpoint/state.js';
import { FailureCode, FailureReason } from '../codes.js';
import type { Failure } from '../outcomes.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';
import type { SelectedAdapter } from './adapter.js';
import { sameSet } from './declaration.js';
import { deliveredSha256, hostAssetDelivery } from './delivery.js';
import type { HostAssetDelivery } from './delivery.js';
import { isWithin } from './repository-policy.js';

export interface HostAttestation {
  readonly harness: string;
  readonly adapter: { readonly id: string; readonly version: string };
  readonly host_capabilities: readonly string[];
  readonly validator_capabilities: readonly string[];
  readonly assets: readonly {
    readonly kind: AssetKind;
    readonly asset_id: string;
    readonly version: string;
    readonly sha256: string;
    readonly delivery: DeliveryMode;
    readonly path: string | null;
  }[];
}

function bindingFailures(binding: HostBinding, attestation: HostAttestation): Failure[] {
  const reasons: FailureReason[] = [];
  if (attestation.harness !== binding.harness) reasons.push(FailureReason.Harness);
  if (attestation.adapter.id !== binding.adapter_id) reasons.push(FailureReason.AdapterId);
  if (attestation.adapter.version !== binding.adapter_version) reasons.push(FailureReason.AdapterVersion);
  if (!sameSet(attestation.host_capabilities, binding.host_capabilities)) reasons.push(FailureReason.HostCapabilities);
  if (!sameSet(attestation.validator_capabilities, binding.validator_capabilities)) {
    reasons.push(FailureReason.ValidatorCapabilities);
  }
  return reasons.map((reason) => ({ code: FailureCode.HostBindingMismatch, reason }));
}

/** Every project-local path the attestation claims to have written (for repository-policy checks). */
export function attestedPaths(attestation: HostAttestation): string[] {
  return attestation.assets.flatMap((a) => (a.path === null ? [] : [a.path]));
}

/** All deterministic failures of a setup host attestation. */
export function checkHostAttestation(
  scope: ReleaseScope,
  index: WorkflowIndex,
  binding: HostBinding,
  adapter: SelectedAdapter,
  attestation: HostAttestation,
): Failure[] {
  const failures = bindingFailures(binding, attestation);
  const mismatch = (
    reason: FailureReason,
    asset: { kind: string; id: string; version: string },
    path?: string,
  ): void => {
    failures.push({
      code: FailureCode.WorkspaceManifestContractMismatch,
      reason,
      asset,
      ...(path === undefined ? {} : { path }),
    });
  };
  // Expected deliveries: every host asset of the workflow, plus the adapter itself (dynamic context only).
  const expected = new Map<
    string,
    { kind: AssetKind; delivery: Pick<HostAssetDelivery, 'asset' | 'modes' | 'projectLocal'> }
  >();
  for (const ref of index.hostAssets) {
    const delivery = hostAssetDelivery(scope, binding, adapter.contract, ref);
    expected.set(`${ref.kind}/${ref.id}@${ref.version}`, { kind: ref.kind, delivery });
  }
  const a = adapter.asset;
  expected.set(`host-adapter/${a.id}@${a.version}`, {
    kind: 'host-adapter',
    delivery: { asset: a, modes: ['dynamic-context'], projectLocal: undefined },
  });

  const seen = new Set<string>();
  for (const entry of attestation.assets) {
    const key = `${entry.kind}/${entry.asset_id}@${entry.version}`;
    const ref = { kind: entry.kind, id: entry.asset_id, version: entry.version };
    if (seen.has(key)) {
      mismatch(FailureReason.AssetDuplicate, ref);
      continue;
    }
    seen.add(key);
    const delivery = expected.get(key)?.delivery;
    if (delivery === undefined) {
      mismatch(FailureReason.AssetUnexpected, ref);
      continue;
    }
    const digest = deliveredSha256(delivery, entry.delivery);
    if (digest === undefined) {
      mismatch(FailureReason.DeliveryModeNotAllowed, ref);
      continue;
    }
    const expectedPath = entry.delivery === 'project-local' ? (delivery.projectLocal?.path ?? null) : null;
    if (entry.path !== expectedPath) mismatch(FailureReason.ProjectLocalPathMismatch, ref);
    if (entry.sha256 !== digest) mismatch(FailureReason.AssetDigestMismatch, ref);
  }
  for (const [key, { kind, delivery }] of expected) {
    if (!seen.has(key))
      mismatch(FailureReason.AssetMissing, { kind, id: delivery.asset.id, version: delivery.asset.version });
  }
  // No two deliveries, nor a delivery and a declared artifact, may share (or nest inside) one path.
  const artifactPaths = [...index.artifacts.values()].map((x) => x.declaration.path);
  const taken: string[] = [];
  for (const entry of attestation.assets) {
    if (entry.path === null) continue;
    const path = entry.path;
    const collides = [...taken, ...artifactPaths].some((p) => isWithin(path, p) || isWithin(p, path));
    if (collides)
      mismatch(FailureReason.PathCollision, { kind: entry.kind, id: entry.asset_id, version: entry.version }, path);
    taken.push(path);
  }
  return failures;
}
