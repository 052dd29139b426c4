/**
 * End to end over stdio: a harness launches `rimthan serve` with no configuration and drives the whole packaged
 * research-decision workflow; the key kept in the state directory lets a restarted process continue a checkpoint
 * (spec: checkpoints-data-perimeter.md "Release-pinned resume ... after active release and process change").
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JsonObject } from '../../../src/core/index.js';
import { ACTIVE_RELEASE, callTool, NEW_RELEASE, tempReleaseStore } from '../support/connect.js';
import { LIBRARY_HOST, Participant } from '../support/participant.js';
import { fromRouteToCompletion, toRouteQuestion } from '../support/research-run.js';
import { connectServer, ParticipantSession, readSession } from '../../../src/participant/index.js';
import {
  driveResearch,
  fromRouteQuestion,
  HOST,
  OBJECTIVE,
  stdioServe,
  workspaceAt,
} from '../../support/participant-drive.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));

interface Served {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

async function serve(stateHome: string): Promise<Served> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve'],
    env: { PATH: process.env['PATH'] ?? '', HOME: stateHome, XDG_STATE_HOME: stateHome },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

describe('rimthan serve over stdio', () => {
  const stateA = mkdtempSync(join(tmpdir(), 'rimthan-state-a-'));
  const stateB = mkdtempSync(join(tmpdir(), 'rimthan-state-b-'));
  const releases = tempReleaseStore(NEW_RELEASE);
  after(() => {
    rmSync(stateA, { recursive: true, force: true });
    rmSync(stateB, { recursive: true, force: true });
    releases.cleanup();
  });

  test('a pinned checkpoint resumes on its release after a newer release is activated and the process is replaced', async () => {
    // The workflow is a fixture here, driven through rimthan/participant: its session file is what resumes.
    // Process one serves research-2026.11.1 as the active release; the participant gets to the route question there.
    const target = stdioServe(stateB, undefined, ['--releases', releases.dir]);
    const workspace = workspaceAt(join(stateB, 'repository'));
    const first = await connectServer(target);
    try {
      const { session } = await driveResearch(new ParticipantSession(first, workspace), 'route-question');
      assert.equal(session.checkpoint['registry_release'], NEW_RELEASE);
    } finally {
      await first.close();
    }
    // The operator activates the newer release, and a new process (same key, same release folder) takes over.
    releases.store.activate(ACTIVE_RELEASE);
    assert.notEqual(ACTIVE_RELEASE, NEW_RELEASE);
    const second = await connectServer(target);
    try {
      const fresh = new ParticipantSession(second, workspaceAt(join(stateB, 'another-repository')));
      assert.equal(
        (await fresh.start({ workflow: 'research', host: HOST, state: { objective: OBJECTIVE } }))['status'],
        'active',
      );
      const started = readSession(fresh.workspace)?.checkpoint;
      assert.equal(started?.['registry_release'], ACTIVE_RELEASE, 'new starts use the newly active release');
      assert.deepEqual(started?.['workflow'], { id: 'research-decision', version: '1.4.0' }, 'the library carries it');

      const resumed = await fromRouteQuestion(new ParticipantSession(second, workspace), 'completed', {
        failOnce: ['evidence-quality'],
      });
      assert.deepEqual(resumed.submissions, ['validation_failed', 'advanced', 'completed']);
      assert.equal(
        resumed.session.checkpoint['registry_release'],
        NEW_RELEASE,
        'every checkpoint stayed on its pinned release',
      );
      assert.deepEqual(resumed.session.checkpoint['workflow'], { id: 'research-decision', version: '1.2.0' });
      const pinned = await second.readResource(
        `rimthan://registry/${NEW_RELEASE}/workflows/research-decision/1.2.0/steps/select-route`,
      );
      const step = JSON.parse(pinned ?? '{}') as JsonObject;
      assert.deepEqual(step['outputs'], [], 'the pinned release is served as it was (select-route ungated there)');
    } finally {
      await second.close();
    }
  });

  test('drives the packaged research-decision workflow to completed across a process restart', async () => {
    const first = await serve(stateA);
    const p = new Participant((name, args) => callTool(first.client, name, args), LIBRARY_HOST);
    try {
      const { tools } = await first.client.listTools();
      assert.equal(tools.length, 4);
      await toRouteQuestion(p);
    } finally {
      await first.close();
    }
    assert.match(first.stderr(), /generated a new signing key/);
    const keyFile = join(stateA, 'rimthan', 'signing-key.json');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(statSync(join(stateA, 'rimthan')).mode & 0o777, 0o700);

    const keyBefore = readFileSync(keyFile, 'utf8');

    const second = await serve(stateA);
    try {
      const resumed = new Participant((name, args) => callTool(second.client, name, args), LIBRARY_HOST);
      resumed.state = p.state;
      resumed.checkpoint = p.checkpoint;
      resumed.step = p.step;
      assert.deepEqual(await fromRouteToCompletion(resumed), ['validation_failed', 'advanced', 'completed']);
    } finally {
      await second.close();
    }
    assert.match(second.stderr(), /signing checkpoints with the key in/);
    assert.equal(readFileSync(keyFile, 'utf8'), keyBefore, 'the restarted process reused the key');
    assert.doesNotMatch(first.stderr() + second.stderr(), /Pick the queue|billing/, 'no participant data on stderr');
  });
});
