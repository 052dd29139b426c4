/**
 * The Skills extension of the workflow-engine profile, in process with the 2025-era SDK client: declared next to
 * `resources`; skills/list and skills/get answer the release's skill entries (SHA-256 manifest, verbatim frontmatter,
 * the release asset and its own digest); SKILL.md is read with plain resources/read; unknown and malformed requests are
 * -32602 with fixed messages; a pinned release's skill stays readable after the active release moves; and the
 * tools, resources and templates a 2025-era client lists are exactly those of the profile without the extension.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { z } from 'zod';
import { sha256Hex } from '../../../src/core/index.js';
import { skillUri } from '../../../src/guided/index.js';
import { RELEASE_ASSET_META_KEY } from '../../../src/guided/index.js';
import { SKILLS_EXTENSION_ID } from '../../../src/mcp/index.js';
import type { McpProfile } from '../../../src/mcp/index.js';
import {
  ACTIVE_RELEASE,
  connect,
  NEW_RELEASE,
  OLD_RELEASE,
  tempReleaseStore,
  workflowProfile,
} from '../support/connect.js';

type Client = Awaited<ReturnType<typeof connect>>['client'];

const SkillEntry = z
  .object({
    uri: z.string(),
    frontmatter: z.object({ name: z.string(), description: z.string() }).passthrough(),
    resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() }).strict()),
    _meta: z.record(z.string(), z.unknown()),
  })
  .strict();
const ListResult = z.object({ skills: z.array(SkillEntry) }).passthrough();
const GetResult = z.object({ skill: SkillEntry }).passthrough();
type Entry = z.infer<typeof SkillEntry>;

const listSkills = async (client: Client) =>
  (await client.request({ method: 'skills/list', params: {} }, ListResult)).skills;
const getSkill = async (client: Client, uri: string) =>
  (await client.request({ method: 'skills/get', params: { uri } }, GetResult)).skill;

/** The rejection of a request: its JSON-RPC code and message (without the SDK client's "MCP error <code>: "). */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await request;
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    assert.equal(typeof e.code, 'number', String(error));
    return { code: e.code as number, message: String(e.message).replace(/^MCP error -?\d+: /, '') };
  }
  assert.fail('the request was answered');
}

/** Reads the entry's SKILL.md and checks it against the entry: digest, size, frontmatter; returns the text. */
async function readVerified(client: Client, entry: Entry): Promise<string> {
  const read = await client.readResource({ uri: entry.uri });
  const [first] = read.contents as { uri: string; mimeType?: string; text?: string }[];
  assert.equal(first?.uri, entry.uri);
  assert.equal(first.mimeType, 'text/markdown');
  const text = first.text ?? '';
  const bytes = Buffer.from(text, 'utf8');
  const listed = entry.resources.find((r) => r.uri === entry.uri);
  assert.ok(listed !== undefined, 'the manifest lists SKILL.md itself');
  assert.equal(listed.size, bytes.length);
  assert.equal(listed.digest, `sha256:${sha256Hex(bytes)}`);
  const yaml = /^---\n([\s\S]*?)---\n/.exec(text)?.[1];
  assert.ok(yaml !== undefined, 'SKILL.md begins with YAML frontmatter');
  assert.deepEqual(parse(yaml), entry.frontmatter, 'the entry frontmatter is the file frontmatter, field by field');
  return text;
}

