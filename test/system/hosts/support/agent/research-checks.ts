/**
 * What the scripted validator subagents judge: for each validator of the packaged research workflow, a few of its
 * brief's checks, applied to the files the subagent read through its host's tools. Each check is the brief's own rule
 * with the severity the brief gives it, so a report fails exactly when an `error` rule is broken in what was read.
 */
import type { Finding, ReadFiles, ValidatorCriteria } from './validator-agent.js';

export type { Finding, ReadFiles };

/** A validator's inputs: artifact id → project-relative path. */
export type Inputs = ReadonlyMap<string, string>;

interface Check {
  /** Further repository files the validator must open (after reading its inputs), by what the inputs cite. */
  sources(inputs: Inputs, files: ReadFiles): string[];
  findings(inputs: Inputs, files: ReadFiles): Finding[];
}

type Json = Record<string, unknown>;

function json(inputs: Inputs, files: ReadFiles, id: string): Json {
  const path = inputs.get(id);
  const text = path === undefined ? undefined : files.get(path);
  if (text === undefined) throw new Error(`the validator did not read ${id}`);
  return JSON.parse(text) as Json;
}

function text(inputs: Inputs, files: ReadFiles, id: string): string {
  const path = inputs.get(id);
  const body = path === undefined ? undefined : files.get(path);
  if (body === undefined) throw new Error(`the validator did not read ${id}`);
  return body;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

/** The repository file a source's locator names (`docs/x.md#section`, `src/a.ts:10-20`). */
export function locatorPath(locator: unknown): string | undefined {
  if (typeof locator !== 'string') return undefined;
  const path = locator.split(/[#:]/)[0]?.trim();
  return path !== undefined && /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/.test(path) ? path : undefined;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

const evidenceQuality: Check = {
  sources: () => [],
  findings(inputs, files) {
    const table = json(inputs, files, 'evidence-table');
    const findings: Finding[] = [];
    const ids = (key: string, idKey: string): Set<string> => new Set(list(table[key]).map((x) => String(x[idKey])));
    const options = ids('options', 'option_id');
    const criteria = ids('criteria', 'criterion_id');
    const sources = new Map(list(table['sources']).map((s) => [String(s['source_id']), s]));
    for (const claim of list(table['claims'])) {
      const id = String(claim['claim_id']);
      // Check 1: referential integrity.
      if (!options.has(String(claim['option_id'])))
        findings.push({
          severity: 'error',
          message: `${id} names an unknown option (check 1)`,
          artifact_id: 'evidence-table',
        });
      if (!criteria.has(String(claim['criterion_id'])))
        findings.push({
          severity: 'error',
          message: `${id} names an unknown criterion (check 1)`,
          artifact_id: 'evidence-table',
        });
      const cited = list(claim['citations']).map((c) => sources.get(String(c['source_id'])));
      if (cited.some((s) => s === undefined))
        findings.push({
          severity: 'error',
          message: `${id} cites an unknown source (check 1)`,
          artifact_id: 'evidence-table',
        });
      // Check 2: `high` while resting only on vendor, community, blog or forum sources.
      const weak = (s: Json | undefined): boolean =>
        s !== undefined &&
        (['vendor', 'community'].includes(String(s['independence'])) || ['blog', 'forum'].includes(String(s['kind'])));
      if (claim['evidence_quality'] === 'high' && cited.length > 0 && cited.every(weak))
        findings.push({
          severity: 'error',
          message: `${id} is graded high but rests only on vendor or community sources (check 2)`,
          artifact_id: 'evidence-table',
        });
    }
    // Check 7: every claim id the findings cite exists.
    const claims = ids('claims', 'claim_id');
    const findingsText = text(inputs, files, 'desk-findings');
    for (const cited of new Set(findingsText.match(/\bC[0-9]{1,3}\b/g) ?? []))
      if (!claims.has(cited))
        findings.push({
          severity: 'error',
          message: `the findings cite ${cited}, which is not a claim (check 7)`,
          artifact_id: 'desk-findings',
        });
    return findings;
  },
};

const citationCheck: Check = {
  sources(inputs, files) {
    const table = json(inputs, files, 'evidence-table');
    return [
      ...new Set(
        list(table['sources'])
          .map((s) => locatorPath(s['locator']))
          .filter((p) => p !== undefined),
      ),
    ];
  },
  findings(inputs, files) {
    const table = json(inputs, files, 'evidence-table');
    const sources = new Map(list(table['sources']).map((s) => [String(s['source_id']), s]));
    const findings: Finding[] = [];
    for (const claim of list(table['claims']))
      for (const citation of list(claim['citations'])) {
        const sourceId = String(citation['source_id']);
        const path = locatorPath(sources.get(sourceId)?.['locator']);
        if (path === undefined) {
          findings.push({
            severity: 'warning',
            message: `${String(claim['claim_id'])}: ${sourceId} has no repository locator to open`,
            artifact_id: 'evidence-table',
          });
          continue;
        }
        const body = files.get(path);
        // Check 1: the source exists.
        if (body === undefined) {
          findings.push({
            severity: 'error',
            message: `${sourceId} (${path}) does not exist (check 1)`,
            artifact_id: 'evidence-table',
          });
          continue;
        }
        // Check 2: quotes are verbatim.
        const quote = citation['quote'];
        if (typeof quote === 'string' && !squash(body).includes(squash(quote)))
          findings.push({
            severity: 'error',
            message: `${String(claim['claim_id'])} quotes ${sourceId}, but the quote is not in ${path} (check 2)`,
            artifact_id: 'evidence-table',
          });
      }
    return findings;
  },
};

const spikeReproducibility: Check = {
  sources: () => [],
  findings(inputs, files) {
    const results = json(inputs, files, 'spike-results');
    const notes = text(inputs, files, 'spike-notes');
    const headings = new Set(
      notes
        .split('\n')
        .filter((l) => /^#+ /.test(l))
        .map((l) => l.replace(/^#+ /, '').trim()),
    );
    const findings: Finding[] = [];
    for (const experiment of list(results['experiments'])) {
      const id = String(experiment['experiment_id']);
      const setup = (experiment['setup'] ?? {}) as Json;
      // Check 1: a section per experiment.
      if (!headings.has(String(setup['notes_section'])))
        findings.push({
          severity: 'error',
          message: `${id} has no notes section "${String(setup['notes_section'])}" (check 1)`,
          artifact_id: 'spike-notes',
        });
      // Check 2: every command is in the notes.
      for (const command of list(setup['commands']) as unknown as string[])
        if (!notes.includes(command))
          findings.push({
            severity: 'error',
            message: `${id}: the notes never show the command \`${command}\` (check 2)`,
            artifact_id: 'spike-notes',
          });
      // Check 3: pinned versions.
      for (const dependency of list(setup['dependencies']))
        if (!/^v?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.-]+)?$/.test(String(dependency['version'])))
          findings.push({
            severity: 'error',
            message: `${id}: ${String(dependency['name'])} is not pinned to an exact version (check 3)`,
            artifact_id: 'spike-results',
          });
      // Check 6: enough runs for a quantitative verdict.
      if (['confirmed', 'refuted'].includes(String(experiment['verdict'])))
        for (const m of list(experiment['measurements']))
          if (Number(m['runs']) < 2)
            findings.push({
              severity: 'error',
              message: `${id}: ${String(m['metric'])} rests on a single run (check 6)`,
              artifact_id: 'spike-results',
            });
    }
    // Check 9: limitations.
    if (list(results['limitations']).length === 0)
      findings.push({ severity: 'warning', message: 'limitations is empty (check 9)', artifact_id: 'spike-results' });
    return findings;
  },
};

const decisionCoherence: Check = {
  sources: () => [],
  findings(inputs, files) {
    const record = text(inputs, files, 'decision-record');
    const summary = json(inputs, files, 'decision-summary');
    const findings: Finding[] = [];
    // Check 1: required sections.
    for (const section of ['Decision', 'Rationale', 'Options considered'])
      if (!new RegExp(`^##+ ${section}\\b`, 'm').test(record))
        findings.push({
          severity: 'error',
          message: `the record has no ${section} section (check 1)`,
          artifact_id: 'decision-record',
        });
    // Check 3: verdicts fit the outcome.
    const decision = (summary['decision'] ?? {}) as Json;
    const chosen = list(summary['options_considered']).filter((o) => o['verdict'] === 'chosen');
    if (
      ['adopt', 'adopt-with-conditions'].includes(String(decision['outcome'])) &&
      (chosen.length !== 1 || chosen[0]?.['option_id'] !== decision['chosen_option_id'])
    )
      findings.push({
        severity: 'error',
        message: 'exactly one option must be chosen, and it is chosen_option_id (check 3)',
        artifact_id: 'decision-summary',
      });
    // Check 5: every evidence id the record cites is in evidence_refs.
    const refs = new Set((summary['evidence_refs'] as string[] | undefined) ?? []);
    for (const cited of new Set(record.match(/\b[CE][0-9]{1,3}\b/g) ?? []))
      if (!refs.has(cited))
        findings.push({
          severity: 'error',
          message: `the record cites ${cited}, which evidence_refs lacks (check 5)`,
          artifact_id: 'decision-summary',
        });
    return findings;
  },
};

export const RESEARCH_CHECKS: Readonly<Record<string, Check>> = {
  'evidence-quality': evidenceQuality,
  'citation-check': citationCheck,
  'spike-reproducibility': spikeReproducibility,
  'decision-coherence': decisionCoherence,
};

/** The research checks as a validator subagent's criteria (a validator it has no checks for fails). */
export const RESEARCH_CRITERIA: ValidatorCriteria = {
  sources: (task, files) => RESEARCH_CHECKS[task.id]?.sources(task.inputs, files) ?? [],
  report(task, files) {
    const check = RESEARCH_CHECKS[task.id];
    if (check === undefined)
      return {
        outcome: 'failed',
        findings: [{ severity: 'error', message: `no criteria known for validator ${task.id}` }],
      };
    const findings = check.findings(task.inputs, files);
    return { outcome: findings.some((f) => f.severity === 'error') ? 'failed' : 'passed', findings };
  },
};
