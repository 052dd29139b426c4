/** What the flows suite's parts share: starting a run of a session through the supervisor, and polling until. */
import { randomUUID } from 'node:crypto';
import type { Supervisor } from '../../src/runs/index.js';
import type { JsonObject } from '../../src/core/json.js';

/** Polls `probe` every 20 ms until it holds; throws after `timeoutMs`. */
export async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`flows bench: ${what} did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts runs of `session` (version v1 of the named flow) as a host does; resolves with the run id at the ack. */
export function starter(supervisor: Supervisor, session: string) {
  const controller = supervisor.forSession(session);
  return async (name: string, input: JsonObject): Promise<string> => {
    const outcome = await controller.startNew({
      definitionName: name,
      definitionVersion: 'v1',
      input,
      parentRunId: null,
      idempotencyKey: null,
      mintRunId: () => randomUUID(),
      now: () => new Date().toISOString(),
    });
    if (outcome.kind !== 'started') throw new Error(`flows bench: start ${outcome.kind}`);
    return outcome.run.run_id;
  };
}
