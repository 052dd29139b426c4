/**
 * Delivering a step's host assets as its adapter contract and the host's capabilities allow: a project-local file
 * (offered in the payload's `project_local` only when the adapter permits it and the host declared
 * `project-local-assets`) is written byte for byte at its path inside the workspace and read back; everything else is
 * dynamic-context text the host loads into its agent's context unchanged. Every asset's content is checked against
 * its served digest first. Given a `getSkill` (the server declared the Skills extension), a skill asset delivered as
 * dynamic context is loaded through skills/get + resources/read instead and verified there (skill-assets.ts), or
 * from the step payload when the server serves no skill at its URI; either way it is attested as dynamic-context with
 * the asset's release digest.
 */
import { sha256Hex } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
import { assetText } from './payload.js';
import type { DeliveryMode, HostAssetPayload, ResourceReader, StepPayload } from './payload.js';
import { loadSkillAsset } from './skill-assets.js';
import type { SkillGetter } from './skill-assets.js';
import type { Workspace } from './workspace.js';

/** How one host asset was delivered (what the setup attestation states for it). */
export interface AssetDelivery {
  readonly kind: string;
  readonly asset_id: string;
  readonly version: string;
  readonly delivery: DeliveryMode;
  /** The digest of what was delivered: the asset content (dynamic) or the file on disk (project-local). */
  readonly sha256: string;
  readonly path: string | null;
}

/** One asset's text for the host to keep in its agent's context. */
export interface DynamicAsset {
  readonly kind: string;
  readonly id: string;
  readonly version: string;
  readonly sha256: string;
  readonly content: string;
  /** The SKILL.md URI the content was loaded from, when it came through the Skills extension. */
  readonly skillUri?: string;
}

export interface DeliveredAssets {
  readonly deliveries: readonly AssetDelivery[];
  /** Assets (and the host adapter) the host must load as dynamic context, exact content. */
  readonly dynamicContext: readonly DynamicAsset[];
  /** Workspace paths written. */
  readonly written: readonly string[];
}

export interface DeliveryOptions {
  /** Use project-local delivery where the payload offers it (default true). */
  readonly projectLocal?: boolean;
  readonly readResource: ResourceReader;
  /** skills/get of a server that declared the Skills extension: skill assets delivered as dynamic context load through it. */
  readonly getSkill?: SkillGetter;
}

/** The label messages use for an asset. */
export function assetLabel(a: { kind: string; id: string; version: string }): string {
  return `${a.kind} ${a.id}@${a.version}`;
}

/** The mode a host uses for `asset`: project-local when offered and wanted, else dynamic-context when allowed. */
export function chooseMode(asset: HostAssetPayload, preferProjectLocal: boolean): DeliveryMode {
  if (preferProjectLocal && asset.project_local !== null && asset.delivery_modes.includes('project-local')) {
    return 'project-local';
  }
  if (asset.delivery_modes.includes('dynamic-context')) return 'dynamic-context';
  throw new ParticipantError(
    ParticipantErrorCode.DeliveryUnavailable,
    `${assetLabel(asset)} allows no delivery this host can make (modes: ${asset.delivery_modes.join(', ') || 'none'})`,
  );
}

function writeProjectLocal(workspace: Workspace, asset: HostAssetPayload): string {
  const local = asset.project_local;
  if (local === null)
    throw new ParticipantError(
      ParticipantErrorCode.DeliveryUnavailable,
      `${assetLabel(asset)} has no project-local file`,
    );
  workspace.checkPath(local.path, `the project-local path of ${assetLabel(asset)}`);
  if (typeof local.content === 'string') {
    if (sha256Hex(local.content) !== local.sha256) {
      throw new ParticipantError(
        ParticipantErrorCode.AssetDigestMismatch,
        `${assetLabel(asset)}: the project-local file content does not have the served digest`,
      );
    }
    workspace.write(local.path, Buffer.from(local.content, 'utf8'));
  }
  const back = workspace.read(local.path, 16 * 1024 * 1024);
  if (back === undefined || sha256Hex(back) !== local.sha256) {
    throw new ParticipantError(
      ParticipantErrorCode.AssetDigestMismatch,
      `${local.path} does not hold the served ${assetLabel(asset)} file (${back === undefined ? 'missing' : 'different bytes'})`,
    );
  }
  return local.path;
}

/**
 * Delivers every host asset of `step` (and returns the host adapter's text as dynamic context): writes the
 * project-local files, reads them back, and says what the host must load into context.
 */
export async function deliverHostAssets(
  workspace: Workspace,
  step: StepPayload,
  opts: DeliveryOptions,
): Promise<DeliveredAssets> {
  const preferLocal = opts.projectLocal ?? true;
  const deliveries: AssetDelivery[] = [];
  const dynamicContext: DynamicAsset[] = [];
  const written: string[] = [];
  for (const asset of step.host_assets) {
    const mode = chooseMode(asset, preferLocal);
    const base = { kind: asset.kind, asset_id: asset.id, version: asset.version };
    if (mode === 'project-local') {
      await assetText(asset, opts.readResource, assetLabel(asset));
      const path = writeProjectLocal(workspace, asset);
      written.push(path);
      deliveries.push({ ...base, delivery: mode, sha256: (asset.project_local as { sha256: string }).sha256, path });
      continue;
    }
    const { kind, id, version, sha256 } = asset;
    deliveries.push({ ...base, delivery: mode, sha256, path: null });
    const loaded =
      kind === 'skill' && opts.getSkill !== undefined
        ? await loadSkillAsset(asset, opts.getSkill, opts.readResource)
        : undefined;
    if (loaded !== undefined) {
      dynamicContext.push({ kind, id, version, sha256, content: loaded.content, skillUri: loaded.uri });
    } else {
      const content = await assetText(asset, opts.readResource, assetLabel(asset));
      dynamicContext.push({ kind, id, version, sha256, content });
    }
  }
  const adapter = step.host_adapter;
  const adapterContent = await assetText(adapter, opts.readResource, `host-adapter ${adapter.id}@${adapter.version}`);
  dynamicContext.push({
    kind: 'host-adapter',
    id: adapter.id,
    version: adapter.version,
    sha256: adapter.sha256,
    content: adapterContent,
  });
  return { deliveries, dynamicContext, written };
}

/** Dynamic-context text as one document a host can load (each asset under a heading naming it and its digest). */
export function dynamicContextText(assets: readonly DynamicAsset[]): string {
  return assets
    .map((a) => `<!-- rimthan ${a.kind} ${a.id}@${a.version} sha256=${a.sha256} -->\n${a.content}`)
    .join('\n\n');
}
