import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { SchemaCompiler } from '../../../../src/core/index.js';
import { packageRoot } from '../../../../src/package/index.js';
import type { CompiledSchema, JsonObject } from '../../../../src/core/index.js';
import { DESK_ROUTE, SPIKE_ROUTE } from './billing-queue.js';
import type { Scenario } from './billing-queue.js';

// The content a scripted model writes on each route is checked here against what the validators will see: the packaged
// schemas and max_bytes, the quotes in the repository files, the ids, the one flaw per route and the record's agreement
// with its summary.

const SOURCE = join(packageRoot(), 'releases', 'src', 'research-decision');

interface Output {
  readonly artifact_id: string;
  readonly path: string;
  readonly max_bytes: number;
  readonly schema?: { readonly id: string; readonly version: string };
}
interface Workflow {
  readonly steps: readonly { readonly id: string; readonly outputs: readonly Output[] }[];
}

const workflow = parse(readFileSync(join(SOURCE, 'workflows', 'research-decision@1.3.0.yaml'), 'utf8')) as Workflow;
const compiler = new SchemaCompiler();
const schemas = new Map<string, CompiledSchema>();
function schema(id: string, version: string): CompiledSchema {
  const key = `${id}@${version}`;
  let compiled = schemas.get(key);
  if (compiled === undefined) {
    const document = JSON.parse(readFileSync(join(SOURCE, 'schemas', `${key}.json`), 'utf8')) as JsonObject;
    compiled = compiler.compile(document);
    schemas.set(key, compiled);
  }
  return compiled;
}

function outputsOf(stepIds: readonly string[]): Output[] {
  return stepIds.flatMap((id) => {
    const step = workflow.steps.find((s) => s.id === id);
    assert.ok(step, `workflow step ${id}`);
    return [...step.outputs];
  });
}

const ROUTE_OUTPUTS = {
  'desk-research': outputsOf(['select-route', 'desk-research', 'decision-record']),
  'prototype-spike': outputsOf(['select-route', 'prototype-spike', 'decision-record']),
} as const;

// ---- artifact shapes (only what the checks read) ----

interface Citation {
  readonly source_id: string;
  readonly locator?: string;
  readonly quote?: string;
}
interface Claim {
  readonly claim_id: string;
  readonly option_id: string;
  readonly criterion_id: string;
  readonly direction: string;
  readonly evidence_quality: string;
  readonly quality_rationale: string;
  readonly citations: readonly Citation[];
}
interface EvidenceTable {
  readonly decision_question: string;
  readonly criteria: readonly { readonly criterion_id: string; readonly priority: string }[];
  readonly options: readonly { readonly option_id: string; readonly status: string }[];
  readonly sources: readonly {
    readonly source_id: string;
    readonly title: string;
    readonly kind: string;
    readonly locator?: string;
    readonly url?: string;
    readonly independence: string;
  }[];
  readonly claims: readonly Claim[];
  readonly gaps: readonly string[];
}
interface Experiment {
  readonly experiment_id: string;
  readonly option_id: string;
  readonly hypothesis: string;
  readonly setup: {
    readonly commands: readonly string[];
    readonly dependencies: readonly { readonly name: string; readonly version: string }[];
    readonly notes_section: string;
  };
  readonly measurements: readonly {
    readonly metric: string;
    readonly value?: number;
    readonly runs: number;
    readonly spread?: string;
  }[];
  readonly verdict: string;
}
interface SpikeResults {
  readonly decision_question: string;
  readonly experiments: readonly Experiment[];
  readonly limitations: readonly string[];
}
interface DecisionSummary {
  readonly decision_question: string;
  readonly status: string;
  readonly decision: { readonly outcome: string; readonly chosen_option_id?: string; readonly statement: string };
  readonly options_considered: readonly { readonly option_id: string; readonly verdict: string }[];
  readonly rationale: readonly string[];
  readonly risks: readonly {
    readonly risk: string;
    readonly likelihood: string;
    readonly impact: string;
    readonly mitigation: string;
  }[];
  readonly follow_ups: readonly { readonly action: string; readonly owner?: string; readonly due?: string }[];
  readonly confidence: { readonly level: string; readonly explanation: string };
  readonly evidence_refs: readonly string[];
}

