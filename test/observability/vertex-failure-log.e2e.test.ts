/**
 * A run whose vertex throws is the flow's failure, not a fault of ours (issue 20, item 16): `rimthan serve --profile
 * runs` logs it as `vertex failed` / `vertex_failed` with the flow and vertex names and the error's code, never its
 * message (which may quote run data), and not as `internal fault in supervisor`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { callTool } from '../mcp/support/connect.js';
import { eventually, httpClient, spawnServe } from '../support/serve-process.js';

const RUNS = pathToFileURL(fileURLToPath(new URL('../../src/runs/index.js', import.meta.url))).href;
const MARKER = 'vertex-marker-8d21c0f4a9';
const TOKEN = 'vertex-participant-token-0123456789';

/** A flow whose one vertex throws an error with a code, its message quoting the run's input. */
const FAILING_FLOWS = `import { defineFlow } from ${JSON.stringify(RUNS)};
export const flows = [
  defineFlow({
    name: 'failing_flow',
    version: 'v1',
    description: 'Fails once.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 64 } },
    },
    graph: {
      start: 'call_upstream',
      vertices: {
        call_upstream: {
          label: 'Call upstream',
          run: async (ctx) => {
            throw Object.assign(new Error('upstream refused ' + ctx.input.name), { code: 'upstream_down' });
          },
        },
      },
    },
  }),
];
`;

describe('a failing vertex in the serve log', { timeout: 120_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-vertex-log-'));
  const flows = join(work, 'flows.mjs');
  writeFileSync(flows, FAILING_FLOWS);
  after(() => rmSync(work, { recursive: true, force: true }));

  for (const format of ['json', 'text'] as const) {
    test(`--log-format ${format}: vertex failed, with flow, vertex and code, no message, no fault`, async () => {
      const serve = await spawnServe(
        [
          ...['--profile', 'runs', '--transport', 'http', '--port', '0', '--log-format', format],
          ...['--store', `sqlite:${join(work, `${format}.db`)}`, '--flows', flows],
        ],
        { RIMTHAN_MCP_BEARER_TOKEN: TOKEN, HOME: work, XDG_STATE_HOME: work },
        { cwd: work },
      );
      try {
        const client = await httpClient(serve.url, TOKEN);
        try {
          const started = await callTool(client, 'workflow_run_start', {
            definition_name: 'failing_flow',
            definition_version: 'v1',
            input: { name: MARKER },
          });
          assert.equal(started.isError, false, JSON.stringify(started.value));
          const runId = started.value['run_id'] as string;
          // A vertex that threw leaves the run interrupted (resume or cancel).
          await eventually('the run stops at the failed vertex', async () => {
            const got = await callTool(client, 'workflow_run_get', { run_id: runId });
            return got.value['run_status'] === 'interrupted';
          });
        } finally {
          await client.close();
        }
      } finally {
        await serve.stop();
      }
      const stderr = serve.stderr();
      assert.doesNotMatch(stderr, new RegExp(MARKER), 'the message (run data) is never logged');
      assert.doesNotMatch(stderr, /internal fault|"event":"fault"/);
      if (format === 'text') {
        assert.match(stderr, /^rimthan: vertex failed: failing_flow call_upstream: Error \(upstream_down\)$/m);
      } else {
        const line = stderr.split('\n').find((l) => l.includes('"vertex_failed"')) ?? '';
        const event = JSON.parse(line) as Record<string, string>;
        assert.deepEqual(
          { ...event, time: undefined },
          {
            time: undefined,
            level: 'warn',
            event: 'vertex_failed',
            flow: 'failing_flow',
            vertex: 'call_upstream',
            kind: 'upstream_down',
          },
        );
      }
    });
  }
});
