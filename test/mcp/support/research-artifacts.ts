/** Artifact bodies a faithful harness writes for the packaged research-decision workflow (desk-research route). */
import type { JsonObject } from '../../../src/core/index.js';

export const DECISION_QUESTION = 'Which message queue should the billing service adopt?';

export const EVIDENCE_TABLE: JsonObject = {
  decision_question: DECISION_QUESTION,
  criteria: [
    { criterion_id: 'ordering', description: 'Per-account ordering of billing events', priority: 'must-have' },
    { criterion_id: 'ops-cost', description: 'Operational cost for a two-person team', priority: 'important' },
  ],
  options: [
    { option_id: 'kafka', name: 'Apache Kafka', summary: 'Partitioned log with consumer groups', status: 'candidate' },
    { option_id: 'rabbitmq', name: 'RabbitMQ', summary: 'Broker with queues and exchanges', status: 'candidate' },
  ],
  sources: [
    {
      source_id: 'S1',
      title: 'Kafka documentation: design',
      kind: 'official-docs',
      url: 'https://kafka.apache.org/documentation/#design',
      accessed: '2026-11-02',
      independence: 'vendor',
    },
    {
      source_id: 'S2',
      title: 'Internal load test of the billing pipeline',
      kind: 'measurement',
      locator: 'ops-wiki/billing/load-test-2026-10',
      accessed: '2026-11-02',
      independence: 'internal',
    },
  ],
  claims: [
    {
      claim_id: 'C1',
      option_id: 'kafka',
      criterion_id: 'ordering',
      statement: 'Kafka keeps per-partition order, so keying by account preserves per-account ordering.',
      direction: 'favours',
      evidence_quality: 'high',
      quality_rationale: 'Primary documentation of the guarantee.',
      citations: [{ source_id: 'S1', locator: 'section 4.1' }],
    },
    {
      claim_id: 'C2',
      option_id: 'rabbitmq',
      criterion_id: 'ops-cost',
      statement: 'RabbitMQ ran the measured load on one small node.',
      direction: 'favours',
      evidence_quality: 'moderate',
      quality_rationale: 'One internal measurement, not repeated.',
      citations: [{ source_id: 'S2' }],
    },
  ],
  gaps: ['Behaviour under a broker failover was not measured.'],
};

export const DESK_FINDINGS =
  '# Desk findings\n\nKafka meets the ordering criterion (C1); RabbitMQ is cheaper to run (C2).\n';

export const DECISION_RECORD =
  '# Decision record\n\nAdopt Kafka for billing events, keyed by account, because ordering is a must-have (C1).\n';

export const DECISION_SUMMARY: JsonObject = {
  decision_question: DECISION_QUESTION,
  status: 'proposed',
  decision: { outcome: 'adopt', chosen_option_id: 'kafka', statement: 'Adopt Kafka keyed by account.' },
  options_considered: [
    { option_id: 'kafka', name: 'Apache Kafka', verdict: 'chosen', reason: 'Meets the ordering must-have.' },
    { option_id: 'rabbitmq', name: 'RabbitMQ', verdict: 'runner-up', reason: 'Cheaper, ordering needs extra work.' },
  ],
  rationale: ['Per-account ordering is a must-have and Kafka provides it directly (C1).'],
  risks: [{ risk: 'Operational load', likelihood: 'medium', impact: 'medium', mitigation: 'Use a managed service.' }],
  follow_ups: [{ action: 'Run a failover test', owner: 'ops-lead' }],
  confidence: { level: 'medium', explanation: 'One internal measurement backs the cost claim.' },
  evidence_refs: ['C1', 'C2'],
};

export const RESEARCH_PLAN = [
  '# Research plan',
  '',
  '## Decision question',
  '',
  DECISION_QUESTION,
  '',
  '## What we must learn',
  '',
  '- L1: Does each option keep per-account ordering?',
  '- L2: What does each option cost a two-person team to run?',
  '',
  '## Criteria',
  '',
  '- ordering (must-have), ops-cost (important)',
  '',
  '## Options in scope',
  '',
  '- kafka, rabbitmq',
  '',
].join('\n');

export const SPIKE_RESULTS: JsonObject = {
  decision_question: DECISION_QUESTION,
  environment: { description: 'Laptop, local Docker, single broker node, 1 KiB messages' },
  experiments: [
    {
      experiment_id: 'E1',
      option_id: 'kafka',
      hypothesis: 'Kafka keeps per-account order with 12 partitions keyed by account at 2,000 msg/s',
      setup: {
        description: 'Single broker in Docker; Node producer keyed by account; consumer checks sequence numbers.',
        commands: ['docker compose up -d', 'node order-check.mjs --rate 2000 --seconds 60'],
        dependencies: [{ name: 'kafkajs', version: '2.2.4' }],
        notes_section: 'E1',
      },
      measurements: [{ metric: 'out-of-order events', value: 0, unit: 'events', runs: 5 }],
      verdict: 'confirmed',
      verdict_rationale: 'No reordering in five runs of 120,000 events.',
    },
  ],
  limitations: ['One broker; a failover was not exercised.'],
};

export const SPIKE_NOTES = '# Spike notes\n\n## E1\n\nRun `docker compose up -d`, then `node order-check.mjs`.\n';

/** Artifact bodies by artifact id. */
export const BODIES: Readonly<Record<string, string>> = {
  'research-plan': RESEARCH_PLAN,
  'spike-results': JSON.stringify(SPIKE_RESULTS),
  'spike-notes': SPIKE_NOTES,
  'evidence-table': JSON.stringify(EVIDENCE_TABLE),
  'desk-findings': DESK_FINDINGS,
  'decision-record': DECISION_RECORD,
  'decision-summary': JSON.stringify(DECISION_SUMMARY),
};