// ---- helpers ----

function drafts(scenario: Scenario, artifactId: string): readonly string[] {
  const list = scenario.drafts[artifactId];
  assert.ok(list !== undefined && list.length > 0, `${scenario.id}: drafts of ${artifactId}`);
  return list;
}
const first = (scenario: Scenario, id: string): string => drafts(scenario, id)[0]!;
const last = (scenario: Scenario, id: string): string => drafts(scenario, id).at(-1)!;
const parsed = <T>(text: string): T => JSON.parse(text) as T;

/** Lines outside fenced code blocks, with their index. */
function proseLines(markdown: string): { readonly line: string; readonly index: number }[] {
  const out: { line: string; index: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) out.push({ line, index });
  });
  return out;
}

function headings(markdown: string): string[] {
  return proseLines(markdown)
    .map(({ line }) => /^#{1,6} (.+)$/.exec(line)?.[1])
    .filter((h): h is string => h !== undefined);
}

/** The text under a heading, up to the next heading of the same or a higher level (code blocks included). */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = proseLines(markdown).find(({ line }) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '') === heading);
  assert.ok(start, `heading "${heading}"`);
  const level = /^#+/.exec(start.line)![0].length;
  const end = proseLines(markdown).find(
    ({ line, index }) => index > start.index && /^#{1,6} /.test(line) && /^#+/.exec(line)![0].length <= level,
  );
  return lines.slice(start.index + 1, end?.index ?? lines.length).join('\n');
}

/** GitHub-style heading anchor. */
const slug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

/** Evidence ids in square brackets, e.g. [C4, C7] or [E2]. */
function citedIds(text: string): string[] {
  return [...text.matchAll(/\[((?:[CE]\d+)(?:, [CE]\d+)*)\]/g)].flatMap((m) => m[1]!.split(', '));
}

const markdownRows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
    .slice(1)
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );

/** An exact version: digits and dots only (PostgreSQL's 16.10 is exact); no range, tag or `latest`. */
const isExactVersion = (version: string): boolean => /^\d+(\.\d+){1,2}$/.test(version);

// ---- tests ----

