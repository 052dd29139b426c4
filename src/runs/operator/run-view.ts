/** The run an operator action works on: record and latest checkpoint, scoped to a session when one is given. */
import { loadRunView, type RunView } from '../executor/run-loader.js';
import type { RunLedger } from '../store/types.js';
import { runNotFound } from '../supervisor/errors.js';

/** Reads the run (a run of another session is `not_found`, exactly like a missing one). */
export async function operatorView(store: RunLedger, runId: string, sessionId: string | undefined): Promise<RunView> {
  const view = await loadRunView(store, () =>
    sessionId === undefined ? store.getRunById(runId) : store.getRun(sessionId, runId),
  );
  if (view === undefined) throw runNotFound();
  return view;
}
