/**
 * The guided engine as the participant library reaches a server (`GuidedServer`), in-process and without MCP: the
 * four operations over one release built in memory, its resource catalogue (the same one the MCP profile serves), and
 * engine refusals as tool errors (code, message, reason), as a server would send them. Tokens are signed with a key
 * made for this one run.
 */
import { randomBytes } from 'node:crypto';
import { KeyRing, TokenSigner, systemClock } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import {
  CatalogueCache,
  createGuidedEngine,
  createReleaseScope,
  GuidedError,
  GuidedToolName,
  PUBLISHED_SCHEMA_RESOURCES,
} from '../guided/index.js';
import type { GuidedServer, ToolOutcome } from '../participant/index.js';
import type { Release } from '../registry/index.js';

/** The name the in-process server gives itself (what a handshake would carry). */
export const IN_PROCESS_SERVER_NAME = 'rimthan-routes';

function wire(value: JsonObject): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** A GuidedServer serving `release` in this process. */
export function inProcessServer(release: Release): GuidedServer {
  const signer = new TokenSigner(new KeyRing({ activeKeyId: 'routes', activeSecret: randomBytes(32).toString('hex') }));
  const engine = createGuidedEngine({ signer, clock: systemClock });
  const scope = createReleaseScope(release);
  const catalogue = new CatalogueCache(PUBLISHED_SCHEMA_RESOURCES).of(release);
  const operations: Readonly<Record<GuidedToolName, (args: JsonObject) => JsonObject>> = {
    [GuidedToolName.StartWorkflow]: (args) => engine.startWorkflow(scope, args),
    [GuidedToolName.ContinueWorkflow]: (args) => engine.continueWorkflow(scope, args),
    [GuidedToolName.PrepareStepValidation]: (args) => engine.prepareStepValidation(scope, args),
    [GuidedToolName.SubmitStepValidation]: (args) => engine.submitStepValidation(scope, args),
  };
  const received = { bytes: 0, calls: 0 };
  return {
    info: { name: IN_PROCESS_SERVER_NAME, version: release.release },
    call(tool: GuidedToolName, args: JsonObject): Promise<ToolOutcome> {
      received.calls++;
      try {
        // Through JSON both ways, as over a wire: nothing is shared between the caller and the engine.
        const value = operations[tool](wire(args));
        return Promise.resolve({ ok: true, value: wire(value) });
      } catch (error) {
        if (!(error instanceof GuidedError)) return Promise.reject(error);
        const reason = error.reason === undefined ? {} : { reason: error.reason };
        return Promise.resolve({ ok: false, error: { code: error.code, message: error.message, ...reason } });
      }
    },
    readResource: (uri: string) => Promise.resolve(catalogue.get(uri)?.text),
    listResources: () => Promise.resolve(catalogue.entries.map((e) => e.uri)),
    received,
    close: () => Promise.resolve(),
  };
}
