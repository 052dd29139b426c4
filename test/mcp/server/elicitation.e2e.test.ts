/**
 * A guided question answered through form elicitation over MCP 2026-07-28 (a real `rimthan serve`, the v2 client):
 * a client that declared form elicitation gets the route question as a form inside `continue_workflow`, and the
 * person's answer comes back in `structuredContent` as the answered question, from which a model's next call (made
 * from that JSON alone, as hosts show it) confirms the field and goes on; a client without it gets the plain
 * `input_required`.
 * On the wire, the request state is refused when tampered with, reused with other arguments, by another principal,
 * or after its lifetime.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { JsonObject } from '../../../src/core/index.js';
import { MAIN, spawnServe } from '../../support/serve-process.js';
import {
  createMcpServer,
  createWorkflowEngineProfile,
  startHttpTransport,
  storeReleaseProvider,
  WORKFLOW_ENGINE_MAX_REQUEST_BYTES,
} from '../../../src/mcp/index.js';
import { ACTIVE_RELEASE, tempReleaseStore, testSigner, valueOf } from '../support/connect.js';
import { elicitingClient, MODERN_REVISION, modernCall, modernHttp } from '../support/modern-client.js';
import { modernPost } from '../support/modern-wire.js';
import { confirmed, LIBRARY_HOST, Participant } from '../support/participant.js';
import { fromDeskResearchToCompletion, toRouteQuestion } from '../support/research-run.js';

const TOKEN = 'elicitation-token-a-0123456789abcdef';
const OTHER_TOKEN = 'elicitation-token-b-0123456789abcdef';
const CONTINUE = 'rimthan.continue_workflow';
const CONFIRMED_STATE = 'dev.rimthan/confirmed-state';

/** The route question's choices, as the form lists them. */
function firstChoice(form: ElicitRequestFormParams): string {
  const [choice] = routeChoices(form);
  assert.ok(choice !== undefined, 'the form offers a route');
  return choice;
}

function routeChoices(form: ElicitRequestFormParams): string[] {
  const field = form.requestedSchema.properties['research_route'] as { oneOf?: { const: string }[] } | undefined;
  assert.ok(field?.oneOf !== undefined, `a choice field for research_route in ${JSON.stringify(form)}`);
  return field.oneOf.map((c) => c.const);
}

/** Drives a participant (a plain 2026 client) to the route question; returns it and the continue arguments. */
async function atRouteQuestion(plain: Client): Promise<{ p: Participant; args: JsonObject }> {
  const p = new Participant((name, args) => modernCall(plain, name, args), LIBRARY_HOST);
  await toRouteQuestion(p);
  return { p, args: { checkpoint: p.checkpoint as JsonObject, confirmed_state: p.state } };
}

/**
 * The answered route question as a model sees it (the JSON of `structuredContent`): the question it was asked, at the
 * same checkpoint, narrowed to the person's answer, with a prompt saying what to send next.
 */
function assertAnsweredQuestion(value: JsonObject, args: JsonObject, chosen: string): void {
  assert.equal(value['status'], 'input_required', JSON.stringify(value).slice(0, 400));
  assert.deepEqual(value['checkpoint'], args['checkpoint'], 'the checkpoint the question was asked at');
  const question = value['question'] as JsonObject;
  assert.equal(question['field'], 'research_route');
  assert.deepEqual(
    (question['options'] as JsonObject[]).map((o) => o['value']),
    [chosen],
  );
  assert.match(question['prompt'] as string, /already answered .* next_confirmed_state/);
}

/**
 * A model's next call, from what it sent and what its host showed it of the result (`structuredContent`, as JSON:
 * never `_meta`): an answered question (one option) is confirmed as `next_confirmed_state`, as after an answer given
 * in the conversation; otherwise it goes on with the checkpoint shown and the confirmed state it holds (the next state
 * it sent, once accepted).
 */
function modelNextArguments(sent: JsonObject, structuredContent: unknown): JsonObject {
  const shown = JSON.parse(JSON.stringify(structuredContent)) as JsonObject;
  const held = (sent['next_confirmed_state'] ?? sent['confirmed_state']) as JsonObject;
  const question = shown['question'] as JsonObject | null;
  const options = (question?.['options'] ?? []) as JsonObject[];
  if (shown['status'] === 'input_required' && question !== null && options.length === 1) {
    const field = question['field'] as string;
    const next = confirmed({ ...(held['state'] as JsonObject), [field]: options[0]?.['value'] ?? null }, held);
    return { checkpoint: shown['checkpoint'] as JsonObject, confirmed_state: held, next_confirmed_state: next };
  }
  return { checkpoint: shown['checkpoint'] as JsonObject, confirmed_state: held };
}

