/**
 * What an MCP client can make the server say (spec: checkpoints-data-perimeter.md "safe structured tool errors";
 * resources-prompts-adapters.md resource URIs): a fault in any handler is a bare internal error, malformed params are
 * -32602 without validator dumps, and resource URIs that try to leave the catalogue are refused before any release
 * name reaches the release store.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../../../src/core/index.js';
import {
  compileToolContracts,
  createMcpServer,
  createRunsProfileFactory,
  createWorkflowEngineProfile,
  ProfileName,
  startHttpTransport,
  storeReleaseProvider,
} from '../../../src/mcp/index.js';
import type { HttpEndpoint, McpProfile, ReleaseProvider } from '../../../src/mcp/index.js';
import type { RunTool } from '../../../src/tools/index.js';
import { callTool, connect, NEW_RELEASE, tempReleaseStore, testSigner } from '../../mcp/support/connect.js';
import { exchange, rpc } from './support.js';

const MARKER = 'participant-marker-51c9';

function boom(): never {
  throw new Error(`${MARKER} in /work/main/src/secret.ts`);
}

const [BOOM_TOOL] = compileToolContracts([
  {
    name: 'boom',
    description: 'Always fails.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: { type: 'object' },
  },
]);

/** A profile whose every handler throws an error carrying participant data and a path. */
function faultyProfile(faults: unknown[]): McpProfile {
  assert.ok(BOOM_TOOL);
  return {
    name: ProfileName.WorkflowEngine,
    tools: [{ contract: BOOM_TOOL, handler: () => Promise.reject(new Error(MARKER)) }],
    resources: { list: () => Promise.reject(new Error(MARKER)), templates: boom, read: () => Promise.resolve(boom()) },
    prompts: { list: boom, get: boom },
    maxArgumentBytes: 1024,
    onFault: (_where, error) => faults.push(error),
  };
}

async function rpcFailure(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError, String(error));
    return error;
  }
  return assert.fail('expected a JSON-RPC error');
}