describe('workflow-engine profile: Skills extension', () => {
  const releases = tempReleaseStore(OLD_RELEASE);
  after(() => releases.cleanup());
  const profile = workflowProfile(releases.store);

  test('declared with resources; each skill asset is an entry whose SKILL.md is read and verified', async () => {
    const conn = await connect(profile);
    const { client } = conn;
    try {
      const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown>; resources?: unknown };
      assert.deepEqual(caps.extensions?.[SKILLS_EXTENSION_ID], {}, 'no optional features (no directoryRead)');
      assert.ok(caps.resources !== undefined, 'the extension requires the resources capability');
      const skills = await listSkills(client);
      assert.ok(skills.length > 0);
      const loaded = releases.store.read(OLD_RELEASE);
      assert.ok(loaded.ok);
      const assets = loaded.release.assets;
      assert.equal(skills.length, assets.filter((a) => a.kind === 'skill').length);
      for (const entry of skills) {
        const name = entry.frontmatter.name;
        const asset = assets.find((a) => a.kind === 'skill' && a.id === name);
        assert.ok(asset !== undefined, `${name} is a skill asset of the release`);
        assert.equal(entry.uri, skillUri(OLD_RELEASE, asset));
        assert.equal(entry.uri.split('/').at(-2), name, 'the last path segment before SKILL.md is the name');
        for (const r of entry.resources) assert.match(r.digest, /^sha256:[0-9a-f]{64}$/);
        assert.deepEqual(entry._meta[RELEASE_ASSET_META_KEY], {
          release: OLD_RELEASE,
          kind: 'skill',
          id: asset.id,
          version: asset.version,
          sha256: asset.sha256,
        });
        assert.deepEqual(await getSkill(client, entry.uri), entry, 'skills/get answers the listed entry');
        const text = await readVerified(client, entry);
        // The body after the frontmatter is the asset content the release digest covers.
        const body = text.slice(text.indexOf('---\n\n', 4) + 5);
        assert.ok([body, body.replace(/\n$/, '')].some((b) => sha256Hex(b) === asset.sha256));
      }
    } finally {
      await conn.close();
    }
  });

  test('unknown skills and malformed params are -32602 with fixed messages that echo nothing', async () => {
    const conn = await connect(profile);
    const { client } = conn;
    try {
      const [entry] = await listSkills(client);
      assert.ok(entry !== undefined);
      const unknown = [
        entry.uri.replace('/SKILL.md', '/OTHER.md'),
        entry.uri.replace(OLD_RELEASE, 'research-2099.1.1'),
        entry.uri.replace(OLD_RELEASE, '..'),
        'skill://elsewhere/SKILL.md',
        'rimthan://bootstrap/agent-entrypoint',
      ];
      for (const uri of unknown) {
        assert.deepEqual(await refusal(getSkill(client, uri)), { code: -32602, message: 'unknown skill' }, uri);
      }
      const fixed = { code: -32602, message: 'Invalid params for skills/get: invalid params' };
      const marker = 'ECHO-MARKER';
      const malformed: unknown[] = [
        { uri: entry.uri, extra: marker },
        { uri: 42 },
        { uri: [marker] },
        { uri: `skill://${marker}/${'x'.repeat(2048)}/SKILL.md` },
        { uri: '' },
        {},
      ];
      for (const params of malformed) {
        const got = await refusal(client.request({ method: 'skills/get', params: params as never }, GetResult));
        assert.deepEqual(got, fixed, JSON.stringify(params).slice(0, 80));
      }
      const listFixed = { code: -32602, message: 'Invalid params for skills/list: invalid params' };
      for (const params of [{ extra: marker }, { cursor: 7 }, { cursor: 'c'.repeat(300) }]) {
        const got = await refusal(client.request({ method: 'skills/list', params }, ListResult));
        assert.deepEqual(got, listFixed, JSON.stringify(params).slice(0, 80));
      }
      // We issue no cursor, so any cursor is invalid.
      assert.deepEqual(
        await refusal(client.request({ method: 'skills/list', params: { cursor: 'page-2' } }, ListResult)),
        { code: -32602, message: 'invalid cursor' },
      );
      // A skill file that is not served is resource-not-found (2025 code), like any other unknown resource.
      const missing = await refusal(client.readResource({ uri: entry.uri.replace(OLD_RELEASE, NEW_RELEASE + 'x') }));
      assert.equal(missing.code, -32002);
    } finally {
      await conn.close();
    }
  });

  test("a pinned release's skill stays listed by get and readable after the active release moves", async () => {
    const conn = await connect(profile);
    const { client } = conn;
    try {
      releases.store.activate(OLD_RELEASE);
      const [old] = await listSkills(client);
      assert.ok(old !== undefined && old.uri.startsWith(`skill://rimthan/${OLD_RELEASE}/`));
      releases.store.activate(ACTIVE_RELEASE);
      const now = await listSkills(client);
      assert.ok(now.length > 0);
      assert.ok(
        now.every((s) => s.uri.startsWith(`skill://rimthan/${ACTIVE_RELEASE}/`)),
        'the listing follows the active release',
      );
      assert.deepEqual(await getSkill(client, old.uri), old, 'the old entry is still answered by URI');
      await readVerified(client, old);
    } finally {
      releases.store.activate(OLD_RELEASE);
      await conn.close();
    }
  });

  test('a 2025-era client lists exactly the tools, resources and templates of the profile without the extension', async () => {
    const bare: McpProfile = { ...profile, extensions: [] };
    const withSkills = await connect(profile);
    const without = await connect(bare);
    try {
      const a = withSkills.client;
      const b = without.client;
      assert.deepEqual(await a.listTools(), await b.listTools());
      const listed = await a.listResources();
      assert.deepEqual(listed, await b.listResources());
      assert.ok(
        listed.resources.every((r) => !r.uri.startsWith('skill://')),
        'no skill file is listed',
      );
      assert.deepEqual(await a.listResourceTemplates(), await b.listResourceTemplates());
      assert.deepEqual(await a.listPrompts(), await b.listPrompts());
      const capsA = { ...(a.getServerCapabilities() as Record<string, unknown>) };
      const capsB = { ...(b.getServerCapabilities() as Record<string, unknown>) };
      delete capsA['extensions'];
      assert.deepEqual(capsA, capsB, 'only the extensions entry differs');
    } finally {
      await withSkills.close();
      await without.close();
    }
  });
});
