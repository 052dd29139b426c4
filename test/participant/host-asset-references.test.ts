/**
 * After setup the server sends host assets and the host adapter as references (no `content`, same `uri` and
 * `sha256`): rimthan/participant delivers them from the resource at `uri` or from the project-local file setup wrote,
 * checks the digest either way, and refuses a resource or a file that no longer has it. Real server, real resources.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { deliverHostAssets, isParticipantError, stepPayloadOf, Workspace } from '../../src/participant/index.js';
import type { DeliveredAssets, StepPayload } from '../../src/participant/index.js';
import { RESEARCH_RELEASE, callTool, connect, tempReleaseStore, workflowProfile } from '../mcp/support/connect.js';
import { HOST_CAPABILITIES, Participant } from '../mcp/support/participant.js';
import { tempDir } from './support/cli.js';

type Connection = Awaited<ReturnType<typeof connect>>;

describe('host asset references after setup', () => {
  const releases = tempReleaseStore(RESEARCH_RELEASE);
  const dir = tempDir('rimthan-references-');
  let conn: Connection;
  let setup: StepPayload;
  let interview: StepPayload;
  let atSetup: DeliveredAssets;
  const workspace = new Workspace(dir.dir);
  const readResource = async (uri: string): Promise<string | undefined> => {
    const read = await conn.client.readResource({ uri });
    const first = read.contents[0] as { text?: string } | undefined;
    return first?.text;
  };

  before(async () => {
    conn = await connect(workflowProfile(releases.store));
    const p = new Participant((name, args) => callTool(conn.client, name, args), {
      host_capabilities: [...HOST_CAPABILITIES, 'project-local-assets'],
    });
    await p.start();
    setup = stepPayloadOf(p.step);
    atSetup = await deliverHostAssets(workspace, setup, { readResource });
    await p.passStep();
    assert.equal(p.currentStep, 'interview');
    interview = stepPayloadOf(p.step);
  });
  after(async () => {
    await conn.close();
    releases.cleanup();
    dir.cleanup();
  });

  test('setup carries every body; the next step carries references with the same uri and sha256', () => {
    assert.ok(setup.host_assets.every((a) => typeof a.content === 'string'));
    assert.equal(typeof setup.host_adapter.content, 'string');
    assert.ok(interview.host_assets.length > 0, 'the interview step names a host asset');
    for (const asset of [...interview.host_assets, interview.host_adapter]) {
      assert.equal(asset.content, undefined, `${asset.uri} is a reference`);
      const same = [...setup.host_assets, setup.host_adapter].find((a) => a.uri === asset.uri);
      assert.equal(same?.sha256, asset.sha256, `${asset.uri} has the digest setup attested`);
    }
    for (const asset of interview.host_assets) {
      if (asset.project_local !== null) assert.equal(asset.project_local.content, undefined);
    }
  });

  test('the participant delivers the references: the same text as setup, the project-local file reused', async () => {
    assert.ok(atSetup.written.length > 0, 'setup wrote project-local files');
    const later = await deliverHostAssets(workspace, interview, { readResource });
    const text = (d: DeliveredAssets, id: string): string | undefined =>
      d.dynamicContext.find((a) => a.id === id)?.content;
    assert.equal(text(later, interview.host_adapter.id), setup.host_adapter.content);
    for (const d of later.deliveries) {
      const before = atSetup.deliveries.find((s) => s.asset_id === d.asset_id && s.kind === d.kind);
      assert.deepEqual(d, before, `${d.kind} ${d.asset_id} is delivered as setup delivered it`);
    }
  });

  test('a resource or a project-local file without the attested digest is refused, naming it', async () => {
    const wrongText = (): Promise<string> => Promise.resolve('not the asset');
    await assert.rejects(
      deliverHostAssets(workspace, interview, { readResource: wrongText, projectLocal: false }),
      (e) => isParticipantError(e) && e.code === 'asset_digest_mismatch' && /served digest/.test(e.message),
    );
    const local = interview.host_assets.find((a) => a.project_local !== null)?.project_local;
    assert.ok(local, 'the interview step offers a project-local file');
    writeFileSync(join(dir.dir, local.path), 'edited\n');
    await assert.rejects(
      deliverHostAssets(workspace, interview, { readResource }),
      (e) => isParticipantError(e) && e.code === 'asset_digest_mismatch' && e.message.includes(local.path),
    );
  });
});
