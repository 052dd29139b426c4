/** Test plumbing: an in-process SDK client per profile, temp release stores, and a fixed signer. */
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { KeyRing, TokenSigner } from '../../../src/core/index.js';
import { packageRoot } from '../../../src/package/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { createMcpServer, createWorkflowEngineProfile, storeReleaseProvider } from '../../../src/mcp/index.js';
import type { McpProfile } from '../../../src/mcp/index.js';
import { FolderReleaseStore } from '../../../src/registry/index.js';

export const OLD_RELEASE = 'research-2026.10.1';
export const NEW_RELEASE = 'research-2026.11.1';
/**
 * The last research-only release (research-decision@1.3.0 with its research-specific adapters and validator subagent):
 * tests of research-workflow behaviour pin it, as a checkpoint pinned to it would.
 */
export const RESEARCH_RELEASE = 'research-2026.11.2';
/** The release the package activates (releases/ACTIVE): the library, newer than all of the above. */
export const ACTIVE_RELEASE = readFileSync(join(packageRoot(), 'releases', 'ACTIVE'), 'utf8').trim();
export const TEST_SECRET = 'mcp-test-secret-0123456789abcdef0123456789';

export function testSigner(): TokenSigner {
  return new TokenSigner(new KeyRing({ activeKeyId: 'mcp-test', activeSecret: TEST_SECRET }));
}

/** A connected SDK client talking to a fresh server of `profile`. */
export async function connect(profile: McpProfile): Promise<{ client: Client; close(): Promise<void> }> {
  const server = createMcpServer(profile);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'rimthan-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** A temp folder release store holding copies of the packaged releases, with `active` activated. */
export function tempReleaseStore(active: string): { dir: string; store: FolderReleaseStore; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-mcp-releases-'));
  const dist = join(packageRoot(), 'releases', 'dist');
  for (const name of readdirSync(dist)) if (name.endsWith('.json')) copyFileSync(join(dist, name), join(dir, name));
  const store = new FolderReleaseStore(dir);
  store.activate(active);
  return { dir, store, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Points the store's ACTIVE file at a release file whose bytes do not verify. */
export function activateCorruptRelease(dir: string, name = 'research-2099.1.1'): void {
  writeFileSync(join(dir, `${name}.json`), '{"format":"rimthan.release/v1","manifest":{}}\n');
  writeFileSync(join(dir, 'ACTIVE'), `${name}\n`);
}

/** The workflow-engine profile over a folder store, refreshing the active pointer on every request. */
export function workflowProfile(
  store: FolderReleaseStore,
  opts: { bootstrap?: string; maxArgumentBytes?: number } = {},
): McpProfile {
  return createWorkflowEngineProfile({
    releases: storeReleaseProvider(store, { refreshIntervalMs: 0 }),
    signer: testSigner(),
    ...(opts.bootstrap === undefined ? {} : { bootstrap: opts.bootstrap }),
    ...(opts.maxArgumentBytes === undefined ? {} : { maxArgumentBytes: opts.maxArgumentBytes }),
  });
}

/** The structured value of a tool result (structuredContent, or the canonical JSON text of an error). */
export function valueOf(result: unknown): JsonObject {
  const r = result as { structuredContent?: unknown; content?: unknown };
  if (r.structuredContent !== undefined) return r.structuredContent as JsonObject;
  const content = (r.content ?? []) as { type: string; text: string }[];
  const first = content[0];
  if (first === undefined || first.type !== 'text') throw new Error('tool result has no text content');
  return JSON.parse(first.text) as JsonObject;
}

/** Calls a tool through the SDK client: whether it was a tool error, and its JSON value. */
export async function callTool(
  client: Client,
  name: string,
  args: JsonObject,
): Promise<{ isError: boolean; value: JsonObject }> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, value: valueOf(result) };
}
