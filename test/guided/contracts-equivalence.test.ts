/**
 * The described, de-duplicated contracts accept exactly what the frozen 1.0.0 contracts accepted
 * (test/guided/fixtures/contracts-1.0.0.json): instances generated from either schema, and mutations of the arguments
 * and results of a real research-decision run (dropped required keys, unknown keys, wrong types, strings and arrays
 * past their limits, values nested too deep), get the same verdict from both.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { packageRoot, SchemaCompiler } from '../../src/core/index.js';
import type { CompiledSchema, JsonObject, JsonValue } from '../../src/core/index.js';
import { GUIDED_TOOL_CONTRACTS } from '../../src/guided/index.js';
import { connect, tempReleaseStore, valueOf, workflowProfile } from '../mcp/support/connect.js';
import { Participant } from '../mcp/support/participant.js';
import { fromRouteToCompletion, toRouteQuestion } from '../mcp/support/research-run.js';
import { instanceOf, mutated } from './fixtures/schema-instances.js';

interface FrozenTool {
  readonly name: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema: JsonObject;
}

const frozen = JSON.parse(
  readFileSync(join(packageRoot(), 'test', 'guided', 'fixtures', 'contracts-1.0.0.json'), 'utf8'),
) as { tools: FrozenTool[] };

const compiler = new SchemaCompiler();
type Side = 'inputSchema' | 'outputSchema';

interface Pair {
  readonly label: string;
  readonly oldSchema: JsonObject;
  readonly newSchema: JsonObject;
  readonly oldCheck: CompiledSchema;
  readonly newCheck: CompiledSchema;
}

const pairs: Pair[] = GUIDED_TOOL_CONTRACTS.flatMap((contract) =>
  (['inputSchema', 'outputSchema'] as Side[]).map((side) => {
    const old = frozen.tools.find((t) => t.name === contract.name);
    assert.ok(old, `${contract.name} is in the frozen contracts`);
    return {
      label: `${contract.name} ${side === 'inputSchema' ? 'input' : 'output'}`,
      oldSchema: old[side],
      newSchema: contract[side],
      oldCheck: compiler.compile(old[side]),
      newCheck: compiler.compile(contract[side]),
    };
  }),
);

/** Asserts the same verdict and counts verdicts, so a run that only ever accepts (or refuses) is noticed. */
function sameVerdict(pair: Pair, tally: { accepted: number; refused: number }): (value: JsonValue) => void {
  return (value) => {
    const old = pair.oldCheck(value).ok;
    assert.equal(
      pair.newCheck(value).ok,
      old,
      `${pair.label}: verdicts differ on ${JSON.stringify(value).slice(0, 600)}`,
    );
    if (old) tally.accepted += 1;
    else tally.refused += 1;
  };
}

/** Every argument object and result of one whole run, by tool (as a faithful harness sends and receives them). */
const recorded = new Map<string, { args: JsonObject[]; results: JsonObject[] }>();

describe('contract equivalence with the frozen 1.0.0 contracts', () => {
  const releases = tempReleaseStore(readFileSync(join(packageRoot(), 'releases', 'ACTIVE'), 'utf8').trim());
  before(async () => {
    const connection = await connect(workflowProfile(releases.store));
    const client = connection.client;
    try {
      const p = new Participant(async (name, args) => {
        const result = await client.callTool({ name, arguments: args });
        const entry = recorded.get(name) ?? { args: [], results: [] };
        entry.args.push(structuredClone(args));
        const value = valueOf(result);
        if (result.isError !== true) entry.results.push(value);
        recorded.set(name, entry);
        return { isError: result.isError === true, value };
      });
      await toRouteQuestion(p);
      await fromRouteToCompletion(p);
    } finally {
      await connection.close();
    }
  });
  after(() => releases.cleanup());

  test('the frozen fixture holds the four tools, and the real run visited all four', () => {
    assert.deepEqual(
      frozen.tools.map((t) => t.name),
      GUIDED_TOOL_CONTRACTS.map((c) => c.name),
    );
    for (const c of GUIDED_TOOL_CONTRACTS) assert.ok((recorded.get(c.name)?.results.length ?? 0) > 0, c.name);
  });

  for (const pair of pairs) {
    test(`${pair.label}: generated instances get the same verdict`, () => {
      const tally = { accepted: 0, refused: 0 };
      const check = sameVerdict(pair, tally);
      for (const schema of [pair.oldSchema, pair.newSchema]) {
        const instances = instanceOf(schema);
        fc.assert(fc.property(instances, check), { numRuns: 150 });
        fc.assert(
          fc.property(
            instances.chain((v) => mutated(v)),
            check,
          ),
          { numRuns: 150 },
        );
      }
      assert.ok(tally.refused > 0, `${pair.label}: some generated instances are refused`);
    });

    test(`${pair.label}: mutations of the real run's values get the same verdict`, () => {
      const [name, side] = pair.label.split(' ') as [string, string];
      const entry = recorded.get(name);
      assert.ok(entry);
      const seeds = side === 'input' ? entry.args : entry.results;
      const tally = { accepted: 0, refused: 0 };
      const check = sameVerdict(pair, tally);
      for (const seed of seeds) {
        assert.equal(pair.oldCheck(seed).ok, true, `${pair.label}: the old contract accepts what the run sent`);
        check(seed);
      }
      fc.assert(
        fc.property(
          fc.constantFrom(...seeds).chain((seed) => mutated(seed)),
          check,
        ),
        { numRuns: 400 },
      );
      assert.ok(tally.accepted > seeds.length, `${pair.label}: some mutations stay valid`);
      assert.ok(tally.refused > 0, `${pair.label}: some mutations are refused`);
    });
  }
});
