/**
 * rimthan/participant on a real file system: workspace paths the server would refuse are refused first (absolute,
 * `..`, reserved folders), a symbolic link anywhere in a path is refused and never followed, write policies are kept,
 * output attestations state the digest of the bytes on disk, report sets that cannot match the bundle are refused
 * before they reach the server, and the session file is written atomically and checked when read.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sha256Hex } from '../../src/core/index.js';
import type { JsonObject } from '../../src/core/index.js';
import {
  assembleReports,
  checkSession,
  isParticipantError,
  outputsFromDisk,
  readOutput,
  readSession,
  writeOutput,
  writeSession,
  Workspace,
} from '../../src/participant/index.js';
import type { OutputPayload, StepPayload } from '../../src/participant/index.js';
import { tempDir } from './support/cli.js';

const out = (path: string, write_policy = 'create-or-replace-owned', media_type = 'text/markdown'): OutputPayload => ({
  artifact_id: path.replace(/[^a-z]/g, '').slice(0, 20) || 'artifact',
  path,
  media_type,
  max_bytes: 1024,
  write_policy,
  schema: null,
});

function refusedWith(code: string): (error: unknown) => boolean {
  return (error) => isParticipantError(error) && error.code === code;
}

const HOST = {
  harness: 'codex',
  adapter_id: 'codex-host',
  adapter_version: '1.1.0',
  host_capabilities: [],
  validator_capabilities: [],
};
const SHA = (c: string): string => sha256Hex(c);
const BUNDLE: JsonObject = {
  validators: [
    {
      validator_id: 'a',
      validator_version: '1.0.0',
      instruction_sha256: SHA('a'),
      input_artifacts: { x: SHA('x') },
      input_sha256: SHA('ax'),
      required: true,
      report_required: true,
    },
    {
      validator_id: 'b',
      validator_version: '1.0.0',
      instruction_sha256: SHA('b'),
      input_artifacts: { x: SHA('x') },
      input_sha256: SHA('bx'),
      required: true,
      report_required: true,
    },
    {
      validator_id: 'c',
      validator_version: '1.0.0',
      instruction_sha256: SHA('c'),
      input_artifacts: { x: SHA('x') },
      input_sha256: SHA('cx'),
      required: true,
      report_required: false,
    },
  ],
};
const passed = (
  id?: string,
  extra: JsonObject = {},
): { validator_id?: string; report: JsonObject; source: string } => ({
  ...(id === undefined ? {} : { validator_id: id }),
  report: { outcome: 'passed', findings: [], ...extra },
  source: `${id ?? 'report'}.json`,
});

describe('rimthan/participant: workspace paths, read-back and write policies', () => {
  const t = tempDir('rimthan-participant-lib-');
  after(() => t.cleanup());
  let n = 0;
  const fresh = (): { dir: string; ws: Workspace } => {
    const dir = join(t.dir, `ws-${n++}`);
    mkdirSync(dir);
    return { dir, ws: new Workspace(dir) };
  };

  test('paths outside the workspace or under a reserved folder are refused, naming the path', () => {
    const { ws } = fresh();
    for (const path of [
      '/etc/passwd',
      '../outside.md',
      'a/../../b.md',
      '.git/config',
      'docs/.rimthan/x',
      'a\\b.md',
      '',
    ]) {
      assert.throws(() => ws.write(path, Buffer.from('x')), refusedWith('unsafe_path'), path);
    }
  });

  test('a symlinked output path is refused by the library, wherever the link is', () => {
    const { dir, ws } = fresh();
    const elsewhere = join(t.dir, `elsewhere-${n}`);
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'notes.md'), '# notes\n');
    symlinkSync(elsewhere, join(dir, 'research'));
    assert.throws(
      () => readOutput(ws, out('research/notes.md')),
      (e) => refusedWith('symlink_refused')(e) && /research is a symbolic link/.test((e as Error).message),
    );
    assert.throws(() => writeOutput(ws, out('research/new.md'), '# new\n'), refusedWith('symlink_refused'));
    assert.deepEqual(readdirSync(elsewhere), ['notes.md'], 'nothing was written through the link');
    mkdirSync(join(dir, 'docs'));
    symlinkSync(join(elsewhere, 'notes.md'), join(dir, 'docs', 'linked.md'));
    assert.throws(() => readOutput(ws, out('docs/linked.md')), refusedWith('symlink_refused'));
  });

  test('the output attestation states the SHA-256 of the bytes on disk, read back', () => {
    const { dir, ws } = fresh();
    const output = out('research/findings.md');
    writeOutput(ws, output, '# Findings\n');
    writeFileSync(join(dir, 'research', 'findings.md'), '# Findings, edited after writing\n');
    const step = { step: { id: 'desk' }, outputs: [output] } as unknown as StepPayload;
    const { artifacts, attestation } = outputsFromDisk(ws, step);
    const entry = (attestation['outputs'] as JsonObject[])[0] as JsonObject;
    assert.equal(entry['content_sha256'], sha256Hex('# Findings, edited after writing\n'));
    assert.equal(artifacts[0]?.content, '# Findings, edited after writing\n');
    assert.equal(entry['symlink_free'], true);
    assert.equal(entry['owner_step'], 'desk');
  });

  test('write policies: create-owned is never replaced, must-exist is never written, missing files are named', () => {
    const { ws } = fresh();
    writeOutput(ws, out('a/owned.md', 'create-owned'), 'one\n');
    writeOutput(ws, out('a/owned.md', 'create-owned'), 'one\n'); // the same bytes again: fine
    assert.throws(
      () => writeOutput(ws, out('a/owned.md', 'create-owned'), 'two\n'),
      refusedWith('write_policy_violation'),
    );
    assert.throws(() => writeOutput(ws, out('a/given.md', 'must-exist'), 'x\n'), refusedWith('write_policy_violation'));
    assert.throws(
      () => readOutput(ws, out('a/given.md', 'must-exist')),
      (e) => refusedWith('output_missing')(e) && /must-exist/.test((e as Error).message),
    );
    const owned = out('a/owned.md', 'create-owned');
    assert.throws(
      () => readOutput(ws, owned, { [owned.artifact_id]: sha256Hex('earlier\n') }),
      refusedWith('write_policy_violation'),
    );
    writeOutput(ws, out('a/replace.md'), 'one\n');
    assert.equal(writeOutput(ws, out('a/replace.md'), 'two\n').content, 'two\n');
  });

  test('bytes that are not UTF-8 are refused before they reach the server', () => {
    const { dir, ws } = fresh();
    mkdirSync(join(dir, 'r'));
    writeFileSync(join(dir, 'r', 'bad.md'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    assert.throws(() => readOutput(ws, out('r/bad.md')), refusedWith('artifact_unreadable'));
  });
});

describe('rimthan/participant: the report set bound to the signed bundle', () => {
  test('reports are bound to the bundle and the checkpoint host', () => {
    const set = assembleReports(BUNDLE, HOST, [passed('b'), passed('a')]);
    assert.deepEqual(
      set.map((r) => r['validator_id']),
      ['a', 'b'],
    );
    assert.deepEqual(set[0], {
      validator_id: 'a',
      validator_version: '1.0.0',
      instruction_sha256: SHA('a'),
      input_artifacts: { x: SHA('x') },
      validated_by: { harness: 'codex', adapter_version: '1.1.0' },
      outcome: 'passed',
      findings: [],
    });
  });

  test('missing, extra, duplicate, stale and malformed reports are refused', () => {
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [passed('a')]),
      (e) => refusedWith('report_missing')(e) && /no report of b/.test((e as Error).message),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [passed('a'), passed('b'), passed('z')]),
      refusedWith('report_extra'),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [passed('a'), passed('b'), passed('c')]),
      (e) => refusedWith('report_extra')(e) && /already passed/.test((e as Error).message),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [passed('a'), passed('a'), passed('b')]),
      refusedWith('report_duplicate'),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [passed('a', { input_artifacts: { x: SHA('old') } }), passed('b')]),
      refusedWith('report_stale'),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [passed('a', { instruction_sha256: SHA('old') }), passed('b')]),
      refusedWith('report_stale'),
    );
    assert.throws(
      () =>
        assembleReports(BUNDLE, HOST, [
          passed('a', { validated_by: { harness: 'buzz', adapter_version: '1.1.0' } }),
          passed('b'),
        ]),
      refusedWith('report_stale'),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [passed('a', { outcome: 'maybe' }), passed('b')]),
      refusedWith('report_invalid'),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [passed('a', { verdict: 'fine' }), passed('b')]),
      refusedWith('report_invalid'),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [{ report: { outcome: 'passed' }, source: 'x.json' }]),
      refusedWith('report_invalid'),
    );
    assert.throws(
      () => assembleReports(BUNDLE, HOST, [{ validator_id: 'a', report: [], source: 'x.json' }]),
      refusedWith('report_invalid'),
    );
  });
});

describe('rimthan/participant: the session file', () => {
  const t = tempDir('rimthan-participant-session-');
  after(() => t.cleanup());

  test('a session file that is not a Rimthan session, or was edited, is refused with the reason', () => {
    const ws = new Workspace(t.dir);
    assert.equal(readSession(ws), undefined);
    assert.throws(
      () => checkSession({ checkpoint: {}, confirmed_state: {}, notes: 'x' }),
      (e) => refusedWith('session_invalid')(e) && /holds "notes"/.test((e as Error).message),
    );
    assert.throws(
      () => checkSession({ checkpoint: { token: 'x' }, confirmed_state: { state: {}, confirmations: {} } }),
      refusedWith('session_invalid'),
    );
    mkdirSync(join(t.dir, '.rimthan'));
    writeFileSync(join(t.dir, '.rimthan', 'workflow-session.json'), '{"checkpoint": {}, "checkpoint": {}}');
    assert.throws(() => readSession(ws), refusedWith('session_invalid'));
  });

  test('writing leaves no temporary file and a symlinked .rimthan is refused', () => {
    const dir = join(t.dir, 'linked');
    mkdirSync(dir);
    const target = join(t.dir, 'target');
    mkdirSync(target);
    symlinkSync(target, join(dir, '.rimthan'));
    const ws = new Workspace(dir);
    assert.throws(() => writeSession(ws, { checkpoint: {}, confirmed_state: {} }), refusedWith('symlink_refused'));
    assert.deepEqual(readdirSync(target), []);
    void readFileSync;
  });
});