/** Answers the route question through the form and checks the answer comes back as the model can act on it. */
async function answerRouteThroughForm(client: Client, asked: ElicitRequestFormParams[], args: JsonObject) {
  const result = await client.callTool({ name: CONTINUE, arguments: args });
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  assert.equal(asked.length, 1, 'the person was asked once');
  const value = valueOf(result);
  assertAnsweredQuestion(value, args, firstChoice(asked[0] as ElicitRequestFormParams));
  assert.equal((result._meta as JsonObject | undefined)?.[CONFIRMED_STATE], undefined, 'nothing only in _meta');
  return { result, value };
}

/** One raw 2026-07-28 tools/call of continue_workflow from a client declaring form elicitation; the JSON-RPC result. */
async function wireContinue(url: string, token: string, params: JsonObject): Promise<JsonObject> {
  const { status, response } = await modernPost(url, token, 'tools/call', params, { elicitation: { form: {} } });
  assert.equal(status, 200);
  assert.ok(response['result'] !== undefined, JSON.stringify(response));
  return response['result'] as JsonObject;
}

/** The tool error of a refused call, read from its text block (the shape every tool error has). */
function refusal(result: JsonObject): JsonObject {
  assert.equal(result['isError'], true, JSON.stringify(result));
  const [block] = result['content'] as { type: string; text: string }[];
  assert.equal(block?.type, 'text');
  return (JSON.parse(block.text) as JsonObject)['error'] as JsonObject;
}

