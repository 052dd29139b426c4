/**
 * Per-asset delivery contracts. Dynamic-context delivery is allowed when the adapter contract lists it for the kind;
 * project-local delivery only when the contract lists it, gives a path template for the kind, the host declared
 * `project-local-assets`, and the harness has a file format for the kind. The attested digest is the digest of what
 * is delivered: the asset content (dynamic) or the rendered host-format file (project-local).
 */
import { RimthanError, sha256Hex } from '../../core/index.js';
import type { AdapterContract, AssetEntry, DeliveryMode, Harness, HostAssetKind } from '../../registry/model/index.js';
import type { HostBinding } from '../checkpoint/state.js';
import type { ReleaseScope } from '../scope.js';
import { renderHostAsset } from './render.js';

export interface ProjectLocalFile {
  readonly path: string;
  readonly content: string;
  readonly sha256: string;
}

export interface HostAssetDelivery {
  readonly kind: HostAssetKind;
  readonly asset: AssetEntry;
  readonly modes: readonly DeliveryMode[];
  readonly projectLocal: ProjectLocalFile | undefined;
}

interface RenderedFile {
  readonly content: string;
  readonly sha256: string;
}

/** Rendered host-format files per release scope, keyed by harness, kind and asset: built once, dropped with the scope. */
const rendered = new WeakMap<ReleaseScope, Map<string, RenderedFile | null>>();

/** The asset in the harness's project-local file format and its digest (undefined: the harness has no such format). */
function renderedFile(
  scope: ReleaseScope,
  harness: Harness,
  kind: HostAssetKind,
  asset: AssetEntry,
): RenderedFile | undefined {
  let files = rendered.get(scope);
  if (files === undefined) {
    files = new Map();
    rendered.set(scope, files);
  }
  const key = `${harness}|${kind}|${asset.id}|${asset.version}`;
  let file = files.get(key);
  if (file === undefined) {
    const content = renderHostAsset(harness, kind, asset);
    file = content === undefined ? null : Object.freeze({ content, sha256: sha256Hex(content) });
    files.set(key, file);
  }
  return file ?? undefined;
}

/** Delivery contract for one host asset (a release lacking a referenced asset is a fault: verified releases never do). */
export function hostAssetDelivery(
  scope: ReleaseScope,
  binding: HostBinding,
  contract: AdapterContract,
  ref: { kind: HostAssetKind; id: string; version: string },
): HostAssetDelivery {
  const asset = scope.asset(ref.kind, ref.id, ref.version);
  if (asset === undefined) throw new RimthanError('invalid_release', 'a step names a host asset the release lacks');
  const listed = contract.delivery[ref.kind] ?? [];
  const template = contract.project_local_paths[ref.kind];
  let projectLocal: ProjectLocalFile | undefined;
  if (
    listed.includes('project-local') &&
    template !== undefined &&
    binding.host_capabilities.includes('project-local-assets')
  ) {
    const file = renderedFile(scope, binding.harness, ref.kind, asset);
    if (file !== undefined) projectLocal = { path: template.replace('{asset_id}', asset.id), ...file };
  }
  const modes: DeliveryMode[] = [];
  if (listed.includes('dynamic-context')) modes.push('dynamic-context');
  if (projectLocal !== undefined) modes.push('project-local');
  return { kind: ref.kind, asset, modes, projectLocal };
}

/** The digest the host must attest for `mode`, or undefined when the mode is not allowed for the asset. */
export function deliveredSha256(
  delivery: Pick<HostAssetDelivery, 'asset' | 'modes' | 'projectLocal'>,
  mode: DeliveryMode,
): string | undefined {
  if (!delivery.modes.includes(mode)) return undefined;
  return mode === 'project-local' ? delivery.projectLocal?.sha256 : delivery.asset.sha256;
}
