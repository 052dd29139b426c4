/**
 * The project-local host assets setup attested, checked again later: the accepted workspace manifest names each file
 * delivered project-local with its digest, and a file that is gone or holds other bytes was changed after the
 * attestation (by hand, or by a teammate after a Git handoff). The host reads its skill and subagent from these
 * files, so a later prepare refuses to go on with a changed one, and status names it.
 */
import { isJsonObject, parseStrictJsonBytes, sha256Hex } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode, isParticipantError } from './errors.js';
import { str } from './payload.js';
import { artifactPath } from './release.js';
import type { Workspace } from './workspace.js';

/** The artifact id of setup's workspace manifest, which the library writes from the delivery it read back. */
export const WORKSPACE_MANIFEST = 'workspace-manifest';

export interface ChangedAsset {
  readonly kind: string;
  readonly id: string;
  readonly version: string;
  readonly path: string;
  readonly on_disk: boolean;
}

/**
 * Project-local host assets of the accepted workspace manifest that are missing or changed. Nothing when the manifest
 * is not accepted yet, or is itself not on disk as accepted (status names that file instead).
 */
export function changedHostAssets(workspace: Workspace, workflow: JsonObject, receipts: JsonObject): ChangedAsset[] {
  const path = artifactPath(workflow, WORKSPACE_MANIFEST);
  const digest = receipts[WORKSPACE_MANIFEST];
  if (path === undefined || typeof digest !== 'string') return [];
  const bytes = readOrUndefined(workspace, path);
  if (bytes === undefined || sha256Hex(bytes) !== digest) return [];
  const parsed = parseStrictJsonBytes(bytes, { maxBytes: 1024 * 1024 });
  if (!parsed.ok || !isJsonObject(parsed.value)) return [];
  const changed: ChangedAsset[] = [];
  for (const asset of (parsed.value['delivered_assets'] ?? []) as JsonObject[]) {
    if (asset['delivery'] !== 'project-local' || typeof asset['path'] !== 'string') continue;
    const file = readOrUndefined(workspace, asset['path']);
    if (file !== undefined && sha256Hex(file) === asset['sha256']) continue;
    changed.push({
      kind: str(asset['kind']),
      id: str(asset['id']),
      version: str(asset['version']),
      path: asset['path'],
      on_disk: file !== undefined,
    });
  }
  return changed;
}

/** Refuses to go on when a project-local host asset setup attested was changed, naming the file. */
export function requireAttestedAssets(workspace: Workspace, workflow: JsonObject, receipts: JsonObject): void {
  const [first] = changedHostAssets(workspace, workflow, receipts);
  if (first === undefined) return;
  throw new ParticipantError(
    ParticipantErrorCode.AssetDigestMismatch,
    `${first.path} (${first.kind} ${first.id}@${first.version}) ${first.on_disk ? 'changed' : 'is gone'} since setup ` +
      `attested it; restore it from Git (git checkout -- ${first.path}) before going on`,
  );
}

function readOrUndefined(workspace: Workspace, path: string): Buffer | undefined {
  try {
    return workspace.read(path, 16 * 1024 * 1024);
  } catch (error) {
    if (isParticipantError(error)) return undefined;
    throw error;
  }
}