describe('a guided question answered through form elicitation (MCP 2026-07-28)', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-elicit-'));
  const env = { HOME: work, XDG_STATE_HOME: work };
  const tokenFile = join(work, 'tokens');
  writeFileSync(tokenFile, `${TOKEN}\n${OTHER_TOKEN}\n`);
  after(() => rmSync(work, { recursive: true, force: true }));

  test('over Streamable HTTP: the form, the confirmed answer, decline, and a client without elicitation', async () => {
    const server = await spawnServe(['--transport', 'http', '--port', '0', '--token-file', tokenFile], env);
    const plain = await modernHttp(server.url, TOKEN);
    try {
      const { args } = await atRouteQuestion(plain);
      // Without form elicitation: today's input_required, unchanged.
      const unasked = await modernCall(plain, CONTINUE, args);
      assert.equal(unasked.value['status'], 'input_required');
      assert.equal((unasked.value['question'] as JsonObject)['field'], 'research_route');

      // Declined: the plain input_required result.
      const declinedAsks: ElicitRequestFormParams[] = [];
      const declining = elicitingClient(() => ({ action: 'decline' }), declinedAsks);
      await declining.connect(new StreamableHTTPClientTransport(new URL(server.url), authHeaders(TOKEN)));
      const declined = valueOf(await declining.callTool({ name: CONTINUE, arguments: args }));
      assert.equal(declinedAsks.length, 1);
      assert.equal(declined['status'], 'input_required');
      await declining.close();

      // Accepted: the answer is the field's participant confirmation and the workflow goes on.
      const asked: ElicitRequestFormParams[] = [];
      const person = elicitingClient(
        (form) => ({ action: 'accept', content: { research_route: firstChoice(form) } }),
        asked,
      );
      await person.connect(new StreamableHTTPClientTransport(new URL(server.url), authHeaders(TOKEN)));
      try {
        await answerRouteThroughForm(person, asked, args);
        assert.equal(asked[0]?.mode ?? 'form', 'form');
      } finally {
        await person.close();
      }
    } finally {
      await plain.close();
      await server.stop();
    }
    assert.doesNotMatch(server.stderr(), /Pick the queue|billing/, 'no participant data on stderr');
  });

  test('after a form answer, the model goes on from structuredContent alone (never _meta), as hosts show it', async () => {
    const server = await spawnServe(['--transport', 'http', '--port', '0', '--token-file', tokenFile], env);
    const plain = await modernHttp(server.url, TOKEN);
    const asked: ElicitRequestFormParams[] = [];
    const person = elicitingClient(() => ({ action: 'accept', content: { research_route: 'desk-research' } }), asked);
    await person.connect(new StreamableHTTPClientTransport(new URL(server.url), authHeaders(TOKEN)));
    try {
      const { args } = await atRouteQuestion(plain);
      const answered = await person.callTool({ name: CONTINUE, arguments: args });
      assert.equal(asked.length, 1, 'the person answered the form');
      // The model's next call, built from what it sent and the JSON of structuredContent, is accepted and takes the
      // person's route past the question.
      const nextArgs = modelNextArguments(args, answered.structuredContent);
      const next = await modernCall(plain, CONTINUE, nextArgs);
      assert.equal(next.isError, false, JSON.stringify(next.value));
      assert.equal(next.value['status'], 'active', JSON.stringify(next.value).slice(0, 400));
      const stepId = ((next.value['step'] as JsonObject | null)?.['step'] as JsonObject | undefined)?.['id'];
      assert.equal(stepId, 'desk-research', 'the route the person chose');
      // And on from there: the checkpoint binds the state the model sent, so the call after is accepted too.
      const after = await modernCall(plain, CONTINUE, modelNextArguments(nextArgs, next.value));
      assert.equal(after.isError, false, JSON.stringify(after.value));
      assert.equal(asked.length, 1, 'the person was never asked again');
    } finally {
      await person.close();
      await plain.close();
      await server.stop();
    }
  });

  test('the whole research-decision workflow to completed, its route question answered by the person through the form', async () => {
    const server = await spawnServe(['--transport', 'http', '--port', '0', '--token-file', tokenFile], env);
    const plain = await modernHttp(server.url, TOKEN);
    const asked: ElicitRequestFormParams[] = [];
    const person = elicitingClient(() => ({ action: 'accept', content: { research_route: 'desk-research' } }), asked);
    await person.connect(new StreamableHTTPClientTransport(new URL(server.url), authHeaders(TOKEN)));
    try {
      // The agent drives with a plain client up to the question, then goes on through the person's client.
      let via = plain;
      const p: Participant = new Participant(async (name, args) => {
        const result = await via.callTool({ name, arguments: args });
        return { isError: result.isError === true, value: valueOf(result) };
      }, LIBRARY_HOST);
      await toRouteQuestion(p);
      via = person;
      const answered = await p.continue();
      assert.equal(asked.length, 1, 'the person was asked the route question once');
      // The agent confirms what the person answered, as the answered question's prompt says.
      const [option] = (answered['question'] as JsonObject)['options'] as JsonObject[];
      const routed = await p.continue({
        ...(p.state['state'] as JsonObject),
        research_route: option?.['value'] ?? null,
      });
      assert.equal(asked.length, 1, 'and never asked again');
      assert.equal(routed['status'], 'active', JSON.stringify(routed).slice(0, 400));
      assert.equal(p.currentStep, 'desk-research');
      assert.equal((p.state['state'] as JsonObject)['research_route'], 'desk-research');
      assert.equal(
        ((p.state['confirmations'] as JsonObject)['research_route'] as JsonObject)['confirmed_by'],
        'participant',
      );
      assert.deepEqual(await fromDeskResearchToCompletion(p), ['validation_failed', 'advanced', 'completed']);
    } finally {
      await person.close();
      await plain.close();
      await server.stop();
    }
  });

  test('on the wire: request state tampered with, reused with other arguments or by another principal is refused', async () => {
    const server = await spawnServe(['--transport', 'http', '--port', '0', '--token-file', tokenFile], env);
    const plain = await modernHttp(server.url, TOKEN);
    try {
      const { args } = await atRouteQuestion(plain);
      const first = await wireContinue(server.url, TOKEN, { name: CONTINUE, arguments: args });
      assert.equal(first['resultType'], 'input_required', JSON.stringify(first));
      const state = first['requestState'] as string;
      assert.equal(typeof state, 'string');
      const form = ((first['inputRequests'] as JsonObject)['answer'] as JsonObject)[
        'params'
      ] as ElicitRequestFormParams;
      const content = { research_route: firstChoice(form) };
      const inputResponses = { answer: { action: 'accept', content } };
      const retry = (token: string, extra: JsonObject): Promise<JsonObject> =>
        wireContinue(server.url, token, { name: CONTINUE, arguments: args, inputResponses, ...extra });

      // One character of the signature changed (not the last one, whose spare bits would make it malformed instead).
      const at = state.length - 10;
      const flipped = `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
      const tampered = refusal(await retry(TOKEN, { requestState: flipped }));
      assert.deepEqual([tampered['code'], tampered['reason']], ['request_state_invalid', 'tampered']);

      const otherState = { ...(args['confirmed_state'] as JsonObject), state: { objective: 'another objective' } };
      const reused = refusal(
        await wireContinue(server.url, TOKEN, {
          name: CONTINUE,
          arguments: { ...args, confirmed_state: otherState },
          inputResponses,
          requestState: state,
        }),
      );
      assert.deepEqual([reused['code'], reused['reason']], ['request_state_invalid', 'other_arguments']);

      const stranger = refusal(await retry(OTHER_TOKEN, { requestState: state }));
      assert.deepEqual([stranger['code'], stranger['reason']], ['request_state_invalid', 'other_principal']);

      // The genuine answer still goes through, with the state the server handed out.
      const answered = await retry(TOKEN, { requestState: state });
      assert.notEqual(answered['isError'], true, JSON.stringify(answered));
      assertAnsweredQuestion(answered['structuredContent'] as JsonObject, args, content.research_route);
      for (const refused of [tampered, reused, stranger]) {
        assert.doesNotMatch(JSON.stringify(refused), /Pick the queue|billing/, 'no participant data in refusals');
      }
    } finally {
      await plain.close();
      await server.stop();
    }
  });

  test('on the wire: a request state replayed after its lifetime is refused as expired', async () => {
    // In process, so the server's clock can be moved: the profile's clock is the one seam (checkpoints keep 30 days).
    const releases = tempReleaseStore(ACTIVE_RELEASE);
    let offsetMs = 0;
    const clock = { now: () => new Date(Date.now() + offsetMs) };
    const profile = createWorkflowEngineProfile({
      releases: storeReleaseProvider(releases.store),
      signer: testSigner(),
      clock,
      requestStateTtlMs: 60_000,
    });
    const endpoint = await startHttpTransport({
      port: 0,
      maxRequestBytes: WORKFLOW_ENGINE_MAX_REQUEST_BYTES,
      bearerTokens: [TOKEN],
      serverFor: (principal) => createMcpServer(profile, { principalId: principal.id }),
    });
    const plain = await modernHttp(endpoint.url, TOKEN);
    try {
      const { args } = await atRouteQuestion(plain);
      const first = await wireContinue(endpoint.url, TOKEN, { name: CONTINUE, arguments: args });
      assert.equal(first['resultType'], 'input_required', JSON.stringify(first));
      const form = ((first['inputRequests'] as JsonObject)['answer'] as JsonObject)[
        'params'
      ] as ElicitRequestFormParams;
      const answer = {
        name: CONTINUE,
        arguments: args,
        inputResponses: { answer: { action: 'accept', content: { research_route: firstChoice(form) } } },
        requestState: first['requestState'] as string,
      };
      offsetMs = 60_000; // exactly the lifetime: no longer valid
      const expired = refusal(await wireContinue(endpoint.url, TOKEN, answer));
      assert.deepEqual([expired['code'], expired['reason']], ['request_state_invalid', 'expired']);
      // The question is asked afresh, with a new state that is accepted.
      const again = await wireContinue(endpoint.url, TOKEN, { name: CONTINUE, arguments: args });
      assert.equal(again['resultType'], 'input_required');
      const answered = await wireContinue(endpoint.url, TOKEN, {
        ...answer,
        requestState: again['requestState'] as string,
      });
      assert.notEqual(answered['isError'], true, JSON.stringify(answered));
      // The answer was taken: it comes back as the answered question, at the checkpoint it was asked at.
      assertAnsweredQuestion(answered['structuredContent'] as JsonObject, args, firstChoice(form));
    } finally {
      await plain.close();
      await endpoint.close();
      releases.cleanup();
    }
  });

  test('over stdio: the route question answered through the form', async () => {
    const plainTransport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'serve'],
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stderr: 'pipe',
    });
    const plain = new Client(
      { name: 'plain', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN_REVISION } } },
    );
    await plain.connect(plainTransport);
    const asked: ElicitRequestFormParams[] = [];
    const person = elicitingClient(
      (form) => ({ action: 'accept', content: { research_route: firstChoice(form) } }),
      asked,
    );
    await person.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'serve'],
        env: { PATH: process.env['PATH'] ?? '', ...env },
        stderr: 'pipe',
      }),
    );
    try {
      const { args } = await atRouteQuestion(plain);
      await answerRouteThroughForm(person, asked, args);
    } finally {
      await person.close();
      await plain.close();
    }
  });
});

function authHeaders(token: string): { requestInit: { headers: Record<string, string> } } {
  return { requestInit: { headers: { Authorization: `Bearer ${token}` } } };
}
