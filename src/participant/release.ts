/**
 * What the participant reads of a release through the server's resources (rimthan://registry/{release}/...): the
 * summary (to find the active release, a workflow by id or alias, and to check a session's release is served), the
 * workflow definition (pinned host adapters, every step's outputs, the confirmed-state schema) and step definitions.
 */
import { str } from './payload.js';
import type { JsonObject } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
import type { GuidedServer } from './connection.js';
import { checkResourceJson } from './served-shapes.js';
import type { ServedResource } from './served-shapes.js';

const SUMMARY = /^rimthan:\/\/registry\/([^/]+)\/summary$/;

/** Reads a JSON resource of `kind`, checked (served-shapes.ts); undefined when the server does not serve it. */
export async function readJson(
  server: GuidedServer,
  uri: string,
  kind: ServedResource,
): Promise<JsonObject | undefined> {
  const text = await server.readResource(uri);
  return text === undefined ? undefined : checkResourceJson(kind, uri, text);
}

/** The release summary the server lists (its active release). */
export async function activeSummary(server: GuidedServer): Promise<JsonObject> {
  const uri = (await server.listResources()).find((u) => SUMMARY.test(u));
  const summary = uri === undefined ? undefined : await readJson(server, uri, 'summary');
  if (summary === undefined) {
    throw new ParticipantError(ParticipantErrorCode.ServerMismatch, 'the server lists no release summary');
  }
  return summary;
}

/** The summary of release `name`; undefined when the server does not serve it. */
export function releaseSummary(server: GuidedServer, name: string): Promise<JsonObject | undefined> {
  return readJson(server, `rimthan://registry/${name}/summary`, 'summary');
}

/** The workflow definition of `workflow` (id or alias; newest version unless given) in a release summary. */
export async function workflowDefinition(
  server: GuidedServer,
  summary: JsonObject,
  workflow: string,
  version?: string,
): Promise<JsonObject> {
  const workflows = (summary['workflows'] ?? []) as JsonObject[];
  const matching = workflows.filter(
    (w) =>
      (w['id'] === workflow || ((w['entry_aliases'] ?? []) as string[]).includes(workflow)) &&
      (version === undefined || w['version'] === version),
  );
  const newest = matching.sort((a, b) => compareVersions(str(b['version']), str(a['version'])))[0];
  const definition =
    newest === undefined ? undefined : await readJson(server, str(newest['definition_uri']), 'definition');
  if (definition === undefined) {
    throw new ParticipantError(
      ParticipantErrorCode.WrongStep,
      `release ${str(summary['release'])} has no workflow ${workflow}${version === undefined ? '' : `@${version}`}`,
    );
  }
  return definition;
}

/** The definition of the workflow a checkpoint is pinned to. */
export async function pinnedWorkflow(server: GuidedServer, checkpoint: JsonObject): Promise<JsonObject> {
  const release = str(checkpoint['registry_release']);
  const wf = checkpoint['workflow'] as JsonObject;
  const definition = await readJson(
    server,
    `rimthan://registry/${release}/workflows/${str(wf['id'])}/${str(wf['version'])}/definition`,
    'definition',
  );
  if (definition === undefined) {
    throw new ParticipantError(
      ParticipantErrorCode.ServerMismatch,
      `the server does not serve workflow ${str(wf['id'])}@${str(wf['version'])} of release ${release}`,
    );
  }
  return definition;
}

/** A step definition of a workflow definition. */
export function stepDefinition(workflow: JsonObject, stepId: string): JsonObject | undefined {
  return ((workflow['steps'] ?? []) as JsonObject[]).find((s) => s['id'] === stepId);
}

/** The workspace path of an artifact any step of the workflow declares. */
export function artifactPath(workflow: JsonObject, artifactId: string): string | undefined {
  for (const step of (workflow['steps'] ?? []) as JsonObject[]) {
    const out = ((step['outputs'] ?? []) as JsonObject[]).find((o) => o['artifact_id'] === artifactId);
    if (out !== undefined) return str(out['path']);
  }
  return undefined;
}

/** The confirmed-state schema of a workflow (from its release). */
export async function confirmedStateSchema(
  server: GuidedServer,
  release: string,
  workflow: JsonObject,
): Promise<JsonObject | undefined> {
  const ref = workflow['confirmed_state_schema'] as JsonObject | undefined;
  if (ref === undefined) return undefined;
  return readJson(server, `rimthan://registry/${release}/schemas/${str(ref['id'])}/${str(ref['version'])}`, 'schema');
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** True for a step that never advances by continue alone: setup, outputs or validators. */
export function isGatedStep(workflow: JsonObject, step: JsonObject): boolean {
  return (
    step['id'] === workflow['start_step'] ||
    ((step['outputs'] ?? []) as unknown[]).length > 0 ||
    ((step['validators'] ?? []) as unknown[]).length > 0
  );
}
