/**
 * The host assets a release's workflows deliver to one harness, as the files the server offers for project-local
 * delivery: for each workflow (newest version of each id) that pins an adapter for the harness, every host asset its
 * steps name that the adapter's contract lets a host write as a file, rendered through the same delivery code the
 * `setup-workspace` step payload uses (same bytes, same digest, same project path). A packaging tool (`rimthan rollout`)
 * ships these files with a host plugin, so a plugin never carries a second rendering of an asset. Pure and
 * deterministic.
 */
import type { AssetEntry, Harness, HostAssetKind, Release } from '../../registry/model/index.js';
import type { HostBinding } from '../checkpoint/state.js';
import { createReleaseScope } from '../scope.js';
import { hostAssetDelivery } from './delivery.js';
import type { ProjectLocalFile } from './delivery.js';

/** One host asset with the file project-local delivery writes for it. */
export interface PinnedHostAsset {
  readonly kind: HostAssetKind;
  readonly asset: AssetEntry;
  /** The file as the step payload's `project_local` offers it: project path, content, SHA-256 of the content. */
  readonly file: ProjectLocalFile;
}

/** The pinned adapter of one workflow for the harness, and the assets it delivers as files. */
export interface PinnedAdapterAssets {
  readonly workflow: { readonly id: string; readonly version: string };
  readonly adapter: { readonly id: string; readonly version: string };
  readonly assets: readonly PinnedHostAsset[];
}

/**
 * For every workflow of `release` (its newest version per id) that pins an adapter for `harness`, the host assets
 * that adapter delivers as project-local files. A workflow whose pinned adapter is missing or has no typed contract
 * (a verified release has neither) contributes nothing.
 */
export function pinnedHostAssetFiles(release: Release, harness: Harness): PinnedAdapterAssets[] {
  const scope = createReleaseScope(release);
  const ids = [...new Set(release.workflows.map((w) => w.id))].sort();
  const result: PinnedAdapterAssets[] = [];
  for (const id of ids) {
    const index = scope.workflowVersions(id)[0];
    const pinned = index?.workflow.host_adapters[harness];
    if (index === undefined || pinned === undefined) continue;
    const contract = scope.asset('host-adapter', pinned.id, pinned.version)?.adapter?.adapter_contract;
    if (contract === undefined) continue;
    // A host that may write files: the one capability project-local delivery depends on.
    const binding: HostBinding = {
      harness,
      adapter_id: pinned.id,
      adapter_version: pinned.version,
      host_capabilities: ['project-local-assets'],
      validator_capabilities: [],
    };
    const assets: PinnedHostAsset[] = [];
    for (const ref of index.hostAssets) {
      const delivery = hostAssetDelivery(scope, binding, contract, ref);
      if (delivery.projectLocal !== undefined) {
        assets.push({ kind: ref.kind, asset: delivery.asset, file: delivery.projectLocal });
      }
    }
    result.push({
      workflow: { id: index.workflow.id, version: index.workflow.version },
      adapter: { id: pinned.id, version: pinned.version },
      assets,
    });
  }
  return result;
}
