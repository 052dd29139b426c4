/**
 * Explicit upgrade of an interrupted run to a newer version of its flow. The newer version must declare that it takes
 * over runs of the run's version (FlowSpec.upgrades) at the vertex the run is paused at; the carried-over state is
 * checked against its stateSchema. One commit re-pins the run, appends the upgraded checkpoint and records the
 * upgrade in history (a `run_interrupted` entry when the run keeps waiting, `run_resumed` when it continues).
 */
import { RimthanError } from '../../core/errors.js';
import type { Clock } from '../../core/clock.js';
import { withStatus } from '../executor/checkpoint-state.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { freezeState } from '../executor/state-update.js';
import type { FlowCatalog } from '../flow/catalog.js';
import {
  ActivityKind,
  RunStatus,
  StoreConflictError,
  type RunLedger,
  type RunQueue,
  type RunRecord,
} from '../store/types.js';
import { runConflict } from '../supervisor/errors.js';
import { operatorView } from './run-view.js';

export interface UpgradeRequest {
  readonly runId: string;
  /** When set, the run must belong to this session (operator commands are session-scoped like the tools). */
  readonly sessionId?: string;
  /** The version to re-pin the run to (same flow name). */
  readonly toVersion: string;
  /** true: continue at once (status running, picked up by a worker); default false: keep waiting for resume. */
  readonly continue?: boolean;
}

/** Upgrades an interrupted run; returns the record after the commit. Errors name their cause (codes below). */
export async function upgradeRun(
  store: RunLedger & RunQueue,
  catalog: FlowCatalog,
  clock: Clock,
  request: UpgradeRequest,
): Promise<RunRecord> {
  for (let i = 0; i < 4; i++) {
    const { record, checkpoint } = await operatorView(store, request.runId, request.sessionId);
    const from = `${record.definition_name}@${record.definition_version}`;
    const target = catalog.resolve(record.definition_name, request.toVersion);
    if (target === undefined) {
      throw new RimthanError(
        'unknown_definition',
        `flow ${record.definition_name}@${request.toVersion} is not registered`,
      );
    }
    if (record.definition_version === request.toVersion) throw runConflict(`run is already on ${from}`);
    if (record.status !== RunStatus.Interrupted) {
      throw runConflict(`run is ${record.status}; only an interrupted run can be upgraded`);
    }
    if (record.cancel_requested) throw runConflict('run is being cancelled');
    const spec = target.upgrades.get(record.definition_version);
    if (spec === undefined) {
      throw runConflict(`flow ${target.name}@${target.version} declares no upgrade from ${record.definition_version}`);
    }
    if (checkpoint === undefined || checkpoint.next_vertex === null)
      throw runConflict('run has no readable paused position');
    const to = spec.vertices.get(checkpoint.next_vertex);
    const vertex = to === undefined ? undefined : target.graph.vertices.get(to);
    if (vertex === undefined) {
      throw runConflict(
        `flow ${target.name}@${target.version} cannot take over at vertex ${checkpoint.next_vertex} ` +
          `(it declares: ${[...spec.vertices.keys()].join(', ')})`,
      );
    }
    let carried: unknown;
    try {
      carried = spec.state === undefined ? checkpoint.flow_state : spec.state(structuredClone(checkpoint.flow_state));
    } catch {
      throw new RimthanError(
        'invalid_input',
        `the upgrade's state function of ${target.name}@${target.version} failed`,
      );
    }
    const frozen = freezeState(carried);
    const check = frozen.ok ? target.validateState(frozen.state) : undefined;
    if (!frozen.ok || check === undefined || !check.ok) {
      const first = check !== undefined && !check.ok ? check.issues[0] : undefined;
      const where = first === undefined ? '' : ` (${first.keyword} at ${first.schemaPath})`;
      throw new RimthanError(
        'invalid_input',
        `the run state does not match the state schema of ${target.version}${where}`,
      );
    }
    const going = request.continue === true;
    const status = going ? RunStatus.Running : RunStatus.Interrupted;
    const message = `upgraded from ${from} to version ${target.version} (vertex ${checkpoint.next_vertex} → ${vertex.id})`;
    const interrupt = going || record.interrupt === null ? null : { ...record.interrupt, vertex: vertex.id, message };
    const step = {
      record,
      now: clock.now().toISOString(),
      totalVertices: target.graph.size,
      patch: {
        definition_version: target.version,
        status,
        status_summary: going ? `${message}; continuing` : `${message}; waiting at ${vertex.label}`,
        interrupt,
      },
      checkpoint: {
        ...withStatus(checkpoint, status, { next_vertex: vertex.id, resume: null }),
        flow_state: frozen.state,
      },
      activities: [
        {
          kind: going ? ActivityKind.RunResumed : ActivityKind.RunInterrupted,
          run_status: status,
          vertex: { id: vertex.id, label: vertex.label },
          message,
        },
      ],
    };
    try {
      const upgraded = await store.commit(buildStepCommit(step));
      if (going) await store.notify(record.run_id).catch(() => undefined);
      return upgraded;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  throw runConflict('run changed while it was being upgraded');
}
