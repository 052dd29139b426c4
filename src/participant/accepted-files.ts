/**
 * What the checkpoint accepted, checked again against the disk: every accepted artifact (its receipt is the SHA-256 of
 * its bytes) and the project-local host assets setup attested (the accepted workspace manifest names each with its
 * digest). A file that is gone or holds other bytes was changed after acceptance (by hand, or by a teammate after a
 * Git handoff), or the session file belongs to another repository. Later steps and validators are bound to these
 * digests and the host reads its skill and subagent from the asset files, so prepare refuses to go on with a changed
 * one, and status names it.
 */
import { isJsonObject, parseStrictJsonBytes, sha256Hex } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode, isParticipantError } from './errors.js';
import { str } from './payload.js';
import { artifactPath } from './release.js';
import type { Workspace } from './workspace.js';

/** The artifact id of setup's workspace manifest, which the library writes from the delivery it read back. */
export const WORKSPACE_MANIFEST = 'workspace-manifest';

export interface ChangedArtifact {
  readonly artifact_id: string;
  readonly path: string;
  readonly on_disk: boolean;
}

/** Accepted artifacts whose file is missing or holds other bytes than the receipt's digest. */
export function changedArtifacts(workspace: Workspace, workflow: JsonObject, receipts: JsonObject): ChangedArtifact[] {
  const changed: ChangedArtifact[] = [];
  for (const [artifactId, digest] of Object.entries(receipts)) {
    const path = artifactPath(workflow, artifactId);
    if (path === undefined) continue;
    const bytes = readOrUndefined(workspace, path);
    if (bytes === undefined) changed.push({ artifact_id: artifactId, path, on_disk: !isMissing(workspace, path) });
    else if (sha256Hex(bytes) !== digest) changed.push({ artifact_id: artifactId, path, on_disk: true });
  }
  return changed;
}

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

/** Refuses to go on when an accepted file or a project-local host asset setup attested was changed, naming it. */
export function requireAcceptedFiles(workspace: Workspace, workflow: JsonObject, receipts: JsonObject): void {
  const [artifact] = changedArtifacts(workspace, workflow, receipts);
  if (artifact !== undefined) {
    throw new ParticipantError(
      ParticipantErrorCode.WritePolicyViolation,
      `${artifact.path} (${artifact.artifact_id}) ${artifact.on_disk ? 'changed' : 'is gone'} since the workflow ` +
        `accepted it; restore it from Git (git checkout -- ${artifact.path}) before going on`,
    );
  }
  const [asset] = changedHostAssets(workspace, workflow, receipts);
  if (asset === undefined) return;
  throw new ParticipantError(
    ParticipantErrorCode.AssetDigestMismatch,
    `${asset.path} (${asset.kind} ${asset.id}@${asset.version}) ${asset.on_disk ? 'changed' : 'is gone'} since setup ` +
      `attested it; restore it from Git (git checkout -- ${asset.path}) before going on`,
  );
}

/** True when nothing is at `path` (a link or a folder there is something). */
function isMissing(workspace: Workspace, path: string): boolean {
  try {
    return workspace.state(path).kind === 'missing';
  } catch (error) {
    if (isParticipantError(error)) return false;
    throw error;
  }
}

function readOrUndefined(workspace: Workspace, path: string): Buffer | undefined {
  try {
    return workspace.read(path, 16 * 1024 * 1024);
  } catch (error) {
    if (isParticipantError(error)) return undefined;
    throw error;
  }
}
