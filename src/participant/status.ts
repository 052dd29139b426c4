/**
 * Where a session stands, without moving it: the pinned workflow and release, the current step (from its served
 * definition), which declared outputs are on disk, what the pending validation still needs, the question a branch
 * asks, which files accepted earlier are no longer on disk as accepted, and the one thing to do next. Read from the
 * session file, the release resources and the workspace only; no tool is called, so nothing advances.
 */
import { str } from './payload.js';
import type { JsonObject } from '../core/index.js';
import { changedArtifacts, changedHostAssets } from './accepted-files.js';
import type { ChangedArtifact, ChangedAsset } from './accepted-files.js';
import { isParticipantError } from './errors.js';
import { readPending } from './pending.js';
import { isGatedStep, stepDefinition } from './release.js';
import type { ParticipantSession } from './session.js';

export interface SessionStatus {
  readonly workflow: { readonly id: string; readonly version: string };
  readonly release: string;
  readonly sequence: number;
  /**
   * `gated`: the step has files or validators (setup included); `satisfied`: every output and validator of a gated
   * step has its receipt (it is left by continue, or by answering its branch question); `terminal`: no transition.
   */
  readonly step: {
    readonly id: string;
    readonly title: string;
    readonly gated: boolean;
    readonly satisfied: boolean;
    readonly terminal: boolean;
  };
  readonly confirmed_fields: readonly string[];
  readonly outputs: readonly {
    readonly artifact_id: string;
    readonly path: string;
    readonly on_disk: boolean;
    readonly accepted: boolean;
  }[];
  /**
   * Artifacts the checkpoint accepted (at any step) whose file is not on disk with the accepted bytes: edited after
   * acceptance (`on_disk`), or missing, as when the session file was copied into another repository.
   */
  readonly changed: readonly ChangedArtifact[];
  /** Project-local host assets setup attested that are missing or changed on disk. */
  readonly changed_assets: readonly ChangedAsset[];
  /** The validation prepared for this checkpoint: validators due and which have a report file registered. */
  readonly pending: { readonly validators: readonly string[]; readonly reports: readonly string[] } | null;
  /** A branch question that must be answered before the step can be left. */
  readonly question: { readonly field: string; readonly prompt: string; readonly options: readonly string[] } | null;
  /** The step is terminal and every output and validator has its receipt: the workflow is complete. */
  readonly completed: boolean;
  /** What to do next, as `rimthan participant` words. */
  readonly next: string;
}

function onDisk(session: ParticipantSession, path: string): boolean {
  try {
    return session.workspace.state(path).kind === 'file';
  } catch (error) {
    if (isParticipantError(error)) return false;
    throw error;
  }
}

function questionOf(step: JsonObject, state: JsonObject): SessionStatus['question'] {
  const branches = (step['branches'] ?? []) as JsonObject[];
  const missing = branches.map((b) => str((b['when'] as JsonObject)['field'])).find((f) => !(f in state));
  if (missing === undefined) return null;
  const own = step['question'] as JsonObject | undefined;
  const values = branches.flatMap((b) => {
    const when = b['when'] as JsonObject;
    return when['field'] !== missing
      ? []
      : 'equals' in when
        ? [str(when['equals'])]
        : ((when['in'] ?? []) as unknown[]).map(String);
  });
  return {
    field: missing,
    prompt: own !== undefined && own['field'] === missing ? str(own['prompt']) : `Confirm a value for ${missing}.`,
    options: [...new Set(values)],
  };
}

/** The session's status (see SessionStatus). */
export async function sessionStatus(session: ParticipantSession): Promise<SessionStatus> {
  const state = await session.load();
  const checkpoint = state.checkpoint;
  const workflow = await session.workflow();
  const stepId = str(checkpoint['current_step']);
  const step = stepDefinition(workflow, stepId) ?? { id: stepId };
  const gated = isGatedStep(workflow, step);
  const terminal = step['next'] === undefined && ((step['branches'] ?? []) as unknown[]).length === 0;
  const receipts = (checkpoint['artifacts'] ?? {}) as JsonObject;
  const passes = (checkpoint['validators'] ?? {}) as JsonObject;
  const outputs = ((step['outputs'] ?? []) as JsonObject[]).map((o) => ({
    artifact_id: str(o['artifact_id']),
    path: str(o['path']),
    on_disk: onDisk(session, str(o['path'])),
    accepted: str(o['artifact_id']) in receipts,
  }));
  const validatorsPassed = ((step['validators'] ?? []) as JsonObject[]).every(
    (v) => `${str(v['id'])}@${str(v['version'])}` in passes,
  );
  const satisfied = outputs.every((o) => o.accepted) && validatorsPassed;
  const pendingFile = readPending(session.workspace, checkpoint);
  const pending =
    pendingFile === undefined
      ? null
      : {
          validators: pendingFile.validators.map((v) => str(v['validator_id'])),
          reports: Object.keys(pendingFile.reports),
        };
  const fields = (state.confirmed_state['state'] ?? {}) as JsonObject;
  const question = gated && !satisfied ? null : questionOf(step, fields);
  const completed = terminal && gated && satisfied;
  const changed = changedArtifacts(session.workspace, workflow, receipts);
  const changedAssets = changedHostAssets(session.workspace, workflow, receipts);
  let next: string;
  if (changed.length === 0 && changedAssets.length > 0) {
    next = `restore ${changedAssets.map((a) => a.path).join(', ')} as setup attested it (git checkout -- PATH)`;
  } else if (changed.length > 0 && changed.every((c) => !c.on_disk)) {
    next =
      `restore ${changed.map((c) => c.path).join(', ')} (accepted, but not in this workspace): from Git, ` +
      `or this session file belongs to another repository`;
  } else if (changed.length > 0) {
    next =
      `restore ${changed.map((c) => c.path).join(', ')} as accepted (git checkout -- PATH): ` +
      'a later prepare refuses files changed after they were accepted';
  } else if (completed) next = 'nothing: the workflow is complete';
  else if (question !== null) next = `answer ${question.field} (rimthan participant answer ${question.field} VALUE)`;
  else if (!gated || satisfied) next = 'rimthan participant continue';
  else if (pending !== null) {
    const due = pending.validators.filter((v) => !pending.reports.includes(v));
    next =
      due.length > 0
        ? `a report from each of ${due.join(', ')} (rimthan participant report VALIDATOR FILE), then submit`
        : 'rimthan participant submit';
  } else if (stepId === workflow['start_step']) next = 'rimthan participant write-assets, then prepare';
  else {
    const missing = outputs.filter((o) => !o.on_disk).map((o) => o.path);
    next =
      missing.length > 0
        ? `write ${missing.join(', ')}, then rimthan participant prepare`
        : 'rimthan participant prepare';
  }
  const wf = checkpoint['workflow'] as JsonObject;
  return {
    workflow: { id: str(wf['id']), version: str(wf['version']) },
    release: str(checkpoint['registry_release']),
    sequence: Number(checkpoint['sequence']),
    step: { id: stepId, title: str(step['title'] ?? stepId), gated, satisfied: gated && satisfied, terminal },
    confirmed_fields: Object.keys(fields),
    outputs,
    changed,
    changed_assets: changedAssets,
    pending,
    question,
    completed,
    next,
  };
}
