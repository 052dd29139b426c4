/**
 * Tool contracts are checked when a profile is built, and a result that breaks its own output schema is our bug: an
 * internal error, never "invalid params" (conventions: wire errors vs local errors).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../../../src/core/index.js';
import { RimthanError } from '../../../src/core/index.js';
import { compileToolContracts, ProfileName } from '../../../src/mcp/index.js';
import type { McpProfile, ToolContract, ToolOutcome } from '../../../src/mcp/index.js';
import { connect, valueOf } from '../support/connect.js';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const closed = (properties: Record<string, JsonObject>): JsonObject => ({
  $schema: DIALECT,
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const good: ToolContract = {
  name: 'echo',
  description: 'Echoes a word.',
  inputSchema: closed({ word: { type: 'string', maxLength: 16 } }),
  outputSchema: closed({ word: { type: 'string' } }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

describe('tool contracts', () => {
  test('a contract that is not a closed 2020-12 object schema stops the profile from being built', () => {
    const broken: ToolContract[] = [
      { ...good, inputSchema: { ...good.inputSchema, type: 'array' } },
      { ...good, inputSchema: { $schema: DIALECT, type: 'object', properties: {} } },
      { ...good, outputSchema: { ...good.outputSchema, minProperties: -1 } },
      { ...good, outputSchema: { ...good.outputSchema, notAKeyword: true } },
      { ...good, description: ' ' },
    ];
    for (const contract of broken) {
      assert.throws(
        () => compileToolContracts([contract]),
        (e: unknown) => e instanceof RimthanError && e.code === 'invalid_tool_contract',
      );
    }
    assert.throws(() => compileToolContracts([good, good]), { code: 'invalid_tool_contract' });
    assert.equal(compileToolContracts([good]).length, 1);
  });

  async function serve(outcome: ToolOutcome | Error) {
    const [contract] = compileToolContracts([good]);
    assert.ok(contract);
    const profile: McpProfile = {
      name: ProfileName.Runs,
      tools: [
        {
          contract,
          handler: () => (outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome)),
        },
      ],
      maxArgumentBytes: 1024,
    };
    return connect(profile);
  }

  async function internalError(outcome: ToolOutcome | Error): Promise<void> {
    const conn = await serve(outcome);
    try {
      await conn.client.callTool({ name: 'echo', arguments: { word: 'hi' } });
      assert.fail('expected a JSON-RPC error');
    } catch (error) {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32603);
      assert.doesNotMatch(error.message, /secret|stack|\.ts|\.js/);
    } finally {
      await conn.close();
    }
  }

  test('a result that breaks the output schema is an internal error, not invalid params', async () => {
    await internalError({ ok: true, value: { word: 42 } });
  });

  test('an unexpected exception is an internal error that carries nothing of the exception', async () => {
    await internalError(new TypeError('secret participant text'));
  });

  test('a success carries structuredContent and the same value as canonical JSON text', async () => {
    const conn = await serve({ ok: true, value: { word: 'hi' } });
    try {
      const result = await conn.client.callTool({ name: 'echo', arguments: { word: 'hi' } });
      assert.deepEqual(result.structuredContent, { word: 'hi' });
      assert.deepEqual(result.content, [{ type: 'text', text: '{"word":"hi"}' }]);
      const tooLong = await conn.client.callTool({ name: 'echo', arguments: { word: 'x'.repeat(2000) } });
      assert.equal(tooLong.isError, true);
      assert.equal((valueOf(tooLong)['error'] as JsonObject)['code'], 'invalid_arguments');
    } finally {
      await conn.close();
    }
  });
});
