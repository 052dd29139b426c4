/**
 * The described, de-duplicated contracts accept exactly what the frozen 1.0.0 contracts accepted
 * (test/guided/fixtures/contracts-1.0.0.json): instances generated from either schema, and mutations of the arguments
 * and results of a real research-decision run (dropped required keys, unknown keys, wrong types, strings and arrays
 * past their limits, values nested too deep), get the same verdict from both input contracts. The output contracts
 * accept a superset: every result the old ones accepted, and results whose host assets after setup are references
 * (no `content`); put back from setup's payload, every such result passes the old output contract.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { SchemaCompiler, sha256Hex } from '../../../src/core/index.js';
import { packageRoot } from '../../../src/package/index.js';
import type { CompiledSchema, JsonObject, JsonValue } from '../../../src/core/index.js';
import { GUIDED_TOOL_CONTRACTS } from '../../../src/guided/index.js';
import { recordResearchRun } from '../fixtures/recorded-run.js';
import type { RecordedCalls } from '../fixtures/recorded-run.js';
import { instanceOf, mutated } from '../fixtures/schema-instances.js';

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

/**
 * Asserts the verdict and counts verdicts, so a run that only ever accepts (or refuses) is noticed. An input contract
 * gives exactly the old verdict. An output contract accepts at least what the old one accepted: results may be
 * smaller where the protocol allows it (host assets after setup are references without `content`), so the new output
 * contract may also accept a result the old one refused, never the reverse.
 */
function sameVerdict(pair: Pair, tally: { accepted: number; refused: number }): (value: JsonValue) => void {
  const output = pair.label.endsWith(' output');
  return (value) => {
    const old = pair.oldCheck(value).ok;
    const now = pair.newCheck(value).ok;
    const where = `${pair.label}: verdicts differ on ${JSON.stringify(value).slice(0, 600)}`;
    if (output && old) assert.equal(now, true, where);
    else if (!output) assert.equal(now, old, where);
    if (now) tally.accepted += 1;
    else tally.refused += 1;
  };
}

/** Every argument object and result of one whole run, by tool (as a faithful harness sends and receives them). */
let recorded: RecordedCalls = new Map();

describe('contract equivalence with the frozen 1.0.0 contracts', () => {
  before(async () => {
    recorded = await recordResearchRun();
  });

  test('the frozen fixture holds the four tools, and the real run visited all four', () => {
    assert.deepEqual(
      frozen.tools.map((t) => t.name),
      GUIDED_TOOL_CONTRACTS.map((c) => c.name),
    );
    for (const c of GUIDED_TOOL_CONTRACTS) assert.ok((recorded.get(c.name)?.results.length ?? 0) > 0, c.name);
  });

  test('after setup, host assets are references to what setup sent; with the text put back, 1.0.0 accepts them', () => {
    const setupStep = recorded.get('rimthan.start_workflow')?.results[0]?.['step'] as JsonObject;
    const texts = new Map<string, string>();
    const entries = [...(setupStep['host_assets'] as JsonObject[]), setupStep['host_adapter'] as JsonObject];
    for (const entry of entries) texts.set(entry['uri'] as string, entry['content'] as string);
    const local = new Map<string, string>();
    for (const a of setupStep['host_assets'] as JsonObject[]) {
      const p = a['project_local'] as JsonObject | null;
      if (p !== null) local.set(p['path'] as string, p['content'] as string);
    }
    const inflate = (entry: JsonObject): JsonObject => {
      const uri = entry['uri'] as string;
      assert.equal(entry['content'], undefined, `${uri} is a reference after setup`);
      const text = texts.get(uri);
      assert.ok(text !== undefined, `${uri} was sent at setup`);
      assert.equal(sha256Hex(text), entry['sha256']);
      const p = entry['project_local'] as JsonObject | null | undefined;
      const project_local =
        p === undefined || p === null ? p : { ...p, content: local.get(p['path'] as string) as string };
      return project_local === undefined ? { ...entry, content: text } : { ...entry, content: text, project_local };
    };
    let references = 0;
    for (const c of GUIDED_TOOL_CONTRACTS) {
      const pair = pairs.find((p) => p.label === `${c.name} output`) as Pair;
      for (const result of recorded.get(c.name)?.results ?? []) {
        const step = result['step'] as JsonObject | null | undefined;
        if (step === undefined || step === null || step === setupStep) continue;
        references += 1 + (step['host_assets'] as JsonObject[]).length;
        const whole = {
          ...result,
          step: {
            ...step,
            host_assets: (step['host_assets'] as JsonObject[]).map(inflate),
            host_adapter: inflate(step['host_adapter'] as JsonObject),
          },
        };
        assert.equal(pair.oldCheck(whole).ok, true, `${c.name}: with the text put back, 1.0.0 accepts the result`);
      }
    }
    assert.ok(references > 5, 'the run received references after setup');
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
        assert.equal(pair.newCheck(seed).ok, true, `${pair.label}: the new contract accepts what the run sent`);
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
