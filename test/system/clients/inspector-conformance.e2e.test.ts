/**
 * Two third-party 2025-era checkers, run as real child processes against a real `rimthan serve --transport http` (and
 * the Inspector also over stdio): the MCP Inspector CLI 2.12.0 drives the whole research-decision workflow through
 * its `tools/call`, and reads the resources, templates and prompt; the conformance suite 0.1.13 runs every server
 * scenario that applies to our surface. The scenarios that do not apply are named with the reason, and the test fails
 * when the suite lists a scenario this file does not account for.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import { MAIN, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';
import { LIBRARY_HOST, Participant } from '../../mcp/support/participant.js';
import type { CallOutcome } from '../../mcp/support/participant.js';
import { fromRouteToCompletion, toRouteQuestion } from '../../mcp/support/research-run.js';

const BIN = fileURLToPath(new URL('../../../../node_modules/.bin/', import.meta.url));
const TOKEN = 'inspector-token-0123456789abcdef01';

/** Conformance server scenarios that work on any server with our capabilities (tools, resources, prompts). */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
];

/** Scenarios that need the suite's own fixture server (its tools, resources or prompts) or a capability we lack. */
const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'logging-set-level': 'we declare no logging capability (stderr only)',
  'completion-complete': 'we declare no completions capability',
  'tools-call-simple-text': "needs the fixture's test_simple_text tool",
  'tools-call-image': "needs the fixture's image tool",
  'tools-call-audio': "needs the fixture's audio tool",
  'tools-call-embedded-resource': "needs the fixture's embedded-resource tool",
  'tools-call-mixed-content': "needs the fixture's mixed-content tool",
  'tools-call-with-logging': "needs the fixture's logging tool and the logging capability",
  'tools-call-error': "needs the fixture's error tool",
  'tools-call-with-progress': "needs the fixture's progress tool",
  'tools-call-sampling': "needs the fixture's sampling tool (we never send sampling)",
  'tools-call-elicitation': "needs the fixture's elicitation tool",
  'json-schema-2020-12': "needs the fixture's json_schema_2020_12_tool",
  'elicitation-sep1034-defaults': "needs the fixture's elicitation tool",
  'server-sse-polling': 'needs SSE streams with an event store; our HTTP is stateless and answers JSON',
  'server-sse-multiple-streams': 'needs GET SSE streams; our HTTP is POST only',
  'elicitation-sep1330-enums': "needs the fixture's elicitation tool",
  'resources-read-text': "needs the fixture's test://static-text resource",
  'resources-read-binary': "needs the fixture's test://static-binary resource",
  'resources-templates-read': "needs the fixture's test://template/{id}/data template",
  'resources-subscribe': 'we declare subscribe: false',
  'resources-unsubscribe': 'we declare subscribe: false',
  'prompts-get-simple': "needs the fixture's test_simple_prompt",
  'prompts-get-with-args': "needs the fixture's test_prompt_with_arguments",
  'prompts-get-embedded-resource': "needs the fixture's embedded-resource prompt",
  'prompts-get-with-image': "needs the fixture's image prompt",
};

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(bin: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      join(BIN, bin),
      [...args],
      { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** One Inspector CLI call; `target` is `[URL, options...]` or `[options..., '--', command...]`. Exit 5 is a tool error (its result still printed). */
async function inspect(
  target: readonly string[],
  args: readonly string[],
): Promise<{ code: number; result: JsonObject }> {
  // A generous connect timeout: the stdio target is a fresh process that loads and checks the release first.
  const options = ['--format', 'json', '-q', '--connect-timeout', '120000', ...args];
  const ran = await run(
    'mcp-inspector',
    target.includes('--') ? ['--cli', ...options, ...target] : ['--cli', ...target, ...options],
  );
  assert.ok(ran.code === 0 || ran.code === 5, `inspector exit ${ran.code}: ${ran.stderr.slice(0, 400)}`);
  const body = JSON.parse(ran.stdout) as { result?: JsonObject };
  assert.ok(body.result !== undefined, ran.stdout.slice(0, 400));
  return { code: ran.code, result: body.result };
}

function inspectorCaller(target: readonly string[]): (name: string, args: JsonObject) => Promise<CallOutcome> {
  return async (name, args) => {
    const { code, result } = await inspect(target, [
      '--method',
      'tools/call',
      '--tool-name',
      name,
      '--tool-args-json',
      JSON.stringify(args),
    ]);
    const value = (result['structuredContent'] ??
      JSON.parse((result['content'] as { text: string }[])[0]?.text ?? '{}')) as JsonObject;
    assert.equal(code === 5, result['isError'] === true, 'exit 5 exactly for a tool error');
    return { isError: result['isError'] === true, value };
  };
}

describe('MCP Inspector CLI 2.12.0 and the conformance suite 0.1.13 (2025-era clients)', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-inspector-'));
  const env = { HOME: work, XDG_STATE_HOME: work };
  let authed: ServeProcess;
  let open: ServeProcess;

  before(async () => {
    authed = await spawnServe(['--transport', 'http', '--port', '0'], { ...env, RIMTHAN_MCP_BEARER_TOKEN: TOKEN });
    // The conformance suite sends no credentials: a loopback instance without a token.
    open = await spawnServe(['--transport', 'http', '--port', '0'], env);
  });
  after(async () => {
    await authed.stop();
    await open.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('the Inspector drives research-decision to completed over HTTP with a bearer token', async () => {
    const target = [authed.url, '--header', `Authorization: Bearer ${TOKEN}`];
    const p = new Participant(inspectorCaller(target), LIBRARY_HOST);
    await toRouteQuestion(p);
    assert.deepEqual(await fromRouteToCompletion(p), ['validation_failed', 'advanced', 'completed']);
  });

  test('the Inspector lists and reads the tools, resources, templates and prompt over stdio', async () => {
    const target = ['-e', `HOME=${work}`, '-e', `XDG_STATE_HOME=${work}`, '--', process.execPath, MAIN, 'serve'];
    const tools = (await inspect(target, ['--method', 'tools/list'])).result['tools'] as JsonObject[];
    assert.deepEqual(
      tools.map((t) => t['name']),
      [
        'rimthan.start_workflow',
        'rimthan.continue_workflow',
        'rimthan.prepare_step_validation',
        'rimthan.submit_step_validation',
      ],
    );
    const templates = (await inspect(target, ['--method', 'resources/templates/list'])).result[
      'resourceTemplates'
    ] as JsonObject[];
    assert.equal(templates.length, 5);
    const resources = (await inspect(target, ['--method', 'resources/list'])).result['resources'] as JsonObject[];
    assert.ok(resources.some((r) => r['uri'] === 'rimthan://bootstrap/agent-entrypoint'));
    const read = await inspect(target, ['--method', 'resources/read', '--uri', 'rimthan://bootstrap/agent-entrypoint']);
    assert.match((read.result['contents'] as { text: string }[])[0]?.text ?? '', /Rimthan/);
    const prompt = await inspect(target, ['--method', 'prompts/get', '--prompt-name', 'rimthan.start_workflow']);
    assert.ok((prompt.result['messages'] as JsonObject[]).length > 0);
  });

  test('every conformance server scenario is run or named as not applicable', async () => {
    const listed = await run('conformance', ['list']);
    assert.equal(listed.code, 0, listed.stderr);
    const server = listed.stdout.slice(0, listed.stdout.indexOf('Client scenarios'));
    const names = [...server.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1] ?? '');
    assert.deepEqual([...names].sort(), [...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  for (const scenario of APPLICABLE) {
    test(`conformance: ${scenario}`, async () => {
      const ran = await run('conformance', ['server', '--url', open.url, '--scenario', scenario]);
      // The suite exits 1 on a failure and on a warning alike.
      assert.equal(ran.code, 0, `${ran.stdout.slice(-1500)}\n${ran.stderr.slice(-500)}`);
      assert.match(ran.stdout, /0 failed, 0 warnings/);
    });
  }
});
