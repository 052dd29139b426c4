/**
 * The Skills extension end to end over MCP 2026-07-28 (a real `rimthan serve`, the v2 client), over Streamable HTTP
 * and stdio: the SDK's own SkillsClient lists, gets and reads the release's skill and verifies it (listed, size,
 * digest, frontmatter field by field); the entry names the release asset and its own digest; a participant at
 * setup-workspace loads its skill host asset this way, and the host attestation that states the delivery as
 * dynamic-context with the asset's release digest is accepted (stating the SKILL.md file's digest instead is refused).
 * On the wire: resultType, ttlMs and cacheScope on both results, -32602 with a fixed message for malformed params.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { sha256Hex } from '../../../src/core/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { skillUri } from '../../../src/guided/index.js';
import { RELEASE_ASSET_META_KEY } from '../../../src/guided/index.js';
import { SKILLS_EXTENSION_ID } from '../../../src/mcp/index.js';
import { parseRegistryUri } from '../../../src/mcp/workflow-engine/resource-uris.js';
import { spawnServe } from '../../support/serve-process.js';
import { ACTIVE_RELEASE } from '../support/connect.js';
import { modernCall, modernHttp, modernStdio } from '../support/modern-client.js';
import { modernPost } from '../support/modern-wire.js';
import { LIBRARY_HOST, Participant } from '../support/participant.js';

const TOKEN = 'skills-e2e-token-0123456789abcdef0123';

/** Lists, gets and reads every skill through the SDK's verifying client; checks what the SDK leaves to us. */
async function verifiedSkills(client: Client): Promise<Map<string, { skill: Skill; text: string }>> {
  const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown>; resources?: unknown };
  assert.deepEqual(caps.extensions?.[SKILLS_EXTENSION_ID], {});
  assert.ok(caps.resources !== undefined);
  const skills = new SkillsClient(client);
  assert.equal(skills.supported, true);
  assert.equal(skills.directoryRead, false);
  const listing = await skills.list();
  assert.deepEqual(listing.invalid, []);
  assert.equal(listing.cacheScope, 'private');
  assert.equal(listing.ttlMs, 0, 'the listing follows the active release');
  assert.ok(listing.skills.length > 0);
  const out = new Map<string, { skill: Skill; text: string }>();
  for (const entry of listing.skills) {
    assert.ok(entry.uri.startsWith(`skill://rimthan/${ACTIVE_RELEASE}/`), entry.uri);
    const got = await skills.get(entry.uri);
    assert.deepEqual(got.skill, entry);
    assert.equal(got.cacheScope, 'private');
    const file = await skills.read(entry); // throws SkillVerificationError on any listed/size/digest/frontmatter check
    assert.equal(file.verified, true);
    assert.deepEqual(file.frontmatter, entry.frontmatter);
    assert.equal(file.mimeType, 'text/markdown');
    // Our own check of the same bytes, independent of the SDK's.
    const listed = Array.isArray(entry.resources) ? entry.resources.find((r) => r.uri === entry.uri) : undefined;
    assert.ok(listed !== undefined);
    assert.equal(file.bytes.byteLength, listed.size);
    assert.equal(`sha256:${sha256Hex(Buffer.from(file.bytes))}`, listed.digest);
    out.set(entry.uri, { skill: entry, text: file.text ?? '' });
  }
  return out;
}

/**
 * A participant at setup-workspace that loads every skill host asset through the Skills extension: the entry whose
 * release asset is that host asset, read and verified, its body the content the release digest covers. The setup
 * attestation then states dynamic-context with `digestOf` of what was loaded.
 */
async function setupWithSkillsRoute(
  client: Client,
  digestOf: (loaded: { skill: Skill; text: string; assetSha256: string }) => string,
): Promise<{ participant: Participant; prepared: JsonObject; loaded: number }> {
  const skills = await verifiedSkills(client);
  const participant = new Participant((name, args) => modernCall(client, name, args), LIBRARY_HOST);
  await participant.start();
  assert.equal(participant.currentStep, 'setup-workspace');
  const assets = (participant.step?.['host_assets'] ?? []) as JsonObject[];
  const byAsset = new Map<string, { skill: Skill; text: string; assetSha256: string }>();
  for (const asset of assets.filter((a) => a['kind'] === 'skill')) {
    const release = parseRegistryUri(asset['uri'] as string)?.release;
    assert.equal(release, ACTIVE_RELEASE);
    const wanted = { kind: 'skill', id: asset['id'], version: asset['version'], sha256: asset['sha256'] };
    const found = [...skills.values()].find(({ skill }) => {
      const named = (skill._meta?.[RELEASE_ASSET_META_KEY] ?? {}) as JsonObject;
      return JSON.stringify({ ...named, release: undefined }) === JSON.stringify({ ...wanted, release: undefined });
    });
    assert.ok(found !== undefined, `the skills listing has the entry of host asset ${JSON.stringify(asset['id'])}`);
    assert.equal(
      found.skill.uri,
      skillUri(release, { id: asset['id'] as string, version: asset['version'] as string }),
    );
    const body = found.text.slice(found.text.indexOf('---\n\n', 4) + 5);
    const sha = asset['sha256'] as string;
    assert.ok(
      [body, body.replace(/\n$/, '')].some((b) => sha256Hex(b) === sha),
      'the body is the attested content',
    );
    byAsset.set(asset['id'] as string, { ...found, assetSha256: sha });
  }
  assert.ok(byAsset.size > 0, 'the setup step carries a skill host asset');
  participant.setupDelivery = (a) => {
    const loaded = byAsset.get(a['id'] as string);
    if (a['kind'] !== 'skill' || loaded === undefined)
      return { sha256: a['sha256'] as string, delivery: 'dynamic-context' };
    return { sha256: digestOf(loaded), delivery: 'dynamic-context' };
  };
  const prepared = await participant.prepare();
  return { participant, prepared, loaded: byAsset.size };
}

