/**
 * The workflow-engine profile of `rimthan serve`, built once before serving: the signing key (its source said on
 * stderr), the release store and its follower (the active release verified, or the start refused), and the profile
 * itself. Loaded by serve.ts only for this profile, so a runs start never loads the guided engine. With `--source` the
 * store is the source folder's development store, rebuilt on change (serve-source.ts).
 */
import { TokenSigner } from '../core/index.js';
import { ANONYMOUS } from '../identity/principal.js';
import { followerReleaseProvider } from '../mcp/workflow-engine/release-provider.js';
import { createMcpServer } from '../mcp/server/server.js';
import { loadSigningSetup } from '../mcp/server/signing-key.js';
import { createWorkflowEngineProfile } from '../mcp/workflow-engine/profile.js';
import type { AdminSettings } from './admin-wiring.js';
import { stringOption } from './args.js';
import type { Parsed } from './args.js';
import { checkpointMaxAgeMs } from './checkpoint-config.js';
import type { CliIo } from './io.js';
import { followReleases, openReleaseStore } from './release-store-config.js';
import { releaseReadiness } from './serve-health.js';
import type { ServeObservability } from './serve-observability.js';
import type { Serving } from './serving.js';

/** Builds the workflow-engine profile; refusals (a bad key, no verified active release) throw before anything serves. */
export async function serveWorkflowEngine(
  parsed: Parsed,
  io: CliIo,
  maxBytes: number,
  admin: AdminSettings | undefined,
  obs: ServeObservability,
): Promise<Serving> {
  const maxAgeMs = checkpointMaxAgeMs(io.env);
  const signing = loadSigningSetup(io.env);
  if (signing.source === 'environment') {
    io.err(`rimthan: signing checkpoints with key "${signing.ring.activeKeyId}" from RIMTHAN_WORKFLOW_SIGNING_SECRET`);
  } else {
    const verb = signing.created ? 'generated a new signing key in' : 'signing checkpoints with the key in';
    io.err(`rimthan: ${verb} ${signing.path ?? ''} (set RIMTHAN_WORKFLOW_SIGNING_SECRET to manage keys yourself)`);
  }
  const sourceDir = stringOption(parsed, 'source');
  const source =
    sourceDir === undefined ? undefined : (await import('./serve-source.js')).openSourceStore(sourceDir, io);
  const store = source?.store ?? (await openReleaseStore(stringOption(parsed, 'releases'), io));
  // With an Admin API the service may start empty: it becomes ready when a release is published and activated.
  // So may a source that does not check yet: it is served from its first good build.
  const follower = await followReleases(store, obs.followerEvents(), {
    allowEmpty: admin !== undefined || source !== undefined,
  });
  obs.followReleases(follower);
  source?.watch(follower);
  const profile = obs.observed(
    createWorkflowEngineProfile({
      releases: followerReleaseProvider(follower),
      signer: new TokenSigner(signing.ring),
      checkpointMaxAgeMs: maxAgeMs,
      maxArgumentBytes: maxBytes,
      onFault: obs.onFault,
    }),
  );
  return {
    // An elicited question's request state is bound to the authenticated caller (none on stdio or without tokens).
    serverFor: (principal) => createMcpServer(profile, principal.authenticated ? { principalId: principal.id } : {}),
    stdioPrincipal: ANONYMOUS,
    releases: { store, follower },
    readiness: releaseReadiness(follower),
    close: async () => {
      source?.close();
      await follower.stop();
      await store.close();
    },
  };
}
