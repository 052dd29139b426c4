/**
 * The workflow-engine profile's public surface (spec: guided-protocol.md "Tool contract surface",
 * resources-prompts-adapters.md "Resource catalogue" and "Prompts and bootstrap").
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sha256Hex } from '../../../src/core/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { PUBLISHED_SCHEMA_RESOURCES } from '../../../src/guided/index.js';
import { loadBootstrapParagraph } from '../../../src/mcp/workflow-engine/bootstrap.js';
import { CACHE_SCOPE_META_KEY } from '../../../src/mcp/index.js';
import type { Release } from '../../../src/registry/index.js';
import { callTool, connect, NEW_RELEASE, tempReleaseStore, workflowProfile } from '../support/connect.js';
import { Participant } from '../support/participant.js';

const FOUR_TOOLS = [
  'rimthan.continue_workflow',
  'rimthan.prepare_step_validation',
  'rimthan.start_workflow',
  'rimthan.submit_step_validation',
];
const PRIVATE = { [CACHE_SCOPE_META_KEY]: 'private' };

function expectedUris(release: Release): string[] {
  const base = `rimthan://registry/${release.release}`;
  const uris = [`${base}/summary`, `${base}/manifest`, 'rimthan://bootstrap/agent-entrypoint'];
  for (const w of release.workflows) {
    uris.push(`${base}/workflows/${w.id}/${w.version}/definition`);
    for (const s of w.steps) uris.push(`${base}/workflows/${w.id}/${w.version}/steps/${s.id}`);
  }
  for (const a of release.assets) uris.push(`${base}/assets/${a.kind}/${a.id}/${a.version}/content`);
  for (const v of release.validators) uris.push(`${base}/validators/${v.id}/${v.version}`);
  for (const s of [...release.schemas, ...PUBLISHED_SCHEMA_RESOURCES])
    uris.push(`${base}/schemas/${s.id}/${s.version}`);
  return [...new Set(uris)].sort();
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError, 'a JSON-RPC error');
    return error;
  }
  assert.fail('expected a JSON-RPC error');
}

describe('workflow-engine MCP surface', () => {
  let releases: ReturnType<typeof tempReleaseStore>;
  let conn: Awaited<ReturnType<typeof connect>>;
  let client: Client;
  let release: Release;

  before(async () => {
    releases = tempReleaseStore(NEW_RELEASE);
    const loaded = releases.store.load(NEW_RELEASE);
    assert.ok(loaded);
    release = loaded;
    conn = await connect(workflowProfile(releases.store));
    client = conn.client;
  });
  after(async () => {
    await conn.close();
    releases.cleanup();
  });

  test('exposes exactly the four guided tools with closed schemas and read-only annotations', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), FOUR_TOOLS);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 0, `${tool.name} has a description`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal((tool.inputSchema as JsonObject)['additionalProperties'], false, `${tool.name} input is closed`);
      assert.equal(tool.outputSchema?.type, 'object');
      assert.equal((tool.outputSchema as JsonObject)['additionalProperties'], false, `${tool.name} output is closed`);
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.equal(tool.annotations?.destructiveHint, false);
      assert.equal(tool.annotations?.openWorldHint, false);
    }
  });

  test('marks every listing, tool, resource, template and prompt as private-cache scoped', async () => {
    const tools = await client.listTools();
    const resources = await client.listResources();
    const templates = await client.listResourceTemplates();
    const prompts = await client.listPrompts();
    for (const listing of [tools, resources, templates, prompts]) assert.deepEqual(listing._meta, PRIVATE);
    for (const item of [...tools.tools, ...resources.resources, ...templates.resourceTemplates, ...prompts.prompts]) {
      assert.deepEqual(item._meta, PRIVATE);
    }
  });

  test('lists exactly the active release catalogue plus the bootstrap entrypoint, and no legacy resources', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri).sort();
    assert.deepEqual(uris, expectedUris(release));
    assert.ok(uris.some((u) => u.includes('/workflows/research-decision/1.2.0/definition')));
    assert.ok(
      uris.some((u) => u.endsWith('/schemas/checkpoint-envelope/1.0.0')),
      'protocol schemas are served',
    );
    for (const uri of uris) {
      assert.doesNotMatch(uri, /\/modules\/|\/presentation\/|starter|pilot|^rimthan:\/\/schemas\//);
    }
  });

  test('exposes the five resource templates with the exact URI shapes', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    const byName = Object.fromEntries(resourceTemplates.map((t) => [t.name, t.uriTemplate]));
    assert.deepEqual(byName, {
      'workflow-definition': 'rimthan://registry/{release}/workflows/{workflow_id}/{version}/definition',
      'workflow-step': 'rimthan://registry/{release}/workflows/{workflow_id}/{version}/steps/{step_id}',
      'workflow-asset-content': 'rimthan://registry/{release}/assets/{kind}/{asset_id}/{version}/content',
      'validator-definition': 'rimthan://registry/{release}/validators/{validator_id}/{version}',
      'workflow-versioned-schema': 'rimthan://registry/{release}/schemas/{schema_id}/{version}',
    });
  });

  test('serves the bootstrap paragraph from the operations document as prompt, resource and instructions', async () => {
    const paragraph = loadBootstrapParagraph();
    for (const phrase of [
      ...FOUR_TOOLS,
      '.rimthan/workflow-session.json',
      'higher authority',
      'separate native subagent',
    ]) {
      assert.ok(paragraph.includes(phrase), `bootstrap mentions ${phrase}`);
    }
    const { prompts } = await client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['rimthan.start_workflow'],
    );
    assert.ok((prompts[0]?.description ?? '').length > 0);
    const prompt = await client.getPrompt({ name: 'rimthan.start_workflow' });
    assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: paragraph } }]);
    const entry = await client.readResource({ uri: 'rimthan://bootstrap/agent-entrypoint' });
    assert.equal((entry.contents[0] as { text: string }).text, paragraph);
    assert.equal(client.getInstructions(), paragraph);
    assert.equal(client.getServerVersion()?.name, 'rimthan');
  });

  test('serves release entries byte-exact: JSON entries match the manifest digests, assets their own digest', async () => {
    const base = `rimthan://registry/${NEW_RELEASE}`;
    for (const entry of release.manifest.entries.filter((e) => e.type === 'workflow' || e.type === 'validator')) {
      const path =
        entry.type === 'workflow'
          ? `workflows/${entry.key}/${entry.version}/definition`
          : `validators/${entry.key}/${entry.version}`;
      const read = await client.readResource({ uri: `${base}/${path}` });
      const text = (read.contents[0] as { text: string }).text;
      assert.equal(sha256Hex(text), entry.sha256, `${path} matches the manifest`);
    }
    for (const asset of release.assets) {
      const read = await client.readResource({
        uri: `${base}/assets/${asset.kind}/${asset.id}/${asset.version}/content`,
      });
      assert.equal(sha256Hex((read.contents[0] as { text: string }).text), asset.sha256);
      assert.equal(read.contents[0]?.mimeType, 'text/markdown');
    }
    const manifest = await client.readResource({ uri: `${base}/manifest` });
    assert.equal(sha256Hex((manifest.contents[0] as { text: string }).text), release.manifest_sha256);
  });

  test('an unknown resource is -32002 with the URI in data', async () => {
    for (const uri of [
      `rimthan://registry/${NEW_RELEASE}/workflows/no-such-workflow/1.0.0/definition`,
      'rimthan://registry/research-2099.1.1/summary',
      'rimthan://registry/../ACTIVE/summary',
      'rimthan://schemas/checkpoint-envelope',
      'rimthan://starter/project-interview',
    ]) {
      const error = await rpcError(client.readResource({ uri }));
      assert.equal(error.code, -32002);
      assert.deepEqual(error.data, { uri });
    }
  });

  test('an unknown tool is a JSON-RPC METHOD_NOT_FOUND error', async () => {
    const error = await rpcError(client.callTool({ name: 'rimthan.delete_workflow', arguments: {} }));
    assert.equal(error.code, -32601);
  });

  test('arguments that break the input schema are a tool error that names the rule, never the value', async () => {
    const marker = 'PARTICIPANT-SECRET-7f3a';
    const p = new Participant((name, args) => callTool(client, name, args));
    const cases: JsonObject[] = [
      { workflow: 'research', confirmed_state: p.state, host: p.host(), objective: marker },
      { workflow: `Research ${marker}`, confirmed_state: p.state, host: p.host() },
      {
        workflow: 'research',
        confirmed_state: { state: { objective: marker }, confirmations: {}, extra: marker },
        host: p.host(),
      },
    ];
    for (const args of cases) {
      const result = await client.callTool({ name: 'rimthan.start_workflow', arguments: args });
      assert.equal(result.isError, true);
      const text = JSON.stringify(result);
      assert.ok(!text.includes(marker), 'the value is not echoed');
      const body = JSON.parse((result.content as { text: string }[])[0]?.text ?? '') as {
        error: { code: string; message: string };
      };
      assert.equal(body.error.code, 'invalid_arguments');
      assert.match(body.error.message, /input schema \([a-zA-Z]+ at #/);
    }
  });

  test('an engine refusal is a structured tool error with the spec code and no participant data', async () => {
    const p = new Participant((name, args) => callTool(client, name, args));
    await p.start();
    const checkpoint = { ...(p.checkpoint as JsonObject), current_step: 'decision-record' };
    const outcome = await callTool(client, 'rimthan.continue_workflow', { checkpoint, confirmed_state: p.state });
    assert.equal(outcome.isError, true);
    assert.equal((outcome.value['error'] as JsonObject)['code'], 'workflow_checkpoint_error');
    assert.ok(!JSON.stringify(outcome.value).includes('Pick the queue'), 'no confirmed-state content in the error');
  });
});