/** The whole story on one connected client: verified skills, accepted attestation, refused wrong digest. */
async function skillsStory(connectClient: () => Promise<{ client: Client; close(): Promise<void> }>): Promise<void> {
  const first = await connectClient();
  try {
    const { participant, prepared } = await setupWithSkillsRoute(first.client, (l) => l.assetSha256);
    assert.equal(prepared['status'], 'ready_for_semantic_validation', JSON.stringify(prepared['failures']));
    await participant.submit(prepared);
    assert.equal(participant.currentStep, 'interview', 'setup was accepted with the skill delivered this way');
  } finally {
    await first.close();
  }
  const second = await connectClient();
  try {
    const fileDigest = (l: { skill: Skill }) => {
      const r = (l.skill.resources as { uri: string; digest: string }[]).find((x) => x.uri === l.skill.uri);
      return (r?.digest ?? '').slice('sha256:'.length);
    };
    const { prepared } = await setupWithSkillsRoute(second.client, fileDigest);
    assert.notEqual(
      prepared['status'],
      'ready_for_semantic_validation',
      'the SKILL.md digest is not the release digest',
    );
    assert.match(JSON.stringify(prepared), /asset_digest_mismatch/);
  } finally {
    await second.close();
  }
}

/** One raw 2026-07-28 request over HTTP (support/modern-wire.ts); the JSON-RPC response. */
async function wire(url: string, method: string, params: JsonObject): Promise<JsonObject> {
  const { status, response } = await modernPost(url, TOKEN, method, params);
  assert.equal(status, 200, method);
  return response;
}

describe('the Skills extension over MCP 2026-07-28 (real server, v2 client)', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-skills-'));
  const env = { HOME: work, XDG_STATE_HOME: work };
  after(() => rmSync(work, { recursive: true, force: true }));

  test('over Streamable HTTP: verified skills, setup attested as dynamic-context, and the wire shape', async () => {
    const server = await spawnServe(['--transport', 'http', '--port', '0'], {
      ...env,
      RIMTHAN_MCP_BEARER_TOKEN: TOKEN,
    });
    try {
      await skillsStory(async () => {
        const client = await modernHttp(server.url, TOKEN);
        return { client, close: () => client.close() };
      });
      const listed = (await wire(server.url, 'skills/list', {}))['result'] as JsonObject;
      assert.equal(listed['resultType'], 'complete');
      assert.equal(listed['cacheScope'], 'private');
      assert.equal(listed['ttlMs'], 0);
      assert.equal(listed['nextCursor'], undefined, 'one page');
      const [entry] = listed['skills'] as JsonObject[];
      const got = (await wire(server.url, 'skills/get', { uri: entry?.['uri'] as string }))['result'] as JsonObject;
      assert.equal(got['resultType'], 'complete');
      assert.equal(got['cacheScope'], 'private');
      assert.deepEqual(got['skill'], entry);
      for (const params of [{ uri: 7 }, { uri: 'skill://x/SKILL.md', echo: 'ECHO-MARKER' }, {}]) {
        const refused = (await wire(server.url, 'skills/get', params))['error'] as JsonObject;
        assert.deepEqual(refused, { code: -32602, message: 'Invalid params for skills/get: invalid params' });
      }
      const unknown = (await wire(server.url, 'skills/get', { uri: 'skill://rimthan/ECHO/1/x/SKILL.md' }))['error'];
      assert.deepEqual(unknown, { code: -32602, message: 'unknown skill' });
      // SKILL.md over plain resources/read; a skill file no release serves is this revision's not-found code.
      const skillMd = entry?.['uri'] as string;
      const read = (await wire(server.url, 'resources/read', { uri: skillMd }))['result'] as JsonObject;
      const [contents] = read['contents'] as JsonObject[];
      assert.equal(contents?.['mimeType'], 'text/markdown');
      const missing = skillMd.replace('/SKILL.md', '/OTHER.md');
      const notFound = (await wire(server.url, 'resources/read', { uri: missing }))['error'] as JsonObject;
      assert.equal(notFound['code'], -32602);
    } finally {
      await server.stop();
    }
  });

  test('over stdio: verified skills and setup attested as dynamic-context', async () => {
    await skillsStory(async () => {
      const served = await modernStdio([], env);
      return { client: served.client, close: () => served.close() };
    });
  });
});