describe('MCP error paths', () => {
  test('an exception in any handler is a bare internal error: no message, stack or path reaches the client', async () => {
    const faults: unknown[] = [];
    const conn = await connect(faultyProfile(faults));
    try {
      const attempts: (() => Promise<unknown>)[] = [
        () => conn.client.callTool({ name: 'boom', arguments: {} }),
        () => conn.client.listResources(),
        () => conn.client.listResourceTemplates(),
        () => conn.client.readResource({ uri: 'rimthan://bootstrap/agent-entrypoint' }),
        () => conn.client.listPrompts(),
        () => conn.client.getPrompt({ name: 'x' }),
      ];
      for (const attempt of attempts) {
        const error = await rpcFailure(attempt());
        assert.equal(error.code, -32603);
        assert.doesNotMatch(error.message, new RegExp(`${MARKER}|/work/|\\bat `));
        assert.equal(error.data, undefined);
      }
      assert.equal(faults.length, attempts.length, 'each fault reported to the host once');
    } finally {
      await conn.close();
    }
  });

  test('the runs profile never alters a value on its way to a tool: a non-finite number is refused, not sent as null', async () => {
    const seen: string[] = [];
    const tool: RunTool = {
      name: 'workflow_run_start',
      title: 'Start',
      description: 'Starts a run.',
      inputSchema: { type: 'object', properties: { input: { type: 'object' } }, additionalProperties: false },
      outputSchema: { type: 'object' },
      annotations: {
        title: 'Start',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      invoke: (text) => {
        seen.push(text);
        return Promise.resolve({ ok: true, value: {} });
      },
    };
    const factory = createRunsProfileFactory({ toolsFor: () => [tool] });
    const conn = await connect(factory.forSession('s'));
    try {
      const result = await callTool(conn.client, 'workflow_run_start', { input: { n: Number.POSITIVE_INFINITY } });
      assert.equal(result.isError, true);
      assert.equal((result.value['error'] as JsonObject)['code'], 'invalid_arguments');
      assert.deepEqual(seen, [], 'the tool never saw a rewritten document');
    } finally {
      await conn.close();
    }
  });
});

describe('MCP requests over HTTP that try to leave the catalogue', () => {
  let releases: ReturnType<typeof tempReleaseStore>;
  let endpoint: HttpEndpoint;
  const loaded: string[] = [];

  before(async () => {
    releases = tempReleaseStore(NEW_RELEASE);
    const base = storeReleaseProvider(releases.store, { refreshIntervalMs: 0 });
    const spy: ReleaseProvider = {
      active: () => base.active(),
      load: (name) => {
        loaded.push(name);
        return base.load(name);
      },
    };
    const profile = createWorkflowEngineProfile({ releases: spy, signer: testSigner() });
    endpoint = await startHttpTransport({
      port: 0,
      maxRequestBytes: 1024 * 1024,
      serverFor: () => createMcpServer(profile),
    });
  });
  after(async () => {
    await endpoint.close();
    releases.cleanup();
  });

  async function errorOf(body: string): Promise<{ code: number; message: string; data?: JsonObject; size: number }> {
    const reply = await exchange(endpoint.url, body);
    assert.equal(reply.headers['cache-control'], 'private, no-store');
    const parsed = JSON.parse(reply.body) as { error?: { code: number; message: string; data?: JsonObject } };
    assert.ok(parsed.error !== undefined, reply.body.slice(0, 300));
    return { ...parsed.error, size: reply.body.length };
  }

  test('malformed params are -32602 with a short message, never a validator dump or -32603', async () => {
    for (const [method, params] of [
      ['initialize', { protocolVersion: 5 }],
      ['initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 7 } }],
      ['resources/read', { uri: 5 }],
      ['resources/read', {}],
      ['prompts/get', { name: ['x'] }],
      ['prompts/get', { name: 'rimthan.start_workflow', arguments: { a: 1 } }],
      ['tools/call', { name: 7 }],
      ['tools/call', { name: 'rimthan.start_workflow', arguments: 5 }],
      ['tools/call', { name: 'rimthan.start_workflow', arguments: [] }],
    ] as const) {
      const error = await errorOf(rpc(method, params));
      assert.equal(error.code, -32602, `${method} ${JSON.stringify(params)}: ${error.message}`);
      assert.doesNotMatch(error.message, /[[{]|invalid_type|expected/, error.message);
    }
  });

  test('traversal and encoded URIs are not found (-32002 naming the URI); over-long URIs are -32602 without an echo', async () => {
    const base = `rimthan://registry/${NEW_RELEASE}`;
    for (const uri of [
      'rimthan://registry/../x',
      'rimthan://registry/%2e%2e/summary',
      'rimthan://registry/%2E%2E%2Fsecret/summary',
      `rimthan://registry/${NEW_RELEASE}/../research-2026.10.1/summary`,
      `${base}/workflows/../../../etc/passwd/definition`,
      'rimthan://registry/./summary',
      'rimthan://registry/.hidden/summary',
      `${base}/summary/`,
      `${base}//summary`,
      `${base}/summary?x=1`,
      `${base}/summary#f`,
      `rimthan://registry/${NEW_RELEASE}\\..\\x/summary`,
      `rimthan://registry/${NEW_RELEASE}\u0000/summary`,
      `rimthan://registry/${NEW_RELEASE}%00/summary`,
      'file:///etc/passwd',
      'rimthan://bootstrap/../registry/x',
    ]) {
      const error = await errorOf(rpc('resources/read', { uri }));
      assert.equal(error.code, -32002, uri);
      assert.equal(error.data?.['uri'], uri);
    }
    for (const uri of [`rimthan://registry/${'a'.repeat(100_000)}`, `${base}/${'x/'.repeat(600)}summary`]) {
      const error = await errorOf(rpc('resources/read', { uri }));
      assert.equal(error.code, -32602);
      assert.ok(error.size < 1024, 'the URI is not echoed back');
    }
    assert.ok(
      loaded.every((name) => /^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(name) && !name.includes('..')),
      loaded.join(),
    );
  });

  test('a checkpoint naming a path as its release never reaches the release store', async () => {
    loaded.length = 0;
    const body = rpc('tools/call', {
      name: 'rimthan.continue_workflow',
      arguments: { checkpoint: { registry_release: '../../../../etc/passwd', token: 'x' } },
    });
    const reply = await exchange(endpoint.url, body);
    const parsed = JSON.parse(reply.body) as { error?: unknown; result?: { isError?: boolean } };
    assert.ok(parsed.error !== undefined || parsed.result?.isError === true, reply.body.slice(0, 300));
    assert.deepEqual(loaded, []);
  });
});
