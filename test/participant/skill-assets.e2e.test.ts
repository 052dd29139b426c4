/**
 * rimthan/participant loading a skill host asset through the Skills extension of a real `rimthan serve`: the server
 * declares it, so connectServer offers skills/get; deliverHostAssets then loads the skill through skills/get +
 * resources/read (digest, size, frontmatter and release digest checked) and states the delivery as dynamic-context
 * with the asset's release digest, which setup accepts. An entry, a SKILL.md or a release asset that does not hold
 * up is refused (`asset_digest_mismatch`) and nothing is delivered.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sha256Hex } from '../../src/core/index.js';
import type { JsonObject } from '../../src/core/index.js';
import {
  connectServer,
  deliverHostAssets,
  isParticipantError,
  loadSkillAsset,
  RELEASE_ASSET_META_KEY,
  skillUriOf,
  stepPayloadOf,
  Workspace,
} from '../../src/participant/index.js';
import type { GuidedServer, HostAssetPayload, SkillGetter, StepPayload } from '../../src/participant/index.js';
import type { GuidedToolName } from '../../src/guided/index.js';
import { spawnServe } from '../support/serve-process.js';
import type { ServeProcess } from '../support/serve-process.js';
import { LIBRARY_HOST, Participant } from '../mcp/support/participant.js';

const TOKEN = 'participant-skills-token-0123456789abcd';

const mismatch = (error: unknown): boolean => isParticipantError(error, 'asset_digest_mismatch');

describe('rimthan/participant: skill assets through the Skills extension', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-participant-skills-'));
  let serve: ServeProcess;
  let server: GuidedServer;
  let participant: Participant;
  let setup: StepPayload;
  let skill: HostAssetPayload;
  let getSkill: SkillGetter;
  const readResource = (uri: string) => server.readResource(uri);

  before(async () => {
    serve = await spawnServe(['--transport', 'http', '--port', '0'], {
      HOME: work,
      XDG_STATE_HOME: work,
      RIMTHAN_MCP_BEARER_TOKEN: TOKEN,
    });
    server = await connectServer({ kind: 'http', url: serve.url, token: TOKEN });
    participant = new Participant(async (name, args) => {
      const outcome = await server.call(name as GuidedToolName, args);
      return outcome.ok
        ? { isError: false, value: outcome.value }
        : { isError: true, value: { error: { ...outcome.error } } };
    }, LIBRARY_HOST);
    await participant.start();
    setup = stepPayloadOf(participant.step);
    const found = setup.host_assets.find((a) => a.kind === 'skill');
    assert.ok(found !== undefined, 'setup carries a skill host asset');
    skill = found;
    assert.ok(server.getSkill !== undefined, 'the server declared the Skills extension');
    getSkill = server.getSkill;
  });
  after(async () => {
    await server.close();
    await serve.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('setup delivers the skill loaded through the extension as dynamic-context with its release digest', async () => {
    mkdirSync(join(work, 'ws'));
    const workspace = new Workspace(join(work, 'ws'));
    const delivered = await deliverHostAssets(workspace, setup, { projectLocal: false, readResource, getSkill });
    const context = delivered.dynamicContext.find((d) => d.kind === 'skill' && d.id === skill.id);
    assert.equal(context?.skillUri, skillUriOf(skill));
    assert.equal(context?.content, skill.content, 'the content the payload carries, loaded the other way');
    const delivery = delivered.deliveries.find((d) => d.kind === 'skill' && d.asset_id === skill.id);
    assert.deepEqual(delivery, {
      kind: 'skill',
      asset_id: skill.id,
      version: skill.version,
      delivery: 'dynamic-context',
      sha256: skill.sha256,
      path: null,
    });
    participant.setupDelivery = (a) => {
      const d = delivered.deliveries.find((x) => x.kind === a['kind'] && x.asset_id === a['id']);
      assert.ok(d !== undefined);
      return { sha256: d.sha256, delivery: d.delivery };
    };
    await participant.passStep();
    assert.equal(participant.currentStep, 'interview', 'the host attestation was accepted');
  });

  test('an entry, a SKILL.md or a release digest that does not hold up is refused', async () => {
    const real = await getSkill(skillUriOf(skill) ?? '');
    assert.ok(real !== undefined);
    const edited = (edit: (e: JsonObject) => void): SkillGetter => {
      return () => {
        const copy = structuredClone(real);
        edit(copy);
        return Promise.resolve(copy);
      };
    };
    const resources = (e: JsonObject) => e['resources'] as JsonObject[];
    const cases: [string, SkillGetter, typeof readResource][] = [
      ['another digest', edited((e) => (resources(e)[0]!['digest'] = `sha256:${'0'.repeat(64)}`)), readResource],
      ['another size', edited((e) => (resources(e)[0]!['size'] = 1)), readResource],
      ['another frontmatter', edited((e) => ((e['frontmatter'] as JsonObject)['license'] = 'MIT')), readResource],
      [
        'another release digest',
        edited((e) => ((e['_meta'] as JsonObject)[RELEASE_ASSET_META_KEY] = {})),
        readResource,
      ],
      ['SKILL.md not listed', edited((e) => (e['resources'] = [])), readResource],
      ['other bytes', getSkill, async (uri) => `${(await readResource(uri)) ?? ''}extra`],
      ['not served', getSkill, () => Promise.resolve(undefined)],
    ];
    for (const [what, get, read] of cases) {
      await assert.rejects(loadSkillAsset(skill, get, read), mismatch, what);
    }
    // Not served at its URI: undefined, and deliverHostAssets delivers it from the step payload (digest checked there).
    assert.equal(await loadSkillAsset(skill, () => Promise.resolve(undefined), readResource), undefined);
    mkdirSync(join(work, 'ws-unserved'));
    const unserved = await deliverHostAssets(new Workspace(join(work, 'ws-unserved')), setup, {
      projectLocal: false,
      readResource,
      getSkill: () => Promise.resolve(undefined),
    });
    const fromPayload = unserved.dynamicContext.find((d) => d.kind === 'skill' && d.id === skill.id);
    assert.ok(fromPayload !== undefined && fromPayload.skillUri === undefined, 'delivered from the payload');
    assert.equal(sha256Hex(fromPayload.content), skill.sha256);
    // A host asset whose digest is not the release's: the entry's digest does not match it.
    await assert.rejects(loadSkillAsset({ ...skill, sha256: '0'.repeat(64) }, getSkill, readResource), mismatch);
    // Through deliverHostAssets: refused, nothing delivered.
    mkdirSync(join(work, 'ws-refused'));
    const workspace = new Workspace(join(work, 'ws-refused'));
    await assert.rejects(
      deliverHostAssets(workspace, setup, { projectLocal: false, readResource, getSkill: cases[1]![1] }),
      mismatch,
    );
  });

  test('the skill URI of a host asset comes from its registry URI; other assets have none', () => {
    assert.match(skillUriOf(skill) ?? '', /^skill:\/\/rimthan\/[^/]+\/[^/]+\/[^/]+\/SKILL\.md$/);
    assert.equal(skillUriOf({ ...skill, kind: 'subagent' }), undefined);
    assert.equal(skillUriOf({ ...skill, uri: 'rimthan://bootstrap/agent-entrypoint' }), undefined);
  });
});
