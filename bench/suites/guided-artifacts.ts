/**
 * Artifact bodies for the packaged research-decision workflow, valid against its schemas: an evidence table of any
 * size up to the contract's 1 MiB per artifact (grown by adding graded claims with citations), plus the Markdown and
 * decision-summary outputs of the later steps. Deterministic, so every run measures the same bytes.
 */
const WORDS =
  'latency throughput durability replication partition broker consumer producer ordering retention backpressure ' +
  'acknowledgement idempotent exactly once delivery cluster failover operator upgrade license community benchmark';
const VOCAB = WORDS.split(' ');

/** Deterministic filler text of exactly `chars` characters (ASCII, so bytes = chars). */
function text(seed: number, chars: number): string {
  let out = '';
  let i = seed;
  while (out.length < chars) {
    out += `${VOCAB[i % VOCAB.length] as string} `;
    i = (i * 7 + 3) % 997;
  }
  return out.slice(0, chars).trimEnd().padEnd(chars, '.');
}

const CRITERIA = ['delivery-guarantees', 'operability', 'cost'];
const OPTIONS = ['kafka', 'rabbitmq', 'nats'];
function claim(n: number, sources: number): object {
  return {
    claim_id: `C${n}`,
    option_id: OPTIONS[n % OPTIONS.length] as string,
    criterion_id: CRITERIA[n % CRITERIA.length] as string,
    statement: text(n, 900),
    direction: ['favours', 'against', 'neutral'][n % 3] as string,
    evidence_quality: ['high', 'moderate', 'low', 'very-low'][n % 4] as string,
    quality_rationale: text(n + 1, 900),
    citations: Array.from({ length: 10 }, (_, c) => ({
      source_id: `S${((n * 10 + c) % sources) + 1}`,
      locator: text(n + c, 250),
      quote: text(n * 3 + c, 550),
    })),
  };
}

/**
 * An evidence table (schema evidence-table@1.0.0) of at most `maxBytes` UTF-8 bytes, as close to it as whole claims
 * allow (at least one claim, about 12 KB).
 */
export function evidenceTable(maxBytes: number): string {
  const sources = maxBytes > 100_000 ? 200 : 8;
  const head = {
    decision_question: 'Which message queue should the billing service adopt?',
    criteria: CRITERIA.map((id, i) => ({
      criterion_id: id,
      description: text(i, 200),
      priority: ['must-have', 'important', 'nice-to-have'][i] as string,
    })),
    options: OPTIONS.map((id, i) => ({
      option_id: id,
      name: id.toUpperCase(),
      summary: text(i + 10, 300),
      status: 'candidate',
    })),
    sources: Array.from({ length: sources }, (_, i) => ({
      source_id: `S${i + 1}`,
      title: text(i + 20, 120),
      kind: 'official-docs',
      url: `https://example.org/docs/${i + 1}`,
      accessed: '2026-10-30',
      independence: 'independent',
    })),
    gaps: ['No public benchmark at our message size.'],
  };
  // Size grows by each claim's own JSON plus a comma, so the table is sized without re-serialising it.
  const claims: object[] = [claim(1, sources)];
  let size = Buffer.byteLength(JSON.stringify({ ...head, claims }));
  for (let n = 2; n <= 300; n++) {
    const next = claim(n, sources);
    const added = Buffer.byteLength(JSON.stringify(next)) + 1;
    if (size + added > maxBytes) break;
    claims.push(next);
    size += added;
  }
  return JSON.stringify({ ...head, claims });
}

/** Markdown of about `chars` characters. */
export function markdown(title: string, chars: number): string {
  return `# ${title}\n\n${text(chars, chars)}\n`;
}

/** A valid decision summary (schema decision-summary@1.0.0). */
export function decisionSummary(): string {
  return JSON.stringify({
    decision_question: 'Which message queue should the billing service adopt?',
    status: 'proposed',
    decision: { outcome: 'adopt', chosen_option_id: 'nats', statement: 'Adopt NATS JetStream for billing events.' },
    options_considered: [
      { option_id: 'nats', name: 'NATS', verdict: 'chosen', reason: 'Meets delivery guarantees at the lowest cost.' },
      { option_id: 'kafka', name: 'Kafka', verdict: 'runner-up', reason: 'Strong but heavier to operate.' },
    ],
    rationale: ['Evidence C1 and C4 show the delivery guarantees hold under failover.'],
    risks: [{ risk: 'Team lacks NATS experience.', likelihood: 'medium', impact: 'medium', mitigation: 'Training.' }],
    follow_ups: [{ action: 'Run a failover drill.', owner: 'platform', due: '2026-12-15' }],
    confidence: { level: 'medium', explanation: 'Desk research only; no load test yet.' },
    evidence_refs: ['C1', 'C4'],
  });
}

/** Bodies for every output of the packaged workflow, with a typical evidence table of about `evidenceBytes`. */
export function packagedBodies(evidenceBytes: number): Record<string, string> {
  return {
    'research-plan': markdown('Research plan', 1000),
    'evidence-table': evidenceTable(evidenceBytes),
    'desk-findings': markdown('Desk findings', 2000),
    'decision-record': markdown('Decision record', 2000),
    'decision-summary': decisionSummary(),
  };
}
