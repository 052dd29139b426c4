/**
 * The input schemas tools/list shows a host's model (guided/contracts/host-view.ts) are views of the full contracts:
 * they accept every call the full contract accepts (so no host that checks arguments refuses a valid call), keep the
 * same closed root with the same properties and required keys, show the model the shapes it authors (the host
 * declaration, attestations, reports), and stay small: every one within Codex's 5,000-byte budget with room to spare,
 * the four within the 17 KB a host sends its model. The server keeps validating against the full contracts, so its
 * verdicts do not move (contracts-equivalence.test.ts).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { SchemaCompiler } from '../../../src/core/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { GUIDED_TOOL_CONTRACTS } from '../../../src/guided/index.js';
import { recordResearchRun } from '../fixtures/recorded-run.js';
import type { RecordedCalls } from '../fixtures/recorded-run.js';
import { instanceOf, mutated } from '../fixtures/schema-instances.js';

const compiler = new SchemaCompiler();
const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** Codex keeps a tool's schema whole only within 5,000 bytes; we keep a margin for its own additions. */
const PER_TOOL_BUDGET = 4_600;

describe('the input schemas hosts show their models', () => {
  let recorded: RecordedCalls = new Map();
  before(async () => {
    recorded = await recordResearchRun();
  });

  for (const contract of GUIDED_TOOL_CONTRACTS) {
    const full = compiler.compile(contract.inputSchema);
    const listed = compiler.compile(contract.listedInputSchema);

    test(`${contract.name}: accepts every call the full contract accepts`, () => {
      const tally = { both: 0, fullRefused: 0 };
      const check = (value: unknown): void => {
        if (full(value).ok) {
          assert.equal(
            listed(value).ok,
            true,
            `listed view refuses a valid call: ${JSON.stringify(value).slice(0, 500)}`,
          );
          tally.both += 1;
        } else tally.fullRefused += 1;
      };
      fc.assert(fc.property(instanceOf(contract.inputSchema), check), { numRuns: 200 });
      const seeds = recorded.get(contract.name)?.args ?? [];
      assert.ok(seeds.length > 0, `the recorded run called ${contract.name}`);
      for (const seed of seeds) check(seed);
      fc.assert(
        fc.property(
          fc.constantFrom(...seeds).chain((seed) => mutated(seed)),
          check,
        ),
        { numRuns: 500 },
      );
      assert.ok(tally.both > seeds.length, `${contract.name}: valid mutations were checked (${String(tally.both)})`);
      assert.ok(tally.fullRefused > 0, `${contract.name}: some mutations are refused by the full contract`);
    });

    test(`${contract.name}: the same closed root, properties and required keys`, () => {
      const view = contract.listedInputSchema;
      assert.equal(view['type'], 'object');
      assert.equal(view['additionalProperties'], false);
      assert.deepEqual(
        Object.keys(view['properties'] as JsonObject),
        Object.keys(contract.inputSchema['properties'] as JsonObject),
      );
      assert.deepEqual(view['required'], contract.inputSchema['required']);
      assert.equal(JSON.stringify(view).includes('$ref'), false, 'no reference is left for a host to resolve or drop');
      assert.ok(bytes(view) <= PER_TOOL_BUDGET, `${contract.name}: ${String(bytes(view))} bytes`);
    });
  }

  test('the model sees the shapes it authors and a plain object for what it copies back', () => {
    const byName = new Map(GUIDED_TOOL_CONTRACTS.map((c) => [c.name, c.listedInputSchema]));
    const props = (tool: string): JsonObject => (byName.get(tool as never) as JsonObject)['properties'] as JsonObject;
    const host = props('rimthan.start_workflow')['host'] as JsonObject;
    assert.deepEqual(((host['properties'] as JsonObject)['harness'] as JsonObject)['enum'], [
      'codex',
      'claude-code',
      'cowork',
      'buzz',
    ]);
    const prepare = props('rimthan.prepare_step_validation');
    const output = (
      ((prepare['output_attestation'] as JsonObject)['properties'] as JsonObject)['outputs'] as JsonObject
    )['items'] as JsonObject;
    assert.ok(Object.keys(output['properties'] as JsonObject).includes('content_sha256'));
    assert.equal(output['additionalProperties'], false);
    for (const tool of [
      'rimthan.continue_workflow',
      'rimthan.prepare_step_validation',
      'rimthan.submit_step_validation',
    ])
      assert.deepEqual(Object.keys(props(tool)['checkpoint'] as JsonObject).sort(), ['description', 'type']);
    const reports = props('rimthan.submit_step_validation')['reports'] as JsonObject;
    assert.ok(Object.keys((reports['items'] as JsonObject)['properties'] as JsonObject).includes('findings'));
  });

  test('the four together fit in what a host sends its model (17 KB with names and descriptions)', () => {
    const sent = GUIDED_TOOL_CONTRACTS.reduce(
      (sum, c) => sum + bytes({ name: c.name, description: c.description, input_schema: c.listedInputSchema }),
      0,
    );
    assert.ok(sent <= 17 * 1024, `${String(sent)} bytes`);
  });
});
