/**
 * The one owner of starting a new run: resolve the exact definition → canonicalise the input → validate it (once) →
 * parent check → idempotency replay → mint the record and apply PrepareRun → store the input by digest → write the
 * record and its seed in one durable write. Any refusal or failure ends it there; nothing after it runs, and a run
 * that did not start is never reported as started. The run tools only decode arguments and map the outcome.
 */
import { canonicalObject, firstIssue } from '../../core/canonical-object.js';
import { RunStatus, StoreConflictError, type RunRecord } from '../store/types.js';
import { applyPrepareRun, buildNewRun } from './new-run.js';
import { createSeededRun, failUnseeded, initialStateOf, startRun } from './start-command.js';
import { slotOf } from './concurrency.js';
import { StartRefusal, type EngineHandle, type StartOutcome, type StartRequest } from './types.js';

/** The request a stored run must match for an idempotency key to replay it. */
interface ReplayKey {
  readonly name: string;
  readonly version: string;
  readonly sha256: string;
  readonly parentRunId: string | null;
  readonly idempotencyKey: string;
}

const NO_INITIAL_STATE = 'the initial state could not be built from the input';

function refused(code: StartRefusal, message?: string): StartOutcome {
  return message === undefined ? { kind: 'refused', code } : { kind: 'refused', code, message };
}

/** A replay matches when definition, canonical input and parent are the same; then it is the same run. */
function sameRequest(run: RunRecord, key: ReplayKey): boolean {
  return (
    run.definition_name === key.name &&
    run.definition_version === key.version &&
    run.input_sha256 === key.sha256 &&
    run.parent_run_id === key.parentRunId
  );
}

/** The run an idempotency key already names (seeded now if its first start stopped short), or undefined. */
async function replay(engine: EngineHandle, sessionId: string, key: ReplayKey): Promise<StartOutcome | undefined> {
  const existing = await engine.store.findByIdempotencyKey(sessionId, key.idempotencyKey);
  if (existing === undefined) return undefined;
  if (!sameRequest(existing, key)) return refused(StartRefusal.IdempotencyConflict);
  // The first call may have failed before its seed: starting again seeds it (an already seeded run is returned as is).
  const run = existing.status === RunStatus.Pending ? await startRun(engine, sessionId, existing.run_id) : existing;
  return { kind: 'replayed', run };
}

/** Starts a new run of the session; see the module comment and SessionController.startNew. */
export async function startRequested(
  engine: EngineHandle,
  sessionId: string,
  request: StartRequest,
): Promise<StartOutcome> {
  const def = engine.catalog.resolve(request.definitionName, request.definitionVersion);
  if (def === undefined) return refused(StartRefusal.UnknownDefinition);
  const input = canonicalObject(request.input);
  if (!input.ok) return refused(StartRefusal.InvalidInput, `input ${input.message}`);
  let check: ReturnType<typeof def.validateInput>;
  try {
    check = def.validateInput(input.value);
  } catch (error) {
    return { kind: 'failed', stage: 'definition', runId: '', error };
  }
  if (!check.ok) {
    const issue = firstIssue(check.issues);
    return refused(StartRefusal.InvalidInput, `input does not match the definition input schema (${issue})`);
  }
  // A limited flow's key is computed once, before anything is written: a key function that fails refuses the start.
  const limited = slotOf(def, input.value);
  if (!limited.ok) return refused(StartRefusal.InvalidInput, limited.message);
  const { parentRunId, idempotencyKey } = request;
  let runId = '';
  try {
    if (parentRunId !== null && (await engine.store.getRun(sessionId, parentRunId)) === undefined) {
      return refused(StartRefusal.ParentNotFound);
    }
    const key: ReplayKey = {
      name: request.definitionName,
      version: request.definitionVersion,
      sha256: input.sha256,
      parentRunId,
      idempotencyKey: idempotencyKey ?? '',
    };
    if (idempotencyKey !== null) {
      const replayed = await replay(engine, sessionId, key);
      if (replayed !== undefined) return replayed;
    }
    const minted = request.mintRunId();
    if (minted === undefined) return refused(StartRefusal.InvalidRunId);
    runId = minted;
    const fresh = buildNewRun({
      sessionId,
      runId,
      definitionName: request.definitionName,
      definitionVersion: request.definitionVersion,
      parentRunId,
      inputSha256: input.sha256,
      idempotencyKey,
      now: request.now(),
    });
    const prepared = await applyPrepareRun(request.prepareRun, fresh).catch(() => undefined);
    if (prepared === undefined) return refused(StartRefusal.PrepareFailed);
    if (!prepared.ok) return refused(StartRefusal.PrepareRefused, prepared.message);
    await engine.store.putInput(input.sha256, input.text);
    const record = prepared.record;
    try {
      engine.assertAccepting();
      const state = initialStateOf(def, input.value);
      if (state !== undefined) {
        return { kind: 'started', run: await createSeededRun(engine, record, def, input.value, state, limited.slot) };
      }
      // No initial state: the run is created and failed durably (revision 0, run_failed), so the refusal is recorded.
      const created = await engine.store.createRun(record);
      await failUnseeded(engine, created, NO_INITIAL_STATE);
      return refused(StartRefusal.InvalidInput, NO_INITIAL_STATE);
    } catch (error) {
      if (!(error instanceof StoreConflictError)) return { kind: 'failed', stage: 'seed', runId, error };
      // A concurrent start with the same key won the race: answer as its replay.
      const replayed = idempotencyKey !== null ? await replay(engine, sessionId, key) : undefined;
      return replayed ?? { kind: 'failed', stage: 'create', runId, error };
    }
  } catch (error) {
    return { kind: 'failed', stage: 'other', runId, error };
  }
}