describe('billing-queue scenario', () => {
  for (const scenario of [DESK_ROUTE, SPIKE_ROUTE]) {
    describe(scenario.id, () => {
      test('the interview answers and the objective make a valid research contract', () => {
        assert.ok(!('objective' in scenario.interview));
        assert.ok(!('research_route' in scenario.interview));
        const contractSchema = JSON.parse(
          readFileSync(join(SOURCE, 'schemas', 'research-contract@1.0.0.json'), 'utf8'),
        ) as { properties: Record<string, unknown> };
        const interviewFields = Object.keys(contractSchema.properties).filter(
          (k) => k !== 'objective' && k !== 'research_route',
        );
        assert.deepEqual(
          Object.keys(scenario.interview).sort(),
          interviewFields.sort(),
          'every interview field is set',
        );
        const contract = { objective: scenario.objective, ...scenario.interview, research_route: scenario.route };
        assert.deepEqual(schema('research-contract', '1.0.0')(contract), { ok: true });
      });

      test("the drafts are exactly the route's artifacts, each under max_bytes and valid against its schema", () => {
        const outputs = ROUTE_OUTPUTS[scenario.route];
        assert.deepEqual(Object.keys(scenario.drafts).sort(), outputs.map((o) => o.artifact_id).sort());
        for (const output of outputs) {
          for (const [i, text] of drafts(scenario, output.artifact_id).entries()) {
            const where = `${output.artifact_id} draft ${i + 1}`;
            const bytes = Buffer.byteLength(text, 'utf8');
            assert.ok(bytes > 0 && bytes <= output.max_bytes, `${where}: ${bytes} bytes`);
            assert.ok(text.endsWith('\n'), `${where} ends with a newline`);
            if (output.schema !== undefined) {
              assert.equal(text, JSON.stringify(JSON.parse(text), null, 2) + '\n', `${where} is pretty JSON`);
              assert.deepEqual(schema(output.schema.id, output.schema.version)(JSON.parse(text)), { ok: true }, where);
            }
          }
        }
      });

      test('the repository is small and real-looking: 8 to 14 files of 20 to 120 lines, no secrets', () => {
        const files = Object.entries(scenario.repository);
        assert.ok(files.length >= 8 && files.length <= 14, `${files.length} files`);
        for (const [path, text] of files) {
          const lines = text.split('\n').length - 1;
          assert.ok(lines >= 20 && lines <= 120, `${path}: ${lines} lines`);
          assert.ok(text.endsWith('\n'), path);
          assert.doesNotMatch(text, /:\/\/[^/\s:@]+:[^/\s@]+@/, `${path} has no credentials in a URL`);
        }
        for (const dir of ['src/billing/', 'docs/ops/', 'docs/incidents/', 'docs/notes/', 'docs/vendor/']) {
          assert.ok(
            files.some(([p]) => p.startsWith(dir)),
            dir,
          );
        }
      });

      test('the research plan has the select-route sections, the options in scope and the criteria', () => {
        const plan = last(scenario, 'research-plan');
        for (const h of [
          'Research plan',
          'Decision question',
          'What we must learn',
          'Criteria',
          'Options in scope',
          'Out of scope',
          'Route recommendation',
        ]) {
          assert.ok(headings(plan).includes(h), h);
        }
        assert.match(section(plan, 'Decision question'), /Which message queue should the billing service adopt/);
        for (const option of ['rabbitmq', 'nats-jetstream', 'postgres-outbox']) {
          assert.match(section(plan, 'Options in scope'), new RegExp(`^- ${option}:`, 'm'));
        }
        for (const c of ['account-ordering (must-have)', 'at-least-once (must-have)', 'ops-cost (important)']) {
          assert.ok(section(plan, 'Criteria').includes(c), c);
        }
        if (scenario.route === 'prototype-spike') {
          const results = parsed<SpikeResults>(last(scenario, 'spike-results'));
          for (const e of results.experiments) {
            assert.match(section(plan, 'Route recommendation'), new RegExp(`${e.experiment_id}: ${e.option_id}`));
          }
        }
      });

      test('the decision record and the summary agree, answer the plan and cite only existing evidence', () => {
        const record = last(scenario, 'decision-record');
        const summary = parsed<DecisionSummary>(last(scenario, 'decision-summary'));
        const plan = last(scenario, 'research-plan');
        for (const h of [
          'Context',
          'Options considered',
          'Decision',
          'Rationale',
          'Consequences',
          'Positive',
          'Negative',
          'Risks and mitigations',
          'Follow-ups',
          'Confidence',
          'Evidence',
        ]) {
          assert.ok(headings(record).includes(h), h);
        }
        assert.ok(section(record, 'Negative').trim().length > 0);

        // Same question, status, outcome and chosen option.
        const question = section(plan, 'Decision question').trim();
        assert.equal(summary.decision_question, question);
        assert.ok(record.includes(`- Decision question: ${question}\n`));
        assert.ok(record.includes(`- Status: ${summary.status}\n`));
        assert.match(record, new RegExp(`^- Research route: ${scenario.route} `, 'm'));
        assert.equal(summary.decision.outcome, 'adopt');
        const chosen = summary.options_considered.filter((o) => o.verdict === 'chosen');
        assert.equal(chosen.length, 1);
        assert.equal(chosen[0]!.option_id, summary.decision.chosen_option_id);
        assert.equal(section(record, 'Decision').trim(), summary.decision.statement);

        // The options the plan put in scope, with the same verdicts.
        const options = markdownRows(section(record, 'Options considered'));
        assert.deepEqual(
          options.map((r) => [r[0]!.split(' ')[0], r[1]]),
          summary.options_considered.map((o) => [o.option_id, o.verdict]),
        );
        for (const o of summary.options_considered) {
          assert.match(section(plan, 'Options in scope'), new RegExp(`^- ${o.option_id}:`, 'm'));
        }
        assert.equal(summary.options_considered.length, 3);

        // Rationale: the same points, each citing evidence.
        const bullets = section(record, 'Rationale')
          .split('\n')
          .filter((l) => l.startsWith('- '))
          .map((l) => l.slice(2));
        assert.deepEqual(bullets, summary.rationale);
        for (const point of bullets) assert.ok(citedIds(point).length > 0, `rationale point cites evidence: ${point}`);

        // Risks, follow-ups and confidence.
        assert.deepEqual(
          markdownRows(section(record, 'Risks and mitigations')),
          summary.risks.map((r) => [r.risk, r.likelihood, r.impact, r.mitigation]),
        );
        for (const r of summary.risks) assert.ok(r.mitigation.length > 0);
        assert.deepEqual(
          section(record, 'Follow-ups')
            .split('\n')
            .filter((l) => l.startsWith('- [ ] ')),
          summary.follow_ups.map((f) => `- [ ] ${f.action} (${f.owner}, ${f.due})`),
        );
        assert.ok(section(record, 'Confidence').trim().toLowerCase().startsWith(`${summary.confidence.level}.`));
        assert.notEqual(summary.confidence.level, 'high', 'the deciding criterion rests on moderate evidence');
        assert.doesNotMatch(record, /\b(proven|guaranteed)\b/i);

        // Evidence ids: every id the record cites is in evidence_refs, every ref is cited and exists on this route.
        const cited = new Set(citedIds(record));
        assert.deepEqual([...new Set(summary.evidence_refs)].sort(), [...cited].sort());
        const existing =
          scenario.route === 'desk-research'
            ? parsed<EvidenceTable>(last(scenario, 'evidence-table')).claims.map((c) => c.claim_id)
            : parsed<SpikeResults>(last(scenario, 'spike-results')).experiments.map((e) => e.experiment_id);
        for (const id of summary.evidence_refs) assert.ok(existing.includes(id), `${id} exists`);
        for (const text of [record, last(scenario, 'decision-summary')]) {
          assert.doesNotMatch(text, /validator|\bAI\b|language model/i, 'no text addressed to a validator or an AI');
        }
      });
    });
  }

  describe('desk route', () => {
    const tables = drafts(DESK_ROUTE, 'evidence-table').map((t) => parsed<EvidenceTable>(t));
    const table = tables.at(-1)!;
    const findingsDrafts = drafts(DESK_ROUTE, 'desk-findings');

    const vendorOnlyHigh = (t: EvidenceTable): string[] =>
      t.claims
        .filter((c) => c.evidence_quality === 'high')
        .filter((c) =>
          c.citations.every((cit) => t.sources.find((s) => s.source_id === cit.source_id)?.independence === 'vendor'),
        )
        .map((c) => c.claim_id);

    test('the first evidence table grades exactly one vendor-only claim high; the last grades none', () => {
      assert.equal(tables.length, 2);
      assert.deepEqual(vendorOnlyHigh(tables[0]!), ['C8']);
      assert.deepEqual(vendorOnlyHigh(table), []);
      const fixed = table.claims.find((c) => c.claim_id === 'C8')!;
      assert.equal(fixed.evidence_quality, 'low');
      assert.match(fixed.quality_rationale, /interest/);
      assert.ok(table.gaps.some((g) => g.includes('C8')));
      // Nothing else changed: the other claims and every other field are the same.
      const without = (t: EvidenceTable): unknown => ({
        ...t,
        claims: t.claims.filter((c) => c.claim_id !== 'C8'),
        gaps: t.gaps.filter((g) => !g.includes('C8')),
      });
      assert.deepEqual(without(tables[0]!), without(table));
      assert.equal(findingsDrafts.length, 2, 'the findings mention the new grade, so they have a second draft');
    });

    test('ids are unique and every reference resolves; every candidate has a claim for every must-have', () => {
      for (const t of tables) {
        const unique = (ids: string[]): void => assert.equal(new Set(ids).size, ids.length, ids.join(','));
        unique(t.criteria.map((c) => c.criterion_id));
        unique(t.options.map((o) => o.option_id));
        unique(t.sources.map((s) => s.source_id));
        unique(t.claims.map((c) => c.claim_id));
        for (const c of t.claims) {
          assert.ok(
            t.options.some((o) => o.option_id === c.option_id),
            `${c.claim_id} option`,
          );
          assert.ok(
            t.criteria.some((k) => k.criterion_id === c.criterion_id),
            `${c.claim_id} criterion`,
          );
          for (const cit of c.citations)
            assert.ok(
              t.sources.some((s) => s.source_id === cit.source_id),
              c.claim_id,
            );
        }
        for (const o of t.options.filter((x) => x.status === 'candidate')) {
          for (const k of t.criteria.filter((x) => x.priority === 'must-have')) {
            assert.ok(
              t.claims.some((c) => c.option_id === o.option_id && c.criterion_id === k.criterion_id),
              `${o.option_id} × ${k.criterion_id}`,
            );
          }
        }
        assert.deepEqual(
          t.options.map((o) => o.option_id),
          ['rabbitmq', 'nats-jetstream', 'postgres-outbox'],
        );
        assert.equal(t.decision_question, DESK_ROUTE.interview['decision_question']);
        assert.ok(t.claims.length >= 8 && t.claims.length <= 13, `${t.claims.length} claims`);
        assert.ok(t.sources.length >= 6 && t.sources.length <= 9, `${t.sources.length} sources`);
        // A must-have claim that is the only support for its option rests on two sources or is named in gaps.
        for (const c of t.claims.filter(
          (x) => t.criteria.find((k) => k.criterion_id === x.criterion_id)?.priority === 'must-have',
        )) {
          const sources = new Set(c.citations.map((x) => x.source_id));
          if (c.evidence_quality !== 'high' && sources.size < 2) {
            assert.ok(
              t.gaps.some((g) => g.includes(c.claim_id)),
              `${c.claim_id} weakness named in gaps`,
            );
          }
        }
      }
    });

    test('every source and citation points into the repository, and every quote is verbatim at the cited place', () => {
      const repo = DESK_ROUTE.repository;
      for (const t of tables) {
        assert.doesNotMatch(JSON.stringify(t), /https?:\/\//, 'no URLs: the test machine has no internet');
        for (const s of t.sources) {
          assert.equal(s.url, undefined);
          assert.ok(s.locator !== undefined && repo[s.locator] !== undefined, `${s.source_id}: ${s.locator}`);
          const vendorish = s.locator.startsWith('docs/vendor/') || s.title.includes('documentation');
          assert.equal(s.independence, vendorish ? 'vendor' : 'internal', s.source_id);
        }
        for (const c of t.claims) {
          for (const cit of c.citations) {
            const source = t.sources.find((s) => s.source_id === cit.source_id)!;
            assert.ok(cit.locator !== undefined && cit.quote !== undefined, `${c.claim_id} has a locator and a quote`);
            const path = cit.locator.split(/[#:]/)[0]!;
            assert.equal(path, source.locator, `${c.claim_id} cites into ${source.source_id}`);
            const text = repo[path];
            assert.ok(text !== undefined, path);
            assert.ok(text.includes(cit.quote), `${c.claim_id}: quote not in ${path}: ${cit.quote}`);
            assert.ok(cit.quote.length <= 600);
            const anchor = /#(.+)$/.exec(cit.locator)?.[1];
            if (anchor !== undefined) {
              const heading = headings(text).find((h) => slug(h) === anchor);
              assert.ok(heading, `${c.claim_id}: ${path} has a heading #${anchor}`);
              assert.ok(section(text, heading).includes(cit.quote), `${c.claim_id}: quote under #${anchor}`);
            }
            const range = /:(\d+)-(\d+)$/.exec(cit.locator);
            if (range !== null) {
              const lines = text.split('\n').slice(Number(range[1]) - 1, Number(range[2]));
              assert.ok(lines.join('\n').includes(cit.quote), `${c.claim_id}: quote within ${cit.locator}`);
            }
          }
        }
      }
    });

    test('the findings have every section, cite existing claims, list the same sources and decide nothing', () => {
      for (const [i, findings] of findingsDrafts.entries()) {
        const t = tables[i]!;
        const ids = new Set(t.claims.map((c) => c.claim_id));
        assert.ok(findings.startsWith(`# Desk findings: ${t.decision_question}\n`));
        for (const h of [
          'Criteria',
          'Options',
          'Comparison',
          'Key findings',
          'Conflicts',
          'Gaps',
          'Leading options',
          'Sources',
        ]) {
          assert.ok(headings(findings).includes(h), h);
        }
        // Key findings: every bullet ends with the claim ids it rests on.
        const bullets = section(findings, 'Key findings')
          .split(/\n(?=- )/)
          .map((b) => b.trim())
          .filter((b) => b.startsWith('- '));
        assert.ok(bullets.length >= 8);
        for (const b of bullets) {
          assert.match(b, /\[C\d+(, C\d+)*\]\.$/, `cites claims at the end: ${b}`);
          for (const id of citedIds(b)) assert.ok(ids.has(id), id);
        }
        // Comparison: one row per option, every verdict cell cites claims of that option.
        const rows = markdownRows(section(findings, 'Comparison'));
        assert.deepEqual(
          rows.map((r) => r[0]),
          t.options.map((o) => o.option_id),
        );
        for (const r of rows) {
          for (const cell of r.slice(1)) {
            const cellIds = citedIds(cell);
            assert.ok(cellIds.length > 0, `${r[0]}: ${cell}`);
            for (const id of cellIds) {
              assert.equal(t.claims.find((c) => c.claim_id === id)?.option_id, r[0], `${id} in row ${r[0]}`);
            }
          }
        }
        // Conflicts: every pair of opposite claims on one option and criterion is discussed.
        const conflicts = section(findings, 'Conflicts');
        for (const a of t.claims.filter((c) => c.direction === 'favours')) {
          for (const b of t.claims.filter(
            (c) => c.direction === 'against' && c.option_id === a.option_id && c.criterion_id === a.criterion_id,
          )) {
            assert.ok(conflicts.includes(a.claim_id) && conflicts.includes(b.claim_id), `${a.claim_id}/${b.claim_id}`);
          }
        }
        // Sources: the same ids, titles and locators as the table.
        const listed = section(findings, 'Sources')
          .split('\n')
          .filter((l) => l.startsWith('- '));
        assert.deepEqual(
          listed,
          t.sources.map((s) => `- ${s.source_id}: ${s.title}. \`${s.locator}\` (${s.kind}, ${s.independence})`),
        );
        for (const id of citedIds(findings)) assert.ok(ids.has(id), id);
        assert.doesNotMatch(section(findings, 'Leading options'), /\b(we adopt|we choose|decided|decision is)\b/i);
        assert.doesNotMatch(findings, /https?:\/\//);
        assert.doesNotMatch(findings, /validator|\bAI\b/i);
        const lines = findings.split('\n').length;
        assert.ok(lines >= 60 && lines <= 100, `${lines} lines`);
      }
      assert.ok(!findingsDrafts[0]!.includes('graded low'));
      assert.ok(findingsDrafts[1]!.includes('graded low'));
    });
  });

  describe('spike route', () => {
    const resultDrafts = drafts(SPIKE_ROUTE, 'spike-results').map((t) => parsed<SpikeResults>(t));
    const noteDrafts = drafts(SPIKE_ROUTE, 'spike-notes');

    const rangeDependencies = (r: SpikeResults): string[] =>
      r.experiments.flatMap((e) =>
        e.setup.dependencies.filter((d) => !isExactVersion(d.version)).map((d) => `${e.experiment_id} ${d.name}`),
      );

    test('the first spike results have exactly one range dependency version; the last has none', () => {
      assert.equal(resultDrafts.length, 2);
      assert.equal(noteDrafts.length, 2, 'the notes show the version, so they change with it');
      assert.deepEqual(rangeDependencies(resultDrafts[0]!), ['E3 pg']);
      assert.deepEqual(rangeDependencies(resultDrafts[1]!), []);
      assert.ok(noteDrafts[0]!.includes('"pg": "^8.23.1"'));
      assert.ok(noteDrafts[1]!.includes('"pg": "8.23.1"'));
      assert.ok(!noteDrafts[1]!.includes('^'), 'no range anywhere in the final notes');
      // Nothing else changed in the results.
      const pinned = JSON.parse(first(SPIKE_ROUTE, 'spike-results').replace('"^8.23.1"', '"8.23.1"')) as unknown;
      assert.deepEqual(pinned, resultDrafts[1]);
    });

    test('every experiment has its notes section with its commands, complete listings and the raw runs', () => {
      for (const [i, results] of resultDrafts.entries()) {
        const notes = noteDrafts[i]!;
        for (const h of ['Environment', 'Limitations', 'What this does not tell us']) {
          assert.ok(headings(notes).includes(h), h);
        }
        assert.ok(notes.startsWith(`# Spike notes: ${results.decision_question}\n`));
        assert.ok(results.experiments.length >= 2 && results.experiments.length <= 3);
        assert.ok(results.limitations.length > 0);
        for (const e of results.experiments) {
          assert.ok(headings(notes).includes(e.setup.notes_section), e.setup.notes_section);
          const text = section(notes, e.setup.notes_section);
          for (const command of e.setup.commands) assert.ok(text.includes(command), `${e.experiment_id}: ${command}`);
          // Every file the commands run or read is listed in this section.
          const files = [
            'package.json',
            'run.mjs',
            ...(e.setup.commands.some((c) => c.includes('schema.sql')) ? ['schema.sql'] : []),
          ];
          for (const f of files) assert.match(text, new RegExp(`^\`${f.replace('.', '\\.')}\`:\\n\\n\`\`\``, 'm'), f);
          assert.ok(text.includes('// --- harness: identical in E1, E2 and E3 ---'));
          assert.doesNotMatch(text, /similar to above|omitted for brevity/i);
          for (const d of e.setup.dependencies) {
            assert.ok(notes.includes(d.version), `${e.experiment_id}: ${d.name} ${d.version} shown in the notes`);
          }
          assert.match(e.hypothesis, /0 lost events and 0 out-of-order events/);
          // Raw results: one row per run; the JSON values derive from them.
          const rows = markdownRows(text).map((r) => r.map(Number));
          for (const m of e.measurements) assert.equal(m.runs, rows.length, `${e.experiment_id}: ${m.metric}`);
          assert.ok(rows.length >= 5);
          const column = (n: number): number[] => rows.map((r) => r[n]!);
          const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
          const value = (prefix: string): number | undefined =>
            e.measurements.find((m) => m.metric.startsWith(prefix))?.value;
          assert.equal(value('lost events'), sum(column(3)));
          assert.equal(value('out-of-order'), sum(column(5)));
          assert.equal(value('redelivered duplicates'), sum(column(4)));
          const p95 = column(7).sort((a, b) => a - b);
          assert.equal(value('p95'), p95[Math.floor(p95.length / 2)]);
          const p95Spread = e.measurements.find((m) => m.metric.startsWith('p95'))?.spread;
          assert.equal(p95Spread, `min ${p95[0]!.toFixed(1)} / max ${p95.at(-1)!.toFixed(1)} ms`);
          assert.equal(value('max'), Math.max(...column(8)));
          // The verdict follows from the threshold: confirmed only with no lost and no out-of-order event.
          assert.equal(e.verdict, sum(column(3)) + sum(column(5)) === 0 ? 'confirmed' : 'refuted');
          assert.ok(notes.includes(`**Verdict: ${e.verdict}.**`));
        }
        // No literal secrets: credentials are placeholders read from the environment.
        assert.doesNotMatch(notes, /PASSWORD=(?!"\$)/);
        assert.doesNotMatch(notes, /--pass (?!"\$BROKER_PASSWORD")/);
        assert.doesNotMatch(notes, /:\/\/[^/\s:@]+:(?!\$\{)[^/\s@]+@/);
        assert.doesNotMatch(notes, /validator|\bAI\b/i);
      }
    });

    test('the spike decision follows from its experiments', () => {
      const results = resultDrafts.at(-1)!;
      const summary = parsed<DecisionSummary>(last(SPIKE_ROUTE, 'decision-summary'));
      assert.deepEqual(
        results.experiments.map((e) => e.option_id).sort(),
        summary.options_considered.map((o) => o.option_id).sort(),
      );
      assert.deepEqual([...summary.evidence_refs].sort(), results.experiments.map((e) => e.experiment_id).sort());
      assert.equal(summary.decision.chosen_option_id, 'postgres-outbox');
    });
  });
});
