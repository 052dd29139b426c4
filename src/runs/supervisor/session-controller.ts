/** The session-bound controller handed to the run tools: every lookup is scoped to its session id. */
import { RimthanError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import type { ActivityEntry, HistoryQuery, RunRecord } from '../store/types.js';
import { cancelRun } from './cancel-command.js';
import { resumeRun } from './resume-command.js';
import { startRun } from './start-command.js';
import { startRequested } from './start-request.js';
import type { EngineHandle, SessionController, StartOutcome, StartRequest } from './types.js';

const MAX_SESSION_ID_BYTES = 256;

/** Refuses an empty or oversized session id (fail closed: no unscoped controller exists). */
export function checkSessionId(sessionId: string): void {
  if (typeof sessionId !== 'string' || sessionId.length === 0 || Buffer.byteLength(sessionId) > MAX_SESSION_ID_BYTES) {
    throw new RimthanError('invalid_arguments', `session id must be 1..${MAX_SESSION_ID_BYTES} bytes`);
  }
}

/** The SessionController of one session, backed by a supervisor's engine handle. */
export class SupervisorSessionController implements SessionController {
  readonly sessionId: string;
  readonly #engine: EngineHandle;

  constructor(engine: EngineHandle, sessionId: string) {
    checkSessionId(sessionId);
    this.sessionId = sessionId;
    this.#engine = engine;
  }

  start(runId: string): Promise<RunRecord> {
    return startRun(this.#engine, this.sessionId, runId);
  }

  startNew(request: StartRequest): Promise<StartOutcome> {
    return startRequested(this.#engine, this.sessionId, request);
  }

  resume(runId: string, resume: JsonObject): Promise<RunRecord> {
    return resumeRun(this.#engine, this.sessionId, runId, resume);
  }

  cancel(runId: string, reason: string): Promise<{ record: RunRecord; idempotent: boolean }> {
    return cancelRun(this.#engine, this.sessionId, runId, reason);
  }

  async history(runId: string, query: HistoryQuery): Promise<ActivityEntry[] | undefined> {
    const record = await this.#engine.store.getRun(this.sessionId, runId);
    if (record === undefined) return undefined;
    return this.#engine.store.history(runId, query);
  }
}
