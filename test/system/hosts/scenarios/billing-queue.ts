/**
 * Scenario for the host tests of the packaged research-decision@1.3.0 workflow: a two-person platform team chooses how
 * the billing service publishes billing events to the ledger, notifications and analytics.
 *
 * The module holds what the person says (objective and interview answers), the repository the agent works in, and the
 * artifact drafts the scripted model writes on each route. Each route's first draft of one artifact carries exactly one
 * flaw that a validator brief makes an error; the last draft of every artifact passes. billing-queue.test.ts proves
 * the content is what the validators will see (schemas, sizes, quotes, ids, the flaws).
 */
import type { JsonValue } from '../../../../src/core/index.js';

export interface Scenario {
  readonly id: string;
  readonly objective: string;
  readonly interview: Readonly<Record<string, JsonValue>>;
  readonly route: 'desk-research' | 'prototype-spike';
  readonly repository: Readonly<Record<string, string>>;
  readonly drafts: Readonly<Record<string, readonly string[]>>;
}

/** A text file: its lines joined with '\n', ending in '\n'. */
const md = (...lines: readonly string[]): string => lines.join('\n') + '\n';
const json = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';
const FENCE = '```';

const QUESTION = 'Which message queue should the billing service adopt for billing events?';
const ACCESSED = '2026-11-10';

// ---------------------------------------------------------------------------------------------------------------------
// The person
// ---------------------------------------------------------------------------------------------------------------------

const OBJECTIVE =
  'Give the ledger, notifications and analytics a reliable stream of billing events in per-account order, so that a ' +
  'refund can never again be applied before, or twice alongside, the payment it reverses (INC-2026-031), without more ' +
  'operating work than our two-person platform team can carry.';

const INTERVIEW: Record<string, JsonValue> = {
  decision_question: QUESTION,
  candidate_options: [
    'rabbitmq: RabbitMQ 4.x quorum queues, single active consumer per queue for ordering',
    'nats-jetstream: NATS JetStream 2.x',
    'postgres-outbox: transactional outbox table in our existing PostgreSQL, consumers poll with FOR UPDATE SKIP LOCKED',
  ],
  constraints: [
    'Runs on what we already operate or self-hosted on our managed Kubernetes cluster; no new SaaS vendors',
    'Billing data stays in the EU (eu-central-1)',
    'At most 4 hours a month of routine operations for the new component; the platform team is two people',
    'At most EUR 300 a month of additional infrastructure',
    'Consumers are Node.js 20 TypeScript services: the option needs a maintained Node.js client',
    'Open-source licence only (Apache-2.0, MPL-2.0 or the PostgreSQL licence); no paid support contract in 2027',
    'Team skills: both engineers know PostgreSQL well and ran RabbitMQ 3.x at a previous job; nobody has run NATS',
  ],
  stakeholders: [
    'Maren (platform lead, decides)',
    'Tobias (platform engineer, builds and operates the result)',
    'Ledger team (main consumer, consulted)',
    'Notifications team (consumer, informed)',
    'Analytics owner (consumer, informed; asked to be able to replay past events, nice to have)',
    'Finance operations (nightly reconciliation, consulted)',
  ],
  deadline: 'before the Q1 planning on 2026-12-07; the ledger migration waits for this decision',
  success_criteria: [
    "Zero out-of-order billing events per account in the ledger's sequence check over the first 90 days",
    'Zero duplicate ledger entries in the nightly reconciliation: every consumer drops redelivered events by event_id',
    'At most one on-call page a month caused by the event pipeline, and under 4 hours a month of routine operations',
  ],
};

// ---------------------------------------------------------------------------------------------------------------------
// Sentences the evidence quotes. Each stands on one line of its repository file, so the quote is verbatim.
// ---------------------------------------------------------------------------------------------------------------------

const Q = {
  loadRabbitOrder: 'RabbitMQ: 0 out-of-order events in 5 of 5 runs, each with one consumer pod killed at minute 5.',
  loadOutboxOrder:
    'Outbox (per-account sequence relay): 0 out-of-order events in 5 of 5 runs, each with one relay worker killed at minute 5.',
  loadRabbitDelivery: 'RabbitMQ: 0 lost events in 5 of 5 runs, each with one broker node restarted at minute 7.',
  loadOutboxDelivery:
    'Outbox: 0 lost events in 5 of 5 runs; the batch held by the killed relay worker was delivered again and dropped by event_id in the consumer.',
  loadGap:
    'In run 3 of that first relay design (8 writer connections, 200 events/s), 3 events were never delivered, because their ids were allocated before, but committed after, a higher id the relay had already passed.',
  loadCpu:
    'At 50 events/s the outbox raised mean CPU on the staging primary from 31% to 35% (5 runs, min 34% / max 37%).',
  budgetSetup:
    'Setting up the three-node RabbitMQ staging cluster with the cluster operator took 3.5 hours, and rehearsing a rolling upgrade from 4.0.9 to 4.1.4 took 1.5 hours, including one quorum queue member we had to re-add by hand.',
  budgetRabbit:
    'We estimate 6 to 8 hours a month of routine work for a production RabbitMQ cluster, above the 4-hour budget for a new component.',
  budgetNats: 'Neither of us has operated NATS in production, so we have no estimate we would trust.',
  budgetOutbox:
    'The outbox adds a table, a partition job and a relay deployment to systems we already run; we estimate 1 to 2 hours a month.',
  rabbitSac:
    'With single active consumer enabled, only one consumer of the queue receives messages at a time, and another registered consumer takes over when it goes away.',
  rabbitHash:
    'A consistent hash exchange routes every message with the same routing key to the same queue, so using the account id as routing key keeps an account on one queue.',
  rabbitAck:
    "A message is removed from a quorum queue only after the consumer acknowledges it; unacknowledged messages are returned to the queue when the consumer's channel closes.",
  rabbitRetention:
    'An acknowledged message is gone from a quorum queue; re-reading old events would need a stream, which is a different queue type with its own consumers.',
  natsOrder:
    'A pull consumer with max_ack_pending set to 1 hands out the next message of its filtered subjects only after the previous one is acknowledged, so each partition is processed in stream order.',
  natsRedelivery:
    'A message that is not acknowledged within ack_wait is delivered again, so a consumer must expect duplicates.',
  natsDedup:
    "The server drops a second publish with the same Nats-Msg-Id header inside the stream's duplicate window (two minutes by default).",
  natsCluster:
    'A stream with three replicas needs a cluster of at least three servers, and each server keeps its own copy on disk.',
  outboxGap:
    'Never advance a cursor over the global id: ids come from a sequence and can commit out of order, so a reader that has passed id 1002 can miss id 1001 when it commits later.',
  outboxReplay:
    'Outbox rows are kept for 30 days in daily partitions; a consumer replays by lowering its stored account_seq cursors.',
  vendorSingleNode: 'JetStream handles any billing workload with a single node.',
  publisherOrder:
    "Per-account ordering: account_seq is assigned under the account row lock (withAccountLock), so one account's events are numbered and committed strictly in order.",
  consumerDedupe:
    'Duplicates are expected: every transport we consider delivers at least once, so consumers dedupe on event_id.',
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// The repository before the run
// ---------------------------------------------------------------------------------------------------------------------

const README = md(
  '# billing-service',
  '',
  "Billing for Larkspur's subscription customers: invoices, payment capture, refunds and credit notes. The service owns",
  'the `billing` schema in the main PostgreSQL 16 database (managed, eu-central-1) and tells three other services what',
  'happened to an account.',
  '',
  '## Consumers of billing events',
  '',
  '| Consumer      | What it does with the events                              | Owner              |',
  '| ------------- | --------------------------------------------------------- | ------------------ |',
  '| ledger        | Posts every money movement to the double-entry ledger     | Ledger team        |',
  '| notifications | Emails invoices, receipts and refund confirmations        | Notifications team |',
  '| analytics     | Revenue and churn reports, rebuilt nightly                | Analytics          |',
  '',
  'Today every event goes to every consumer as an HTTP webhook from `src/billing/publisher.ts`, retried in memory. That',
  'fan-out has lost and reordered events (see `docs/incidents/2026-09-refund-double-credit.md`), and we are choosing a',
  'queue to replace it.',
  '',
  '## Layout',
  '',
  '- `src/billing/events.ts`: the event envelope and event types.',
  '- `src/billing/account-lock.ts`: the account row lock every money-moving transaction takes.',
  '- `src/billing/publisher.ts`: the webhook fan-out we want to replace.',
  '- `src/billing/consumer.ts`: the idempotent consumer sketch we will share with the consumer teams.',
  "- `docs/ops/`: load tests and the platform team's operations budget.",
  '- `docs/incidents/`: postmortems.',
  '- `docs/notes/`: our own reading and design notes.',
  '- `docs/vendor/`: material vendors sent us, kept for reference and not reviewed.',
  '',
  '## Development',
  '',
  '    npm ci',
  '    npm run build',
  '    npm test',
  '',
  '`npm start` needs `DATABASE_URL` pointing at a local database without a password (trust auth); production',
  'credentials come from the cluster secret store and never from this repository.',
);

const PACKAGE_JSON = json({
  name: 'billing-service',
  version: '3.14.2',
  private: true,
  description: 'Invoices, payment capture, refunds and credit notes for Larkspur accounts.',
  type: 'module',
  engines: { node: '>=20.11' },
  scripts: {
    build: 'tsc -p tsconfig.json',
    start: 'node dist/src/main.js',
    test: 'node --test dist/test',
    lint: 'eslint src test',
  },
  dependencies: { fastify: '^5.2.1', pg: '^8.23.1', pino: '^9.6.0' },
  devDependencies: { '@types/node': '^20.19.0', '@types/pg': '^8.15.0', eslint: '^9.20.0', typescript: '~5.9.3' },
});

const EVENTS_TS = md(
  '/**',
  ' * The billing event envelope. Every consumer (ledger, notifications, analytics) receives the same JSON object, UTF-8,',
  ' * at most 16 KiB. Field names are snake_case because the ledger and analytics also read them from SQL.',
  ' */',
  'export type BillingEventType =',
  "  | 'invoice.created'",
  "  | 'invoice.finalized'",
  "  | 'invoice.voided'",
  "  | 'payment.captured'",
  "  | 'payment.failed'",
  "  | 'refund.issued'",
  "  | 'credit_note.issued';",
  '',
  'export interface BillingEvent {',
  '  /** UUIDv7 generated by billing; consumers deduplicate on it. */',
  '  readonly event_id: string;',
  '  readonly type: BillingEventType;',
  '  readonly account_id: string;',
  '  /** 1, 2, 3, ... per account, assigned under the account row lock: no gaps, never reused (since 2026-10-02). */',
  '  readonly account_seq: number;',
  '  /** When the billing transaction committed, ISO 8601 in UTC. */',
  '  readonly occurred_at: string;',
  '  readonly data: Readonly<Record<string, unknown>>;',
  '}',
  '',
  '/** The consumer groups that receive every event. */',
  "export const CONSUMERS = ['ledger', 'notifications', 'analytics'] as const;",
  'export type Consumer = (typeof CONSUMERS)[number];',
  '',
  '/** Events that move money: the ledger must apply them in account_seq order. */',
  'export const MONEY_MOVING: ReadonlySet<BillingEventType> = new Set([',
  "  'payment.captured',",
  "  'refund.issued',",
  "  'credit_note.issued',",
  ']);',
);

const ACCOUNT_LOCK_TS = md(
  "import type { PoolClient } from 'pg';",
  '',
  '/**',
  ' * Runs one money-moving change (invoice, capture, refund, credit note) under the account row lock. The lock is taken',
  ' * with SELECT ... FOR UPDATE on billing.accounts and held until COMMIT, so two changes to one account never interleave.',
  " * nextSeq() hands out the account's next event sequence number inside the same transaction.",
  ' */',
  'export async function withAccountLock<T>(',
  '  client: PoolClient,',
  '  accountId: string,',
  '  work: (nextSeq: () => Promise<number>) => Promise<T>,',
  '): Promise<T> {',
  "  await client.query('BEGIN');",
  '  try {',
  "    await client.query('SELECT 1 FROM billing.accounts WHERE id = $1 FOR UPDATE', [accountId]);",
  '    const nextSeq = async (): Promise<number> => {',
  '      const result = await client.query<{ event_seq: string }>(',
  "        'UPDATE billing.accounts SET event_seq = event_seq + 1 WHERE id = $1 RETURNING event_seq',",
  '        [accountId],',
  '      );',
  '      return Number(result.rows[0]?.event_seq);',
  '    };',
  '    const value = await work(nextSeq);',
  "    await client.query('COMMIT');",
  '    return value;',
  '  } catch (error) {',
  "    await client.query('ROLLBACK');",
  '    throw error;',
  '  }',
  '}',
);

const PUBLISHER_TS = md(
  "import { setTimeout as sleep } from 'node:timers/promises';",
  "import type { BillingEvent } from './events.js';",
  '',
  '// How billing events leave the service today: after COMMIT, one HTTP POST per consumer, retried in memory.',
  '//',
  `// ${Q.publisherOrder}`,
  '// This fan-out does not keep that order. Every delivery retries on its own backoff timer, so a retried',
  '// payment.captured can reach a consumer after the refund.issued that follows it (INC-2026-031).',
  "// Retries live in this process's memory: a deploy or a crash during a backoff loses the delivery.",
  "// Whatever replaces this must hand each consumer one account's events in account_seq order, at least once.",
  '',
  'export interface Webhook {',
  '  readonly consumer: string;',
  '  readonly url: string;',
  '}',
  '',
  'const BACKOFF_MS = [500, 2_000, 10_000, 60_000, 300_000];',
  'const TIMEOUT_MS = 5_000;',
  '',
  'export class WebhookPublisher {',
  '  readonly #hooks: readonly Webhook[];',
  '',
  '  constructor(hooks: readonly Webhook[]) {',
  '    this.#hooks = hooks;',
  '  }',
  '',
  '  /** Called after COMMIT. The billing request does not wait for the consumers. */',
  '  publish(event: BillingEvent): void {',
  '    for (const hook of this.#hooks) void this.#deliver(hook, event, 0);',
  '  }',
  '',
  '  async #deliver(hook: Webhook, event: BillingEvent, attempt: number): Promise<void> {',
  '    try {',
  '      const response = await fetch(hook.url, {',
  "        method: 'POST',",
  "        headers: { 'content-type': 'application/json', 'idempotency-key': event.event_id },",
  '        body: JSON.stringify(event),',
  '        signal: AbortSignal.timeout(TIMEOUT_MS),',
  '      });',
  '      if (response.ok) return;',
  '      throw new Error(`HTTP ${response.status}`);',
  '    } catch (error) {',
  '      const delay = BACKOFF_MS[attempt];',
  '      if (delay === undefined) {',
  "        console.error('webhook delivery gave up', { consumer: hook.consumer, event_id: event.event_id, error });",
  '        return;',
  '      }',
  '      await sleep(delay);',
  '      await this.#deliver(hook, event, attempt + 1);',
  '    }',
  '  }',
  '}',
);

const CONSUMER_TS = md(
  "import type { PoolClient } from 'pg';",
  "import type { BillingEvent } from './events.js';",
  '',
  '// Sketch of the consumer side, to share with ledger, notifications and analytics once the transport is chosen.',
  `// ${Q.consumerDedupe}`,
  "// Order is checked, not assumed: an event whose account_seq is not the account's last_seq + 1 is not applied, and",
  "// the transport delivers it again later. processed_events and account_cursors live in the consumer's own database.",
  '',
  "export type Outcome = 'applied' | 'duplicate' | 'out-of-order';",
  '',
  'export async function consume(',
  '  client: PoolClient,',
  '  consumer: string,',
  '  event: BillingEvent,',
  '  apply: (client: PoolClient, event: BillingEvent) => Promise<void>,',
  '): Promise<Outcome> {',
  "  await client.query('BEGIN');",
  '  try {',
  '    const fresh = await client.query(',
  "      'INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',",
  '      [consumer, event.event_id],',
  '    );',
  '    if (fresh.rowCount === 0) {',
  "      await client.query('ROLLBACK');",
  "      return 'duplicate';",
  '    }',
  '    const cursor = await client.query<{ last_seq: string }>(',
  "      'SELECT last_seq FROM account_cursors WHERE consumer = $1 AND account_id = $2 FOR UPDATE',",
  '      [consumer, event.account_id],',
  '    );',
  '    const last = Number(cursor.rows[0]?.last_seq ?? 0);',
  '    if (event.account_seq !== last + 1) {',
  "      await client.query('ROLLBACK');",
  "      return 'out-of-order';",
  '    }',
  '    await apply(client, event);',
  '    await client.query(',
  "      'INSERT INTO account_cursors (consumer, account_id, last_seq) VALUES ($1, $2, $3) ' +",
  "        'ON CONFLICT (consumer, account_id) DO UPDATE SET last_seq = EXCLUDED.last_seq',",
  '      [consumer, event.account_id, event.account_seq],',
  '    );',
  "    await client.query('COMMIT');",
  "    return 'applied';",
  '  } catch (error) {',
  "    await client.query('ROLLBACK');",
  '    throw error;',
  '  }',
  '}',
);

const LOAD_TEST = md(
  '# Load test: RabbitMQ and a Postgres outbox for billing events (October 2026)',
  '',
  'Tobias and Maren, 2026-10-19 to 2026-10-23, on the staging cluster. The question: can either transport carry billing',
  'events in per-account order, at least once, at twice our current peak? NATS JetStream was not part of this test; we',
  'ran out of time to set it up.',
  '',
  '## Setup',
  '',
  '- RabbitMQ 4.1.4: three nodes (2 vCPU, 4 GiB each) run by the RabbitMQ cluster operator on staging Kubernetes. Eight',
  '  quorum queues bound to a consistent hash exchange with the account id as routing key, single active consumer on',
  '  every queue, publisher confirms, manual acks, prefetch 20.',
  '- Postgres outbox: a `billing_outbox` table on the staging primary (managed PostgreSQL 16.4, 2 vCPU, 8 GiB), written',
  '  in the same transaction as the billing change. Four relay workers per consumer group, each holding a partition lease',
  '  taken with `FOR UPDATE SKIP LOCKED`; 250 ms poll interval when a partition is empty. Design in',
  '  `docs/notes/postgres-outbox.md`.',
  '- Load: our `loadgen` tool (platform-tools repository, commit 7c41e2a) on Node.js 20.18, 5,000 accounts, an event mix',
  "  drawn from September's production traffic (62% invoice events, 30% payment events, 8% refunds and credit notes),",
  '  payloads of 0.6 to 2 KiB, three consumer groups (ledger, notifications, analytics) as in production.',
  '',
  '## Method',
  '',
  '- Three rates: 25 events/s (our current peak), 50 events/s and 200 events/s.',
  '- 5 runs of 15 minutes per transport and rate; the first 2 minutes of each run are warm-up and not counted.',
  '- Latency: from the publish call to the start of the consumer handler, on chrony-synced pod clocks (largest offset',
  '  we saw: 0.4 ms).',
  '- Failures: at minute 5 of every run we deleted one consumer pod (RabbitMQ) or one relay worker (outbox) with',
  '  `kubectl delete pod --grace-period=0`; at minute 7 of every RabbitMQ run we restarted one broker node.',
  '- Every consumer checked account_seq per account and logged each gap, reordering and duplicate.',
  '',
  '## Results',
  '',
  'p95 publish-to-consume latency, median of the 5 runs, with min / max across runs:',
  '',
  '| Rate         | RabbitMQ        | Outbox             |',
  '| ------------ | --------------- | ------------------ |',
  '| 25 events/s  | 11 ms (10 / 13) | 262 ms (251 / 280) |',
  '| 50 events/s  | 14 ms (12 / 17) | 291 ms (270 / 318) |',
  '| 200 events/s | 23 ms (19 / 31) | 344 ms (305 / 402) |',
  '',
  "The outbox's latency is mostly the 250 ms poll interval; a shorter interval trades latency for database load (see",
  'Database load). Neither transport fell behind at any rate: consumer lag never exceeded 2 s.',
  '',
  '## Ordering check',
  '',
  Q.loadRabbitOrder,
  '',
  Q.loadOutboxOrder,
  '',
  '## Delivery check',
  '',
  Q.loadRabbitDelivery,
  '',
  Q.loadOutboxDelivery,
  '',
  "Redeliveries after a kill: RabbitMQ 3 to 19 per kill (the killed consumer's unacknowledged prefetch), outbox 1 to 46",
  '(one relay batch). The restarted RabbitMQ node rejoined its quorum queues without manual steps in 40 to 70 s.',
  '',
  '## Commit-order gap',
  '',
  'Our first outbox relay advanced a single high-water mark over `billing_outbox.id` instead of reading per account.',
  '',
  Q.loadGap,
  '',
  'We replaced it with the per-account sequence relay and repeated every outbox run; all outbox numbers in this document',
  'come from the repeated runs.',
  '',
  '## Database load',
  '',
  Q.loadCpu,
  '',
  'At 200 events/s it reached 44% (min 41% / max 47%). The outbox table grew by about 0.9 GiB a day at 50 events/s',
  'before partition drops.',
  '',
  '## Caveats',
  '',
  '- The staging primary has 2 vCPU; production has 4. RabbitMQ shared its nodes with other staging workloads.',
  '- One load generator pod; we did not go above 200 events/s.',
  '- The RabbitMQ and outbox runs used different consumer adapters in `loadgen`; load, accounts and checks were the same.',
);

const BUDGET = md(
  '# Platform operations budget (2026)',
  '',
  'Maren, 2026-10-30. Input for the billing events decision; we revisit it in April 2027.',
  '',
  '## Who we are',
  '',
  'The platform team is two engineers, Maren and Tobias. We share a one-week on-call rotation and also build the',
  'internal developer tooling, so operations have to stay small.',
  '',
  '## What we run today',
  '',
  '| System                                    | Patching and backups           | Our routine work per month |',
  '| ----------------------------------------- | ------------------------------ | -------------------------- |',
  '| Managed PostgreSQL 16 (primary + replica) | the cloud provider             | about 1 hour               |',
  '| Managed Kubernetes (3 worker nodes)       | the provider (control plane)   | about 3 hours              |',
  '| Redis cache                               | us                             | under 1 hour               |',
  '| CI runners                                | us                             | about 2 hours              |',
  '',
  '## Budget for a new component',
  '',
  'A new component may take at most 4 hours a month of routine work, averaged over a quarter, and cause at most one',
  'on-call page a month.',
  '',
  '## What we measured',
  '',
  Q.budgetSetup,
  '',
  'Both numbers are from our time sheets for the October load test (docs/ops/load-test-2026-10.md).',
  '',
  '## Estimates',
  '',
  Q.budgetRabbit,
  'It covers minor upgrades every six to eight weeks, quorum membership after node moves, memory and disk alarms, and',
  'certificate rotation.',
  '',
  Q.budgetNats,
  '',
  Q.budgetOutbox,
  '',
  'These are estimates by the two people who would do the work, not records of production hours.',
);

const INCIDENT = md(
  '# INC-2026-031: refund credited twice after out-of-order webhooks',
  '',
  '- Date: 2026-09-17; detected 2026-09-18 by the nightly ledger reconciliation',
  '- Severity: SEV-2 (customer money, one account)',
  '- Authors: Tobias, with the ledger team',
  '- Status: closed; action items below',
  '',
  '## Summary',
  '',
  "A customer's EUR 1,240.00 partial refund was credited twice to their ledger balance. The refund.issued event reached",
  'the ledger before the payment.captured event it reverses, and a retried delivery of the same refund was applied a',
  'second time.',
  '',
  '## Timeline (UTC)',
  '',
  '- 14:02:11 payment.captured for invoice INV-88213 committed; the webhook to the ledger timed out during a ledger',
  '  deploy and went into backoff.',
  '- 14:02:39 support issued a partial refund; refund.issued committed and reached the ledger at once.',
  '- 14:02:39 the ledger found no captured payment for the refund and parked it as an orphan credit.',
  '- 14:02:51 the payment.captured retry arrived; the ledger applied it, then applied the parked orphan credit.',
  "- 14:03:05 the refund.issued webhook was retried because the ledger's first response had timed out at the load",
  '  balancer; the ledger applied it again through the normal refund path.',
  '- next day 02:10 the reconciliation flagged the account; 09:40 finance operations corrected it by hand.',
  '',
  '## Root cause',
  '',
  "1. The webhook fan-out retries each delivery on its own timer, so one account's events can arrive out of order.",
  "2. The ledger's orphan-credit path and its normal refund path deduplicated on different keys, so the retried refund",
  '   looked new.',
  '',
  '## Impact',
  '',
  'One account over-credited by EUR 1,240.00 for 19 hours; no payout happened. We checked every refund since 2026-06-01',
  'and found no other case.',
  '',
  '## Action items',
  '',
  '- [x] Add account_seq to every billing event, assigned under the account row lock (billing, done 2026-10-02).',
  '- [x] The ledger deduplicates every event on event_id alone (ledger team, done 2026-09-30).',
  "- [ ] Replace the webhook fan-out with a transport that delivers one account's events in order, at least once",
  '      (platform team; decision due before the 2026-12-07 planning).',
  '- [ ] Share one idempotent consumer library across consumers (platform team, after the transport decision).',
);

const RABBIT_NOTES = md(
  '# Reading notes: RabbitMQ 4.x quorum queues for billing events',
  '',
  'Maren, 2026-10-14. Our summary of the RabbitMQ 4.1 documentation on quorum queues, consumers, publisher confirms and',
  'the consistent hash exchange plugin. Based on vendor documentation: we have not checked these points against the',
  'source code. Where the October load test touched a point, we say so.',
  '',
  '## Quorum queues',
  '',
  'A quorum queue keeps its messages on a majority of its replicas (Raft), so a three-node cluster keeps working when one',
  'node is down. They are the replicated queue type in 4.x; classic mirrored queues are gone.',
  '',
  '## Single active consumer',
  '',
  Q.rabbitSac,
  '',
  'A queue with single active consumer is worked off in order by one consumer at a time, so parallelism comes from having',
  'several queues, not several consumers per queue.',
  '',
  '## Partitioning by account',
  '',
  Q.rabbitHash,
  '',
  'Adding or removing a queue moves some accounts to another queue; in-flight events of a moved account could then be',
  'processed out of order, so we would only change the queue count in a drained maintenance window.',
  '',
  '## Publisher confirms and acknowledgements',
  '',
  'With publisher confirms, the broker confirms a message to a quorum queue once a majority of replicas have written it.',
  '',
  Q.rabbitAck,
  '',
  'Delivery is therefore at least once: a consumer that crashes after its handler ran but before the ack sees the',
  'message again. The October load test showed the same (docs/ops/load-test-2026-10.md, Delivery check).',
  '',
  '## Retention',
  '',
  Q.rabbitRetention,
  '',
  '## Operations',
  '',
  '- Three nodes for replicated quorum queues; an even number of nodes buys nothing.',
  '- Rolling upgrades one minor version at a time; all stable feature flags must be enabled before the next upgrade.',
  '- Memory and disk alarms block publishers, so billing must not publish inside its request path without a timeout.',
  '- Node.js client: amqplib, maintained, MIT licence. RabbitMQ itself is MPL-2.0.',
);

const NATS_NOTES = md(
  '# Reading notes: NATS JetStream for billing events',
  '',
  'Tobias, 2026-10-15. Our summary of the NATS documentation for server 2.11 (JetStream streams, consumers,',
  'acknowledgements, clustering) and of the README of the nats.js JetStream client. Based on vendor documentation; we',
  'have not run JetStream ourselves.',
  '',
  '## Streams and subjects',
  '',
  'A stream captures the messages published on its subjects and stores them on the server. We would publish on',
  '`billing.p<n>`, with n = hash(account_id) mod 16, so one account always lands on one partition subject.',
  '',
  '## Ordering',
  '',
  "A stream stores messages in the order the server receives them; a consumer filtered on one subject sees that subject's",
  'messages in stream order.',
  '',
  Q.natsOrder,
  '',
  'With max_ack_pending above 1, a redelivered message can arrive after messages published later, and per-account order',
  'would then need a check in the consumer.',
  '',
  '## Acknowledgements and redelivery',
  '',
  Q.natsRedelivery,
  '',
  '## Deduplication',
  '',
  Q.natsDedup,
  '',
  'This protects the publish side only; consumers still have to deduplicate on event_id.',
  '',
  '## Clustering and replication',
  '',
  Q.natsCluster,
  '',
  "A single server (one replica) loses the stream's messages if its disk is lost.",
  '',
  '## Retention and replay',
  '',
  'Streams keep messages by limits (age, size or count) rather than until they are acknowledged, so a new consumer can',
  'start from a point in time. We did not look into this further.',
  '',
  '## Open questions',
  '',
  '- How much work is a three-server cluster for us? Nobody on the team has run NATS.',
  '- The maintained Node.js client is @nats-io/jetstream 3.x with @nats-io/transport-node; its API differs from nats 2.x.',
);

const OUTBOX_NOTES = md(
  '# Design note: transactional outbox on PostgreSQL',
  '',
  'Maren and Tobias, 2026-10-26, after the October load test. Our own design; nothing beyond the load-test relay is built.',
  '',
  '## Write path',
  '',
  'The billing transaction that changes an account also inserts its events into `billing.billing_outbox`, under the',
  'account row lock it already holds (`src/billing/account-lock.ts`). An event exists exactly when the change it',
  'describes committed, so there is no dual write to get wrong.',
  '',
  '## Per-account sequence',
  '',
  "Each event carries account_seq from `withAccountLock`. Because the lock is held until COMMIT, one account's events",
  'commit in account_seq order with no gaps, whatever happens to other accounts.',
  '',
  '## Relay and leases',
  '',
  'Each consumer group has 16 partition rows in `relay_leases`. A relay worker takes one with',
  "`SELECT ... FOR UPDATE SKIP LOCKED`, reads that partition's events above its stored account_seq cursor for each",
  'account, hands them to the consumer and stores the new cursors in the same transaction. A crashed worker releases its',
  'lease with its connection, and the next worker reads the batch again. The relay loop runs inside each consumer',
  'service (shared library) with a database role that can read the outbox and write only its own leases and cursors.',
  '',
  '## Why not a global high-water mark',
  '',
  Q.outboxGap,
  '',
  'The first load-test relay did exactly that and lost events (docs/ops/load-test-2026-10.md, Commit-order gap).',
  '',
  '## Retention and replay',
  '',
  Q.outboxReplay,
  '',
  "A nightly job creates tomorrow's partition and drops the one older than 30 days.",
  '',
  '## Costs we accept',
  '',
  '- Latency has the poll interval as its floor (250 ms in the load test); LISTEN/NOTIFY could wake relays earlier, but',
  '  we have not tried it.',
  '- Every event is written to the primary and its WAL; the load test measured what that costs at our rates.',
);

const VENDOR_ONE_PAGER = md(
  '# JetStream for billing teams',
  '',
  '> Received by email from Harborlight Messaging, a company that sells JetStream support subscriptions, on 2026-10-28',
  '> after a call with their account manager. Vendor material, kept for reference; we have checked none of it. (Maren)',
  '',
  '---',
  '',
  '**Harborlight Messaging: production JetStream, supported.**',
  '',
  'Your billing events deserve a platform that just works.',
  '',
  `- **Simple to run.** ${Q.vendorSingleNode}`,
  '- **Fast.** Sub-millisecond publish latency and millions of messages per second.',
  '- **Exactly once.** Built-in deduplication means your consumers never see a duplicate.',
  '- **Fewer moving parts.** No ZooKeeper, no Erlang, no plugins: one small binary.',
  '',
  'Teams like yours cut their messaging costs by up to 70% when they move to JetStream with Harborlight support.',
  '',
  '## Plans',
  '',
  '| Plan    | Included                                        | Price             |',
  '| ------- | ----------------------------------------------- | ----------------- |',
  '| Starter | Business-hours support, one cluster             | EUR 1,200 / month |',
  '| Growth  | 24/7 support, three clusters, architecture talk | EUR 3,900 / month |',
  '',
  'Ask your account manager for a free architecture review for billing teams this quarter.',
);

const REPOSITORY: Record<string, string> = {
  'README.md': README,
  'package.json': PACKAGE_JSON,
  'src/billing/events.ts': EVENTS_TS,
  'src/billing/account-lock.ts': ACCOUNT_LOCK_TS,
  'src/billing/publisher.ts': PUBLISHER_TS,
  'src/billing/consumer.ts': CONSUMER_TS,
  'docs/ops/load-test-2026-10.md': LOAD_TEST,
  'docs/ops/on-call-budget.md': BUDGET,
  'docs/incidents/2026-09-refund-double-credit.md': INCIDENT,
  'docs/notes/rabbitmq-quorum-queues.md': RABBIT_NOTES,
  'docs/notes/nats-jetstream.md': NATS_NOTES,
  'docs/notes/postgres-outbox.md': OUTBOX_NOTES,
  'docs/vendor/jetstream-one-pager.md': VENDOR_ONE_PAGER,
};

// ---------------------------------------------------------------------------------------------------------------------
// Research plan (select-route), one per route
// ---------------------------------------------------------------------------------------------------------------------

const OPTIONS_IN_SCOPE = [
  '- rabbitmq: RabbitMQ 4.x quorum queues behind a consistent hash exchange keyed by account, single active consumer',
  '  per queue.',
  '- nats-jetstream: NATS JetStream 2.x, subjects partitioned by account, one pull consumer per partition with',
  '  max_ack_pending 1.',
  '- postgres-outbox: an outbox table in our existing PostgreSQL 16, written in the billing transaction and read per',
  '  account sequence by relay workers holding partition leases taken with FOR UPDATE SKIP LOCKED.',
];

const OUT_OF_SCOPE = [
  '- Keeping the webhook fan-out in `src/billing/publisher.ts`: it caused INC-2026-031 and cannot keep per-account order.',
  '- Hosted queue services: the contract rules out new SaaS vendors.',
  '- Kafka and other options nobody proposed at the interview, unless all three options fail a must-have.',
  '- Exactly-once delivery: consumers deduplicate on event_id instead.',
];

const L_ORDERING =
  "- L1: Does each option hand one account's events to a consumer in account_seq order, also when the consumer crashes" +
  ' mid-stream? (success criterion: zero out-of-order events per account)';
const L_DELIVERY =
  '- L2: Does each option deliver every event at least once, with repeats that an event_id check drops? (success' +
  ' criterion: zero duplicate ledger entries)';
const L_OPS =
  '- L3: What would each option cost our two-person team to operate? (constraint: at most 4 hours a month; success' +
  ' criterion: at most one page a month)';

const DESK_PLAN = md(
  '# Research plan',
  '',
  '## Decision question',
  '',
  QUESTION,
  '',
  '## What we must learn',
  '',
  L_ORDERING,
  L_DELIVERY,
  L_OPS,
  '- L4: Can a consumer replay past events? (the analytics owner asked for it; nice to have)',
  '',
  '## Criteria',
  '',
  '- account-ordering (must-have), at-least-once (must-have), ops-cost (important), replay (nice-to-have)',
  '',
  '## Options in scope',
  '',
  ...OPTIONS_IN_SCOPE,
  '',
  '## Out of scope',
  '',
  ...OUT_OF_SCOPE,
  '',
  '## Route recommendation',
  '',
  'Desk research. All three options are established, and this repository already holds most of what L1 to L4 need: our',
  'October load test of RabbitMQ and the outbox with consumer kills and a broker restart, our operations budget and',
  'estimates, our reading notes on RabbitMQ and JetStream, and the outbox design note. JetStream was never measured by',
  'us, so its must-haves will rest on documentation; the findings will name that gap instead of guessing.',
);

const SPIKE_PLAN = md(
  '# Research plan',
  '',
  '## Decision question',
  '',
  QUESTION,
  '',
  '## What we must learn',
  '',
  L_ORDERING,
  L_DELIVERY,
  L_OPS,
  "- L4: What publish-to-consume latency does each option give at 50 events/s? Not a criterion: it shows what the outbox's",
  '  polling costs, and the notifications team asked.',
  '- L5: Can a consumer replay past events? (the analytics owner asked for it; nice to have)',
  '',
  '## Criteria',
  '',
  '- account-ordering (must-have), at-least-once (must-have), ops-cost (important), replay (nice-to-have)',
  '',
  '## Options in scope',
  '',
  ...OPTIONS_IN_SCOPE,
  '',
  '## Out of scope',
  '',
  ...OUT_OF_SCOPE,
  '',
  '## Route recommendation',
  '',
  'Prototype spike. L1 and L2 are empirical questions about our failure mode, a consumer crash in the middle of a stream.',
  'We have never run JetStream, and the October load test measured RabbitMQ and the outbox through different consumer',
  'adapters, so one harness for all three options is the fair comparison. Planned experiments, one per option, same',
  'harness, laptop and load (5 runs of 3,500 events for 200 accounts at 50 events/s, consumer crash at 40 s):',
  '',
  '- E1: rabbitmq, quorum queues with single active consumer.',
  '- E2: nats-jetstream, one pull consumer per partition with max_ack_pending 1.',
  '- E3: postgres-outbox, per-account sequence relay with partition leases.',
  '',
  'L3 cannot be measured in a spike: the decision weighs it from the contract constraints and follows it up. L5 is a',
  'follow-up.',
);

// ---------------------------------------------------------------------------------------------------------------------
// Desk research: evidence table and findings
// ---------------------------------------------------------------------------------------------------------------------

type Grade = 'high' | 'moderate' | 'low' | 'very-low';

interface Source {
  readonly source_id: string;
  readonly title: string;
  readonly kind: string;
  readonly locator: string;
  readonly version_or_date: string;
  readonly accessed: string;
  readonly independence: 'independent' | 'vendor' | 'community' | 'internal';
}

interface Citation {
  readonly source_id: string;
  readonly locator: string;
  readonly quote: string;
}

interface Claim {
  readonly claim_id: string;
  readonly option_id: string;
  readonly criterion_id: string;
  readonly statement: string;
  readonly direction: 'favours' | 'against' | 'neutral';
  readonly evidence_quality: Grade;
  readonly quality_rationale: string;
  readonly citations: readonly Citation[];
}

const CRITERIA = [
  {
    criterion_id: 'account-ordering',
    description: "One account's events reach each consumer in account_seq order, also after a consumer crash.",
    priority: 'must-have',
  },
  {
    criterion_id: 'at-least-once',
    description: 'No event is lost; consumers drop redelivered events by event_id (idempotent consumers).',
    priority: 'must-have',
  },
  {
    criterion_id: 'ops-cost',
    description: 'Routine operating work fits the two-person platform team: at most 4 hours and one page a month.',
    priority: 'important',
  },
  {
    criterion_id: 'replay',
    description: 'A consumer can re-read past events, for example to rebuild analytics reports.',
    priority: 'nice-to-have',
  },
] as const;

const OPTIONS = [
  {
    option_id: 'rabbitmq',
    name: 'RabbitMQ 4.x quorum queues',
    summary:
      'Quorum queues bound to a consistent hash exchange keyed by account id, single active consumer on each queue, ' +
      'publisher confirms and manual acks. Self-hosted as a three-node cluster on our Kubernetes.',
    status: 'candidate',
  },
  {
    option_id: 'nats-jetstream',
    name: 'NATS JetStream 2.x',
    summary:
      'One stream over billing.p<n> subjects partitioned by account, one pull consumer per partition with ' +
      'max_ack_pending 1, publish deduplication by Nats-Msg-Id. Self-hosted; replicated streams need three servers.',
    status: 'candidate',
  },
  {
    option_id: 'postgres-outbox',
    name: 'Transactional outbox in PostgreSQL 16',
    summary:
      'Events inserted into billing_outbox in the billing transaction under the account row lock; relay workers per ' +
      'consumer group take partition leases with FOR UPDATE SKIP LOCKED and read per account sequence.',
    status: 'candidate',
  },
] as const;

const SOURCES: readonly Source[] = [
  {
    source_id: 'S1',
    title: 'Load test of RabbitMQ and a Postgres outbox for billing events, October 2026',
    kind: 'measurement',
    locator: 'docs/ops/load-test-2026-10.md',
    version_or_date: 'RabbitMQ 4.1.4 and PostgreSQL 16.4, run 2026-10-19 to 2026-10-23',
    accessed: ACCESSED,
    independence: 'internal',
  },
  {
    source_id: 'S2',
    title: 'Platform operations budget and effort estimates',
    kind: 'internal-doc',
    locator: 'docs/ops/on-call-budget.md',
    version_or_date: '2026-10-30',
    accessed: ACCESSED,
    independence: 'internal',
  },
  {
    source_id: 'S3',
    title: 'Team reading notes on RabbitMQ 4.x quorum queues, summarising the RabbitMQ documentation',
    kind: 'internal-doc',
    locator: 'docs/notes/rabbitmq-quorum-queues.md',
    version_or_date: 'RabbitMQ 4.1 documentation, notes of 2026-10-14',
    accessed: ACCESSED,
    independence: 'vendor',
  },
  {
    source_id: 'S4',
    title: 'Team reading notes on NATS JetStream, summarising the NATS documentation',
    kind: 'internal-doc',
    locator: 'docs/notes/nats-jetstream.md',
    version_or_date: 'NATS server 2.11 documentation, notes of 2026-10-15',
    accessed: ACCESSED,
    independence: 'vendor',
  },
  {
    source_id: 'S5',
    title: 'Design note: transactional outbox on PostgreSQL',
    kind: 'internal-doc',
    locator: 'docs/notes/postgres-outbox.md',
    version_or_date: '2026-10-26',
    accessed: ACCESSED,
    independence: 'internal',
  },
  {
    source_id: 'S6',
    title: 'Harborlight Messaging sales one-pager: JetStream for billing teams',
    kind: 'vendor-material',
    locator: 'docs/vendor/jetstream-one-pager.md',
    version_or_date: 'received 2026-10-28',
    accessed: ACCESSED,
    independence: 'vendor',
  },
  {
    source_id: 'S7',
    title: 'Billing event publisher (webhook fan-out)',
    kind: 'source-code',
    locator: 'src/billing/publisher.ts',
    version_or_date: 'billing-service 3.14.2',
    accessed: ACCESSED,
    independence: 'internal',
  },
  {
    source_id: 'S8',
    title: 'Idempotent consumer sketch',
    kind: 'source-code',
    locator: 'src/billing/consumer.ts',
    version_or_date: 'billing-service 3.14.2',
    accessed: ACCESSED,
    independence: 'internal',
  },
];

const cite = (source_id: string, locator: string, quote: string): Citation => ({ source_id, locator, quote });

/** The claims; `flawed` grades C8 (vendor one-pager only) high, which evidence-quality check 2 makes an error. */
function claims(flawed: boolean): Claim[] {
  return [
    {
      claim_id: 'C1',
      option_id: 'rabbitmq',
      criterion_id: 'account-ordering',
      statement:
        'A consistent hash exchange keyed by account id sends each account to one quorum queue, and single active ' +
        'consumer lets one consumer at a time work that queue in order; the October load test saw no out-of-order ' +
        'event in five runs with a consumer killed in each.',
      direction: 'favours',
      evidence_quality: 'high',
      quality_rationale:
        'Vendor documentation describing behaviour, via our reading notes (moderate); confirmed in our own context by ' +
        'the October load test on RabbitMQ 4.1.4 with consumer kills (+1) → high.',
      citations: [
        cite('S3', 'docs/notes/rabbitmq-quorum-queues.md#partitioning-by-account', Q.rabbitHash),
        cite('S3', 'docs/notes/rabbitmq-quorum-queues.md#single-active-consumer', Q.rabbitSac),
        cite('S1', 'docs/ops/load-test-2026-10.md#ordering-check', Q.loadRabbitOrder),
      ],
    },
    {
      claim_id: 'C2',
      option_id: 'rabbitmq',
      criterion_id: 'at-least-once',
      statement:
        'Quorum queues keep a message until the consumer acknowledges it and return unacknowledged messages when the ' +
        "consumer's channel closes; the load test lost no event in five runs with a broker node restarted in each.",
      direction: 'favours',
      evidence_quality: 'high',
      quality_rationale:
        'Vendor documentation describing behaviour, via our reading notes (moderate); confirmed in our own context by ' +
        'five load-test runs with a broker node restart (+1) → high.',
      citations: [
        cite('S3', 'docs/notes/rabbitmq-quorum-queues.md#publisher-confirms-and-acknowledgements', Q.rabbitAck),
        cite('S1', 'docs/ops/load-test-2026-10.md#delivery-check', Q.loadRabbitDelivery),
      ],
    },
    {
      claim_id: 'C3',
      option_id: 'rabbitmq',
      criterion_id: 'ops-cost',
      statement:
        'A production RabbitMQ cluster is estimated at 6 to 8 hours of routine work a month, above the 4-hour budget; ' +
        'setting up the staging cluster took 3.5 hours and one upgrade rehearsal 1.5 hours.',
      direction: 'against',
      evidence_quality: 'moderate',
      quality_rationale:
        'Our own record of staging setup and upgrade hours, extrapolated by the people who would do the work to a ' +
        'monthly estimate; an estimate, not a record of production hours (−1 indirectness) → moderate.',
      citations: [
        cite('S2', 'docs/ops/on-call-budget.md#estimates', Q.budgetRabbit),
        cite('S2', 'docs/ops/on-call-budget.md#what-we-measured', Q.budgetSetup),
      ],
    },
    {
      claim_id: 'C4',
      option_id: 'rabbitmq',
      criterion_id: 'replay',
      statement:
        'Quorum queues delete a message once it is acknowledged, so a consumer cannot re-read past events without ' +
        'adding a stream.',
      direction: 'against',
      evidence_quality: 'moderate',
      quality_rationale:
        'Vendor documentation describing behaviour, via our reading notes (moderate); not tested by us.',
      citations: [cite('S3', 'docs/notes/rabbitmq-quorum-queues.md#retention', Q.rabbitRetention)],
    },
    {
      claim_id: 'C5',
      option_id: 'nats-jetstream',
      criterion_id: 'account-ordering',
      statement:
        'Publishing each account on one partition subject and giving each partition a pull consumer with ' +
        "max_ack_pending 1 processes one account's events in stream order.",
      direction: 'favours',
      evidence_quality: 'moderate',
      quality_rationale:
        'Vendor documentation describing behaviour, via our reading notes (moderate); a single source, never tested ' +
        'by us, and the only support for this must-have (named in gaps).',
      citations: [cite('S4', 'docs/notes/nats-jetstream.md#ordering', Q.natsOrder)],
    },
    {
      claim_id: 'C6',
      option_id: 'nats-jetstream',
      criterion_id: 'at-least-once',
      statement:
        'JetStream delivers a message again when it is not acknowledged within ack_wait, and drops a repeated publish ' +
        'with the same Nats-Msg-Id inside the duplicate window.',
      direction: 'favours',
      evidence_quality: 'moderate',
      quality_rationale:
        'Vendor documentation describing behaviour, via our reading notes (moderate); never tested by us, and the ' +
        'only support for this must-have (named in gaps).',
      citations: [
        cite('S4', 'docs/notes/nats-jetstream.md#acknowledgements-and-redelivery', Q.natsRedelivery),
        cite('S4', 'docs/notes/nats-jetstream.md#deduplication', Q.natsDedup),
      ],
    },
    {
      claim_id: 'C7',
      option_id: 'nats-jetstream',
      criterion_id: 'ops-cost',
      statement:
        'A replicated JetStream stream needs a cluster of at least three servers, a new stateful system that nobody ' +
        'on the team has operated, so its operating effort cannot be estimated.',
      direction: 'against',
      evidence_quality: 'moderate',
      quality_rationale:
        'Vendor documentation of the replication requirement (moderate) and our own statement of missing ' +
        'experience; the effort itself is not estimated, so no higher → moderate.',
      citations: [
        cite('S4', 'docs/notes/nats-jetstream.md#clustering-and-replication', Q.natsCluster),
        cite('S2', 'docs/ops/on-call-budget.md#estimates', Q.budgetNats),
      ],
    },
    {
      claim_id: 'C8',
      option_id: 'nats-jetstream',
      criterion_id: 'ops-cost',
      statement:
        'A single JetStream node can carry the whole billing workload, so the team would run one small server.',
      direction: 'favours',
      evidence_quality: flawed ? 'high' : 'low',
      quality_rationale: flawed
        ? 'The vendor states it directly for billing workloads, and JetStream is a mature project → high.'
        : 'Vendor sales material about sizing and operating cost from Harborlight Messaging, which sells JetStream ' +
          'support and has an interest in the claim (low); no method or workload is given and no independent or ' +
          'internal source confirms it, so nothing raises it.',
      citations: [cite('S6', 'docs/vendor/jetstream-one-pager.md#jetstream-for-billing-teams', Q.vendorSingleNode)],
    },
    {
      claim_id: 'C9',
      option_id: 'postgres-outbox',
      criterion_id: 'account-ordering',
      statement:
        "Billing numbers each account's events under the account row lock, so they commit in account_seq order, and " +
        'the per-account sequence relay delivered no out-of-order event in five load-test runs with a relay worker ' +
        'killed in each.',
      direction: 'favours',
      evidence_quality: 'high',
      quality_rationale:
        'Our own source code at the current version (high) and our own measurement on a representative workload ' +
        '(high) agree → high.',
      citations: [
        cite('S7', 'src/billing/publisher.ts:4-10', Q.publisherOrder),
        cite('S1', 'docs/ops/load-test-2026-10.md#ordering-check', Q.loadOutboxOrder),
      ],
    },
    {
      claim_id: 'C10',
      option_id: 'postgres-outbox',
      criterion_id: 'at-least-once',
      statement:
        'With the per-account sequence relay no event was lost in five runs; after each relay worker kill its batch ' +
        'was delivered again and the consumer dropped the repeats by event_id.',
      direction: 'favours',
      evidence_quality: 'high',
      quality_rationale:
        'Our own reproducible measurement on a representative workload, five runs with a failure injected in each ' +
        '(high); the event_id check it relies on is in our consumer code.',
      citations: [
        cite('S1', 'docs/ops/load-test-2026-10.md#delivery-check', Q.loadOutboxDelivery),
        cite('S8', 'src/billing/consumer.ts:4-26', Q.consumerDedupe),
      ],
    },
    {
      claim_id: 'C11',
      option_id: 'postgres-outbox',
      criterion_id: 'at-least-once',
      statement:
        'An outbox relay that advances one cursor over the global id loses events: in one of five runs at 200 ' +
        'events/s it skipped 3 events whose ids committed after a higher id.',
      direction: 'against',
      evidence_quality: 'high',
      quality_rationale:
        'Our own measurement on staging (high); the mechanism is explained in our design note, so the observation is ' +
        'not noise.',
      citations: [
        cite('S1', 'docs/ops/load-test-2026-10.md#commit-order-gap', Q.loadGap),
        cite('S5', 'docs/notes/postgres-outbox.md#why-not-a-global-high-water-mark', Q.outboxGap),
      ],
    },
    {
      claim_id: 'C12',
      option_id: 'postgres-outbox',
      criterion_id: 'ops-cost',
      statement:
        'The outbox needs no new server: at 50 events/s it raised mean CPU on the staging primary from 31% to 35%, and ' +
        'its routine work is estimated at 1 to 2 hours a month.',
      direction: 'favours',
      evidence_quality: 'moderate',
      quality_rationale:
        'Our own measurement of database load (high), but on a 2-vCPU staging primary rather than production, and ' +
        'the hours are an estimate (−1 indirectness) → moderate.',
      citations: [
        cite('S1', 'docs/ops/load-test-2026-10.md#database-load', Q.loadCpu),
        cite('S2', 'docs/ops/on-call-budget.md#estimates', Q.budgetOutbox),
      ],
    },
    {
      claim_id: 'C13',
      option_id: 'postgres-outbox',
      criterion_id: 'replay',
      statement:
        'Outbox rows are planned to be kept 30 days in daily partitions, so a consumer could replay by lowering its ' +
        'cursors.',
      direction: 'favours',
      evidence_quality: 'low',
      quality_rationale:
        'Our own design note (moderate) stating an intent that is not built or tested yet (−1 indirectness) → low.',
      citations: [cite('S5', 'docs/notes/postgres-outbox.md#retention-and-replay', Q.outboxReplay)],
    },
  ];
}

const GAPS = [
  'JetStream ordering and redelivery (C5, C6) rest only on our reading of the vendor documentation; we have never ' +
    'run JetStream. A spike with a consumer crash, like the October load test, would settle both.',
  'No estimate of the operating hours of a JetStream cluster exists (C7); a few weeks with a staging cluster would ' +
    'give one.',
  'The outbox was measured up to 200 events/s on a 2-vCPU staging primary; its load at ten times our current peak on ' +
    'production hardware is unknown. A load test on production-sized hardware would answer it.',
  'The October load test published from a load generator, not from the billing transaction; how billing would publish ' +
    'to rabbitmq or nats-jetstream after COMMIT without losing events on a crash was not evaluated.',
  'Outbox retention and replay (C13) are designed but not built or tested.',
];

const C8_GAP =
  'The only support for a cheap-to-run JetStream (C8) is the vendor sales one-pager, graded low; no internal or ' +
  'independent source confirms that one node would do.';

function evidenceTable(flawed: boolean): string {
  return json({
    decision_question: QUESTION,
    criteria: CRITERIA,
    options: OPTIONS,
    sources: SOURCES,
    claims: claims(flawed),
    gaps: flawed ? GAPS : [...GAPS, C8_GAP],
  });
}

/** A Markdown table with padded columns; the first row is the header. */
function alignedTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)];
}

function deskFindings(flawed: boolean): string {
  const c8Weight = flawed
    ? '  C8 is a sales claim from a vendor that sells JetStream support, with no method or workload behind it.'
    : '  C8 is a sales claim from a vendor that sells JetStream support, with no method or workload behind it; it is' +
      ' graded low.';
  return md(
    `# Desk findings: ${QUESTION}`,
    '',
    'All sources are files in this repository. We followed the criteria and options of research/research-plan.md and',
    'added no option; the webhook fan-out stays out of scope, as the plan says.',
    '',
    '## Criteria',
    '',
    "- account-ordering (must-have): one account's events reach each consumer in account_seq order, also after a",
    '  consumer crash.',
    '- at-least-once (must-have): no event is lost; consumers drop redelivered events by event_id.',
    '- ops-cost (important): routine operating work fits the two-person team, at most 4 hours and one page a month.',
    '- replay (nice-to-have): a consumer can re-read past events, as the analytics owner asked.',
    '',
    '## Options',
    '',
    '**rabbitmq** (RabbitMQ 4.x quorum queues): quorum queues bound to a consistent hash exchange keyed by account id,',
    'single active consumer on each queue, publisher confirms and manual acks, run as a three-node cluster on our',
    'Kubernetes. We measured it in the October load test. Candidate.',
    '',
    '**nats-jetstream** (NATS JetStream 2.x): one stream with subjects partitioned by account and one pull consumer per',
    'partition with max_ack_pending 1. We know it only from the documentation and a vendor one-pager. Candidate.',
    '',
    '**postgres-outbox** (transactional outbox in PostgreSQL 16): events written to billing_outbox in the billing',
    'transaction under the account row lock; relay workers per consumer group take partition leases with FOR UPDATE',
    'SKIP LOCKED and read per account sequence. We measured it in the October load test. Candidate.',
    '',
    '## Comparison',
    '',
    ...alignedTable([
      ['Option', 'account-ordering (must-have)', 'at-least-once (must-have)', 'ops-cost (important)'],
      ['rabbitmq', 'meets, measured [C1]', 'meets, measured [C2]', 'against: 6 to 8 hours a month estimated [C3]'],
      [
        'nats-jetstream',
        'meets per docs, untested [C5]',
        'meets per docs, untested [C6]',
        'unclear: new three-server cluster [C7]; vendor says one node [C8]',
      ],
      [
        'postgres-outbox',
        'meets, measured [C9]',
        'meets with the per-account relay [C10]; a global-id relay lost events [C11]',
        'favours: no new server, 1 to 2 hours a month [C12]',
      ],
    ]),
    '',
    '## Key findings',
    '',
    '- RabbitMQ kept per-account order in all five October runs, with a consumer killed in each, using a consistent hash',
    '  exchange and single active consumer [C1].',
    '- RabbitMQ lost no event in five runs with a broker node restarted in each [C2].',
    '- Running RabbitMQ in production is estimated at 6 to 8 hours a month, above the 4-hour budget [C3].',
    '- Quorum queues drop acknowledged messages, so RabbitMQ offers no replay without adding a stream [C4].',
    '- For JetStream, ordering per partition and redelivery are documented behaviour that we have not tested [C5, C6].',
    '- A replicated JetStream stream needs three servers, and nobody on the team has run NATS [C7].',
    "- The vendor's one-pager says a single JetStream node carries any billing workload, without method or sizing [C8].",
    '- The outbox kept per-account order and lost no event in five runs with a relay worker killed in each [C9, C10].',
    '- An earlier outbox relay that advanced one cursor over the global id missed 3 events in one of five runs at 200',
    '  events/s [C11].',
    '- The outbox raised mean CPU on the staging primary from 31% to 35% at 50 events/s and is estimated at 1 to 2 hours',
    '  a month [C12].',
    '- Outbox rows are planned to be kept 30 days, so consumers could replay; this is designed, not built [C13].',
    '',
    '## Conflicts',
    '',
    '- postgres-outbox, at-least-once: C10 (favours) and C11 (against). Both are our own measurements. C11 tested a relay',
    '  that advanced one cursor over the global id, which skips ids that commit late; C10 tested the per-account sequence',
    '  relay that replaced it. We weigh C10 for the design we would build, and keep C11 as a rule for that design: the',
    '  relay must never advance over the global id.',
    '- nats-jetstream, ops-cost: C7 (against) and C8 (favours). We weigh C7 more: it rests on the documented replication',
    '  requirement and on our own lack of NATS experience.',
    c8Weight,
    '',
    '## Gaps',
    '',
    ...(flawed ? GAPS : [...GAPS, C8_GAP]).map((gap) => `- ${gap}`),
    '',
    '## Leading options',
    '',
    'postgres-outbox leads: both must-haves rest on our own measurements [C9, C10], and it is the cheapest to run [C12].',
    'rabbitmq is close behind: both must-haves are measured [C1, C2], but its estimated operating effort is above the',
    'budget [C3]. nats-jetstream trails: its must-haves are untested by us [C5, C6] and its operating cost is unknown',
    '[C7, C8]. Choosing between the leaders is the next step.',
    '',
    '## Sources',
    '',
    ...SOURCES.map((s) => `- ${s.source_id}: ${s.title}. \`${s.locator}\` (${s.kind}, ${s.independence})`),
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// Prototype spike: results and notes
// ---------------------------------------------------------------------------------------------------------------------

const SCRATCH = (option: string): string =>
  `mkdir -p "\${TMPDIR:-/tmp}/rimthan-spike-${option}" && cd "\${TMPDIR:-/tmp}/rimthan-spike-${option}"`;
const RUNS = 'for run in 1 2 3 4 5; do node run.mjs $run >> results.jsonl; done';

const E1_COMMANDS = [
  SCRATCH('rabbitmq'),
  'docker run -d --name spike-rmq -p 5672:5672 -e RABBITMQ_DEFAULT_USER=spike -e RABBITMQ_DEFAULT_PASS="$BROKER_PASSWORD" rabbitmq:4.1.4',
  'until docker exec spike-rmq rabbitmq-diagnostics -q ping; do sleep 2; done',
  'docker exec spike-rmq rabbitmq-plugins enable rabbitmq_consistent_hash_exchange',
  'npm install',
  RUNS,
];
const E2_COMMANDS = [
  SCRATCH('nats-jetstream'),
  'docker run -d --name spike-nats -p 4222:4222 nats:2.11.9 -js --user spike --pass "$BROKER_PASSWORD"',
  'sleep 3',
  'npm install',
  RUNS,
];
const E3_COMMANDS = [
  SCRATCH('postgres-outbox'),
  'docker run -d --name spike-pg -p 5432:5432 -e POSTGRES_PASSWORD="$PGPASSWORD" postgres:16.10',
  'until docker exec spike-pg pg_isready -U postgres -h 127.0.0.1; do sleep 1; done',
  'npm install',
  'for run in 1 2 3 4 5; do docker exec -i spike-pg psql -U postgres -v ON_ERROR_STOP=1 < schema.sql && node run.mjs $run >> results.jsonl; done',
];

const E1_SECTION = 'E1: RabbitMQ quorum queues with single active consumer';
const E2_SECTION = 'E2: NATS JetStream with one pull consumer per partition';
const E3_SECTION = 'E3: Postgres outbox with per-account sequence relay';

/** The harness, identical in every run.mjs: deterministic load, ordering and duplicate checks, latency summary. */
const HARNESS = [
  '// --- harness: identical in E1, E2 and E3 ---',
  'const ACCOUNTS = 200;',
  'const RATE = 50; // events per second',
  'const WARMUP_S = 10;',
  'const MEASURE_S = 60;',
  'const CRASH_AT_S = 40;',
  'const PARTITIONS = 4;',
  "const run = Number(process.argv[2] ?? '1');",
  '',
  'let seed = run; // run N publishes the same account sequence for every option',
  'const nextAccount = () => {',
  '  seed = (seed * 1103515245 + 12345) % 2147483648;',
  '  return 1 + (seed % ACCOUNTS);',
  '};',
  'const partitionOf = (account) => account % PARTITIONS;',
  'const published = new Map(); // account -> last published seq',
  'const applied = new Map(); // account -> last applied seq',
  'const seen = new Set();',
  'const latencies = [];',
  'let duplicates = 0;',
  'let outOfOrder = 0;',
  'let crashed = false;',
  'let t0 = Infinity;',
  'const crashDue = () => !crashed && performance.now() - t0 > CRASH_AT_S * 1000;',
  '',
  'function receive(evt) {',
  '  if (seen.has(evt.id)) {',
  "    duplicates += 1; // what a consumer's event_id check drops",
  '    return;',
  '  }',
  '  seen.add(evt.id);',
  '  const last = applied.get(evt.account) ?? 0;',
  '  if (evt.seq !== last + 1) outOfOrder += 1;',
  '  applied.set(evt.account, Math.max(last, evt.seq));',
  '  if (evt.measured) latencies.push(performance.now() - evt.sentAt);',
  '}',
  '',
  'async function drive(publish) {',
  '  t0 = performance.now();',
  '  const total = RATE * (WARMUP_S + MEASURE_S);',
  '  for (let i = 0; i < total; i += 1) {',
  '    const account = nextAccount();',
  '    const seq = (published.get(account) ?? 0) + 1;',
  '    published.set(account, seq);',
  '    const measured = i >= RATE * WARMUP_S;',
  "    await publish({ id: `${run}-${i}`, account, seq, type: 'invoice.created', measured, sentAt: performance.now() });",
  '    const wait = t0 + ((i + 1) * 1000) / RATE - performance.now();',
  '    if (wait > 0) await sleep(wait);',
  '  }',
  '  const deadline = performance.now() + 15_000;',
  '  while (seen.size < total && performance.now() < deadline) await sleep(100);',
  '  latencies.sort((a, b) => a - b);',
  '  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);',
  '  const lost = total - seen.size;',
  '  const summary = { run, published: total, unique: seen.size, lost, duplicates, outOfOrder };',
  '  console.log(JSON.stringify({ ...summary, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1) }));',
  '}',
  '// --- end of harness ---',
];

const IMPORTS = [
  "import { performance } from 'node:perf_hooks';",
  "import { setTimeout as sleep } from 'node:timers/promises';",
];

const E1_RUN = [
  '// run.mjs (E1): RabbitMQ quorum queues, consistent hash exchange, single active consumer. Usage: node run.mjs <run>',
  "import amqp from 'amqplib';",
  ...IMPORTS,
  '',
  ...HARNESS,
  '',
  'const conn = await amqp.connect(`amqp://spike:${encodeURIComponent(process.env.BROKER_PASSWORD)}@127.0.0.1:5672`);',
  'const setup = await conn.createChannel();',
  "await setup.assertExchange('billing', 'x-consistent-hash', { durable: true });",
  'for (let p = 0; p < PARTITIONS; p += 1) {',
  '  const queue = `billing.p${p}`;',
  "  const args = { 'x-queue-type': 'quorum', 'x-single-active-consumer': true };",
  '  await setup.assertQueue(queue, { durable: true, arguments: args });',
  "  await setup.bindQueue(queue, 'billing', '1'); // equal weight for every queue",
  '  await setup.purgeQueue(queue); // a clean start for every run',
  '}',
  '',
  "// Two consumer instances on separate channels: 'a' registers first and is active, 'b' is the standby.",
  'async function startConsumer(name) {',
  '  const ch = await conn.createChannel();',
  '  await ch.prefetch(10);',
  '  let closed = false;',
  '  for (let p = 0; p < PARTITIONS; p += 1) {',
  '    await ch.consume(`billing.p${p}`, (msg) => {',
  '      if (closed || msg === null) return;',
  '      receive(JSON.parse(msg.content.toString()));',
  "      if (name === 'a' && crashDue()) {",
  '        crashed = true; // handled but never acknowledged, like a crash right after the handler',
  '        closed = true;',
  '        void ch.close();',
  '        return;',
  '      }',
  '      ch.ack(msg);',
  '    });',
  '  }',
  '}',
  "await startConsumer('a');",
  "await startConsumer('b');",
  '',
  'const pub = await conn.createConfirmChannel();',
  'const publish = (evt) =>',
  '  new Promise((resolve, reject) => {',
  '    const body = Buffer.from(JSON.stringify(evt));',
  "    pub.publish('billing', String(evt.account), body, { persistent: true }, (err) => (err ? reject(err) : resolve()));",
  '  });',
  'await drive(publish);',
  'await conn.close();',
];

const E2_RUN = [
  '// run.mjs (E2): NATS JetStream, one pull consumer per partition, max_ack_pending 1. Usage: node run.mjs <run>',
  "import { connect } from '@nats-io/transport-node';",
  "import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';",
  ...IMPORTS,
  '',
  ...HARNESS,
  '',
  "const nc = await connect({ servers: '127.0.0.1:4222', user: 'spike', pass: process.env.BROKER_PASSWORD });",
  'const jsm = await jetstreamManager(nc);',
  "await jsm.streams.delete('BILLING').catch(() => undefined); // a clean stream for every run",
  "await jsm.streams.add({ name: 'BILLING', subjects: ['billing.>'], num_replicas: 1 });",
  'for (let p = 0; p < PARTITIONS; p += 1) {',
  "  await jsm.consumers.add('BILLING', {",
  '    durable_name: `ledger-p${p}`,',
  '    filter_subject: `billing.p${p}`,',
  '    ack_policy: AckPolicy.Explicit,',
  "    max_ack_pending: 1, // a partition's next message only after the previous one is acknowledged",
  '    ack_wait: 2_000_000_000, // 2 s, in nanoseconds',
  '  });',
  '}',
  'const js = jetstream(nc);',
  '',
  '// One consumer instance pulls all four partitions; at the crash it stops them all and a new instance takes over.',
  'function startInstance() {',
  '  const instance = { stopped: false, iterators: [] };',
  '  for (let p = 0; p < PARTITIONS; p += 1) void consumePartition(p, instance);',
  '}',
  'async function consumePartition(p, instance) {',
  "  const consumer = await js.consumers.get('BILLING', `ledger-p${p}`);",
  '  const messages = await consumer.consume();',
  '  instance.iterators.push(messages);',
  '  for await (const m of messages) {',
  '    if (instance.stopped) break; // never handled, never acknowledged: redelivered after ack_wait',
  '    receive(m.json());',
  '    if (crashDue()) {',
  '      crashed = true; // handled but never acknowledged, like a crash right after the handler',
  '      instance.stopped = true;',
  '      for (const it of instance.iterators) it.stop();',
  '      startInstance();',
  '      break;',
  '    }',
  '    m.ack();',
  '  }',
  '}',
  'startInstance();',
  '',
  'const publish = (evt) => js.publish(`billing.p${partitionOf(evt.account)}`, JSON.stringify(evt), { msgID: evt.id });',
  'await drive(publish);',
  'await nc.close();',
];

const E3_RUN = [
  '// run.mjs (E3): Postgres outbox, per-account sequence relay with partition leases. Usage: node run.mjs <run>',
  "import pg from 'pg';",
  ...IMPORTS,
  '',
  ...HARNESS,
  '',
  '// pg reads the password from $PGPASSWORD; nothing secret is in this file.',
  "const pool = new pg.Pool({ host: '127.0.0.1', user: 'postgres', database: 'postgres', max: 8 });",
  'const WORKERS = 4;',
  'const POLL_MS = 100;',
  'const BATCH = 50;',
  'let done = false;',
  '',
  '// The write path: the account row lock numbers the event, in the same statement as the outbox insert.',
  'const publish = (evt) =>',
  '  pool.query(',
  '    `WITH a AS (UPDATE accounts SET event_seq = event_seq + 1 WHERE id = $1 RETURNING event_seq)',
  '     INSERT INTO billing_outbox (account_id, account_seq, partition, type, payload)',
  '     SELECT $1, a.event_seq, $2, $3, $4 FROM a`,',
  '    [evt.account, partitionOf(evt.account), evt.type, evt],',
  '  );',
  '',
  '// A relay worker: lease a free partition, read it per account above the stored cursors, save the cursors, commit.',
  'async function worker() {',
  '  while (!done) {',
  '    const client = await pool.connect();',
  '    let handled = 0;',
  '    try {',
  "      await client.query('BEGIN');",
  '      const lease = await client.query(',
  "        `SELECT partition FROM relay_leases WHERE consumer = 'ledger' ORDER BY random() LIMIT 1 FOR UPDATE SKIP LOCKED`,",
  '      );',
  '      if (lease.rowCount === 1) {',
  '        const batch = await client.query(',
  '          `SELECT o.account_id, o.account_seq, o.payload',
  '             FROM billing_outbox o',
  "             LEFT JOIN consumer_offsets c ON c.consumer = 'ledger' AND c.account_id = o.account_id",
  '            WHERE o.partition = $1 AND o.account_seq > COALESCE(c.last_seq, 0)',
  '            ORDER BY o.account_id, o.account_seq',
  '            LIMIT $2`,',
  '          [lease.rows[0].partition, BATCH],',
  '        );',
  '        for (const row of batch.rows) receive(row.payload);',
  '        handled = batch.rowCount;',
  '        if (handled > 0 && crashDue()) {',
  '          crashed = true; // handled but the cursors are never saved: the next lease holder reads the batch again',
  "          await client.query('ROLLBACK');",
  '          continue;',
  '        }',
  '        if (handled > 0) {',
  '          await client.query(',
  '            `INSERT INTO consumer_offsets (consumer, account_id, last_seq)',
  "             SELECT 'ledger', account_id, max(account_seq)",
  '               FROM unnest($1::int[], $2::bigint[]) AS t(account_id, account_seq) GROUP BY account_id',
  '             ON CONFLICT (consumer, account_id) DO UPDATE SET last_seq = EXCLUDED.last_seq`,',
  '            [batch.rows.map((r) => r.account_id), batch.rows.map((r) => r.account_seq)],',
  '          );',
  '        }',
  '      }',
  "      await client.query('COMMIT');",
  '    } finally {',
  '      client.release();',
  '    }',
  '    if (handled === 0) await sleep(POLL_MS);',
  '  }',
  '}',
  '',
  'const workers = Array.from({ length: WORKERS }, () => worker());',
  'await drive(publish);',
  'done = true;',
  'await Promise.all(workers);',
  'await pool.end();',
];

const E3_SCHEMA = [
  '-- schema.sql (E3): recreated before every run',
  'DROP TABLE IF EXISTS billing_outbox, consumer_offsets, relay_leases, accounts;',
  'CREATE TABLE accounts (id int PRIMARY KEY, event_seq bigint NOT NULL DEFAULT 0);',
  'INSERT INTO accounts (id) SELECT g FROM generate_series(1, 200) AS g;',
  'CREATE TABLE billing_outbox (',
  '  id bigserial PRIMARY KEY,',
  '  account_id int NOT NULL REFERENCES accounts (id),',
  '  account_seq bigint NOT NULL,',
  '  partition int NOT NULL,',
  '  type text NOT NULL,',
  '  payload jsonb NOT NULL,',
  '  created_at timestamptz NOT NULL DEFAULT now(),',
  '  UNIQUE (account_id, account_seq)',
  ');',
  'CREATE INDEX billing_outbox_read ON billing_outbox (partition, account_id, account_seq);',
  'CREATE TABLE consumer_offsets (',
  '  consumer text NOT NULL,',
  '  account_id int NOT NULL,',
  '  last_seq bigint NOT NULL,',
  '  PRIMARY KEY (consumer, account_id)',
  ');',
  'CREATE TABLE relay_leases (consumer text NOT NULL, partition int NOT NULL, PRIMARY KEY (consumer, partition));',
  "INSERT INTO relay_leases SELECT 'ledger', p FROM generate_series(0, 3) AS p;",
];

const packageJson = (name: string, dependencies: Record<string, string>): string[] =>
  JSON.stringify({ name, private: true, type: 'module', dependencies }, null, 2).split('\n');

/** Raw per-run results as the harness printed them (results.jsonl), one row per run. */
interface RunRow {
  readonly unique: number;
  readonly lost: number;
  readonly duplicates: number;
  readonly outOfOrder: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

const row = (duplicates: number, p50: number, p95: number, max: number): RunRow => ({
  unique: 3500,
  lost: 0,
  duplicates,
  outOfOrder: 0,
  p50,
  p95,
  max,
});

const E1_ROWS: readonly RunRow[] = [
  row(1, 3.1, 6.8, 38.2),
  row(1, 3.4, 7.4, 41.0),
  row(1, 3.0, 6.5, 35.7),
  row(1, 3.3, 9.1, 52.3),
  row(1, 3.2, 7.0, 39.9),
];
const E2_ROWS: readonly RunRow[] = [
  row(1, 2.4, 4.9, 2061.4),
  row(1, 2.6, 5.3, 2048.9),
  row(1, 2.5, 5.1, 2073.0),
  row(1, 2.4, 6.0, 2055.6),
  row(1, 2.7, 4.8, 2066.2),
];
const E3_ROWS: readonly RunRow[] = [
  row(2, 56.1, 118.4, 212.5),
  row(1, 58.4, 124.0, 198.3),
  row(3, 57.9, 131.2, 240.1),
  row(2, 55.7, 120.9, 205.7),
  row(1, 57.0, 119.3, 219.0),
];

const fixed = (n: number): string => n.toFixed(1);

function rawTable(rows: readonly RunRow[]): string[] {
  return [
    '| Run | Published | Unique | Lost | Duplicates dropped | Out of order | p50 ms | p95 ms | Max ms |',
    '| --- | --------- | ------ | ---- | ------------------ | ------------ | ------ | ------ | ------ |',
    ...rows.map(
      (r, i) =>
        `| ${i + 1} | 3500 | ${r.unique} | ${r.lost} | ${r.duplicates} | ${r.outOfOrder} | ${fixed(r.p50)} | ${fixed(r.p95)} | ${fixed(r.max)} |`,
    ),
  ];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function measurements(rows: readonly RunRow[]): object[] {
  const p95 = rows.map((r) => r.p95);
  const max = rows.map((r) => r.max);
  const dups = rows.map((r) => r.duplicates);
  const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
  return [
    {
      metric: 'lost events, sum over runs',
      value: sum(rows.map((r) => r.lost)),
      unit: 'events',
      runs: rows.length,
      spread: '0 in every run',
    },
    {
      metric: 'out-of-order events per account after event_id dedupe, sum over runs',
      value: sum(rows.map((r) => r.outOfOrder)),
      unit: 'events',
      runs: rows.length,
      spread: '0 in every run',
    },
    {
      metric: 'redelivered duplicates dropped by event_id, sum over runs',
      value: sum(dups),
      unit: 'events',
      runs: rows.length,
      spread:
        Math.min(...dups) === Math.max(...dups)
          ? `${dups[0]} in every run`
          : `min ${Math.min(...dups)} / max ${Math.max(...dups)} per run`,
    },
    {
      metric: 'p95 publish-to-consume latency, median of the per-run p95 values',
      value: median(p95),
      unit: 'ms',
      runs: rows.length,
      spread: `min ${fixed(Math.min(...p95))} / max ${fixed(Math.max(...p95))} ms`,
    },
    {
      metric: 'max publish-to-consume latency, worst run',
      value: Math.max(...max),
      unit: 'ms',
      runs: rows.length,
      spread: `min ${fixed(Math.min(...max))} / max ${fixed(Math.max(...max))} ms across runs`,
    },
  ];
}

const HYPOTHESIS_TAIL =
  'each of 5 runs (3,500 events for 200 accounts at 50 events/s, consumer crash at 40 s) ends with 0 lost events ' +
  'and 0 out-of-order events per account once repeats are dropped by event_id. A single lost or out-of-order event ' +
  'in any run refutes it. Latency is recorded for L4 without a threshold.';

const H1 = `With RabbitMQ 4.1.4 quorum queues behind a consistent hash exchange keyed by account and single active consumer on each queue, ${HYPOTHESIS_TAIL}`;
const H2 = `With NATS JetStream 2.11.9, one pull consumer per account partition and max_ack_pending 1, ${HYPOTHESIS_TAIL}`;
const H3 = `With a Postgres 16 outbox numbered under the account row lock and four relay workers reading per account sequence under partition leases, ${HYPOTHESIS_TAIL}`;

const PG_VERSION = (flawed: boolean): string => (flawed ? '^8.23.1' : '8.23.1');

function spikeResults(flawed: boolean): string {
  const criterion =
    'account-ordering and at-least-once (must-haves): zero out-of-order events per account, no lost event, repeats ' +
    'dropped by event_id';
  return json({
    decision_question: QUESTION,
    environment: {
      description:
        'One laptop; each option in its own Docker container, one option at a time, single node with default ' +
        'settings except where the notes say; one Node.js process per run publishes and consumes through the same ' +
        'harness; 200 accounts, 50 events/s, 10 s warm-up then 60 s measured, consumer crash at 40 s.',
      runtime: 'Node.js 20.19.5, npm 10.8.2, Docker Engine 27.5.1 on Ubuntu 24.04.1 LTS',
      hardware: 'ThinkPad T14 Gen 4: AMD Ryzen 7 PRO 7840U (8 cores), 32 GB RAM, NVMe SSD, on mains power',
    },
    experiments: [
      {
        experiment_id: 'E1',
        option_id: 'rabbitmq',
        criterion,
        hypothesis: H1,
        setup: {
          description:
            'Single-node rabbitmq:4.1.4 container with the consistent hash exchange plugin; four quorum queues with ' +
            'single active consumer; two consumer instances on separate channels (prefetch 10), the first active and ' +
            'the second standby; at 40 s the active one handles one message, never acknowledges it and closes its ' +
            'channel. Publisher confirms on a third channel. Five runs, one process each.',
          commands: E1_COMMANDS,
          dependencies: [
            { name: 'amqplib', version: '2.3.1' },
            { name: 'rabbitmq (Docker image)', version: '4.1.4' },
            { name: 'Node.js', version: '20.19.5' },
          ],
          notes_section: E1_SECTION,
        },
        measurements: measurements(E1_ROWS),
        verdict: 'confirmed',
        verdict_rationale:
          'All five runs delivered 3,500 of 3,500 events with 0 out-of-order. The one message handled but not ' +
          'acknowledged at the crash came back once per run, to the standby consumer, and was dropped by event_id.',
      },
      {
        experiment_id: 'E2',
        option_id: 'nats-jetstream',
        criterion,
        hypothesis: H2,
        setup: {
          description:
            'Single-node nats:2.11.9 container with JetStream; one stream over billing.> with one replica; four ' +
            'durable pull consumers filtered on billing.p0 to billing.p3 with max_ack_pending 1 and ack_wait 2 s; at ' +
            '40 s the consumer instance handles one message, never acknowledges it, stops all four partitions and a ' +
            'new instance takes over. Five runs, one process each.',
          commands: E2_COMMANDS,
          dependencies: [
            { name: '@nats-io/transport-node', version: '3.4.0' },
            { name: '@nats-io/jetstream', version: '3.4.0' },
            { name: 'nats (Docker image)', version: '2.11.9' },
            { name: 'Node.js', version: '20.19.5' },
          ],
          notes_section: E2_SECTION,
        },
        measurements: measurements(E2_ROWS),
        verdict: 'confirmed',
        verdict_rationale:
          'All five runs delivered 3,500 of 3,500 events with 0 out-of-order. The message handled but not ' +
          'acknowledged at each crash came back after the 2 s ack_wait and was dropped by event_id; partitions with a ' +
          'message in flight stalled until then, which is the worst-case latency of about 2 s.',
      },
      {
        experiment_id: 'E3',
        option_id: 'postgres-outbox',
        criterion,
        hypothesis: H3,
        setup: {
          description:
            'postgres:16.10 container; schema.sql recreates the accounts, outbox, cursor and lease tables before every ' +
            'run; the publisher numbers each event with the account row lock in the same statement as the outbox ' +
            'insert; four relay workers lease one of four partitions with FOR UPDATE SKIP LOCKED, read up to 50 events ' +
            'per account sequence, save the cursors and commit, polling every 100 ms when idle; at 40 s one worker ' +
            'handles a batch and rolls back instead of saving its cursors. Five runs, one process each.',
          commands: E3_COMMANDS,
          dependencies: [
            { name: 'pg', version: PG_VERSION(flawed) },
            { name: 'postgres (Docker image)', version: '16.10' },
            { name: 'Node.js', version: '20.19.5' },
          ],
          notes_section: E3_SECTION,
        },
        measurements: measurements(E3_ROWS),
        verdict: 'confirmed',
        verdict_rationale:
          'All five runs delivered 3,500 of 3,500 events with 0 out-of-order. The rolled-back batch (1 to 3 events) ' +
          'was read again by the next lease holder and dropped by event_id. The p95 latency of about 121 ms comes ' +
          'mostly from the 100 ms poll interval.',
      },
    ],
    limitations: [
      'Single node per option on one laptop; production would run a three-node RabbitMQ cluster (quorum queues) or a ' +
        'three-server JetStream cluster (R3 streams), whose failover and operating effort the spike did not test.',
      'One publisher process writes sequentially; production has several billing instances writing concurrently. The ' +
        "outbox's per-account reads are designed for that, but the spike did not exercise concurrent writers.",
      'One consumer group (ledger) instead of three, and a handler that only records the event; real handlers are ' +
        'slower, which lowers the throughput of a partition.',
      '70 s of load at 50 events/s per run; sustained load, outbox table growth and vacuum were not measured.',
      'Operating cost (criterion ops-cost) and replay (criterion replay) cannot be measured in a spike of this size.',
    ],
  });
}

function experimentSection(
  heading: string,
  hypothesis: string,
  steps: readonly string[],
  commands: readonly string[],
  files: readonly { readonly name: string; readonly lang: string; readonly lines: readonly string[] }[],
  rows: readonly RunRow[],
  verdict: readonly string[],
): string[] {
  return [
    `## ${heading}`,
    '',
    `**Hypothesis.** ${hypothesis}`,
    '',
    '**Setup, step by step.**',
    '',
    ...steps,
    '',
    `${FENCE}sh`,
    ...commands,
    FENCE,
    '',
    ...files.flatMap((f) => [`\`${f.name}\`:`, '', `${FENCE}${f.lang}`, ...f.lines, FENCE, '']),
    '**Raw results per run** (`results.jsonl`, one line per run, as a table):',
    '',
    ...rawTable(rows),
    '',
    ...verdict,
    '',
  ];
}

function spikeNotes(flawed: boolean): string {
  const pg = PG_VERSION(flawed);
  return md(
    `# Spike notes: ${QUESTION}`,
    '',
    'Three experiments, one per option in the research plan, all with the same harness, load and laptop. Every file a',
    'command runs is listed in full in its section; the scratch directories live outside the repository.',
    '',
    '## Environment',
    '',
    '- Machine: ThinkPad T14 Gen 4, AMD Ryzen 7 PRO 7840U (8 cores), 32 GB RAM, NVMe SSD, on mains power, nothing else',
    '  running.',
    '- OS: Ubuntu 24.04.1 LTS, kernel 6.8.0-48.',
    '- Docker Engine 27.5.1; images rabbitmq:4.1.4, nats:2.11.9 and postgres:16.10, pulled on 2026-11-11.',
    '- Node.js 20.19.5 with npm 10.8.2.',
    `- Client libraries: amqplib 2.3.1 (E1), @nats-io/transport-node 3.4.0 and @nats-io/jetstream 3.4.0 (E2), pg ${pg} (E3).`,
    '- Credentials: export `BROKER_PASSWORD` (E1, E2) and `PGPASSWORD` (E3) in the shell with any throwaway value before',
    '  the commands; they never appear in files.',
    '',
    '**The harness.** Each `run.mjs` contains the same harness block between the `harness` markers. Run N draws the same',
    'pseudo-random account sequence for every option (seed N), publishes 3,500 events at 50 events/s (the first 500 are',
    'warm-up and excluded from latency), numbers them per account, and checks on receipt: a repeated event id counts as a',
    'duplicate dropped by the event_id check, a sequence other than last + 1 counts as out of order. At 40 s the consumer',
    'side simulates a crash right after a handler ran and before the acknowledgement. Latency is publish call to handler',
    'start, measured in the same process. After publishing, the harness waits up to 15 s for the rest to arrive and',
    'prints one JSON line.',
    '',
    ...experimentSection(
      E1_SECTION,
      H1,
      [
        '1. Create the scratch directory and start a single-node broker; wait until it answers; enable the consistent hash',
        '   exchange plugin.',
        '2. Write `package.json` and `run.mjs` below into the scratch directory, install, and run five times.',
      ],
      E1_COMMANDS,
      [
        { name: 'package.json', lang: 'json', lines: packageJson('rimthan-spike-rabbitmq', { amqplib: '2.3.1' }) },
        { name: 'run.mjs', lang: 'js', lines: E1_RUN },
      ],
      E1_ROWS,
      [
        '**Verdict: confirmed.** 0 lost and 0 out-of-order events in all five runs. In each run the message the active',
        'consumer handled but never acknowledged came back once to the standby and was dropped by event_id. The standby',
        'took over within the worst-case latency of 52.3 ms (run 4). Median p95 7.0 ms (min 6.5 / max 9.1).',
      ],
    ),
    ...experimentSection(
      E2_SECTION,
      H2,
      [
        '1. Create the scratch directory and start a single-node server with JetStream enabled; give it three seconds.',
        '2. Write `package.json` and `run.mjs` below into the scratch directory, install, and run five times.',
      ],
      E2_COMMANDS,
      [
        {
          name: 'package.json',
          lang: 'json',
          lines: packageJson('rimthan-spike-nats-jetstream', {
            '@nats-io/jetstream': '3.4.0',
            '@nats-io/transport-node': '3.4.0',
          }),
        },
        { name: 'run.mjs', lang: 'js', lines: E2_RUN },
      ],
      E2_ROWS,
      [
        '**Verdict: confirmed.** 0 lost and 0 out-of-order events in all five runs. The message handled but not',
        'acknowledged at each crash came back after the 2 s ack_wait and was dropped by event_id. Partitions with a',
        'message in flight stalled until then: the worst-case latency was 2,073.0 ms (run 3). The stalls did not reach',
        'the p95: median p95 5.1 ms (min 4.8 / max 6.0).',
      ],
    ),
    ...experimentSection(
      E3_SECTION,
      H3,
      [
        '1. Create the scratch directory, start PostgreSQL and wait until it accepts TCP connections (the image restarts',
        '   once after initialising, so the check uses TCP).',
        '2. Write `package.json`, `schema.sql` and `run.mjs` below into the scratch directory and install.',
        '3. Run five times; each run first recreates the schema, so every run starts from empty tables.',
      ],
      E3_COMMANDS,
      [
        { name: 'package.json', lang: 'json', lines: packageJson('rimthan-spike-postgres-outbox', { pg }) },
        { name: 'schema.sql', lang: 'sql', lines: E3_SCHEMA },
        { name: 'run.mjs', lang: 'js', lines: E3_RUN },
      ],
      E3_ROWS,
      [
        '**Verdict: confirmed.** 0 lost and 0 out-of-order events in all five runs. The batch the crashing worker rolled',
        'back (1 to 3 events) was read again by the next lease holder and dropped by event_id. Median p95 120.9 ms (min',
        '118.4 / max 131.2), mostly the 100 ms poll interval; worst case 240.1 ms (run 3).',
      ],
    ),
    '## Limitations',
    '',
    '- Each option ran as a single node on one laptop. Production would run a three-node RabbitMQ cluster or a',
    '  three-server JetStream cluster; their failover and their operating effort were not tested. PostgreSQL ran as a',
    '  container instead of our managed primary.',
    '- One publisher wrote sequentially; production has several billing instances writing concurrently.',
    '- One consumer group with a handler that only records the event; real handlers are slower.',
    '- 70 s of load per run at 50 events/s; sustained load, outbox growth and vacuum were not measured.',
    '',
    '## What this does not tell us',
    '',
    '- What each option costs us to operate per month (ops-cost), or how often it would page us.',
    '- Whether the outbox stays cheap for the primary at ten times our current peak.',
    '- Whether analytics can replay past events (replay).',
    '- How RabbitMQ and JetStream behave when a broker node fails in a replicated cluster.',
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// Decision record and summary, one per route, generated from one set of facts so the two files agree
// ---------------------------------------------------------------------------------------------------------------------

interface OptionVerdict {
  readonly option_id: string;
  readonly name: string;
  readonly verdict: 'chosen' | 'runner-up' | 'rejected' | 'deferred';
  readonly reason: string;
}

interface Risk {
  readonly risk: string;
  readonly likelihood: 'low' | 'medium' | 'high';
  readonly impact: 'low' | 'medium' | 'high';
  readonly mitigation: string;
}

interface FollowUp {
  readonly action: string;
  readonly owner: string;
  readonly due: string;
}

interface Decision {
  readonly title: string;
  readonly date: string;
  readonly route: 'desk-research' | 'prototype-spike';
  readonly evidence: string;
  readonly statement: string;
  readonly options: readonly OptionVerdict[];
  readonly rationale: readonly string[];
  readonly positive: readonly string[];
  readonly negative: readonly string[];
  readonly risks: readonly Risk[];
  readonly followUps: readonly FollowUp[];
  readonly confidence: { readonly level: 'high' | 'medium' | 'low'; readonly explanation: string };
  readonly evidenceLines: readonly string[];
  readonly refs: readonly string[];
}

const CONTEXT = [
  'The ledger, notifications and analytics need billing events in per-account order and at least once, so that a',
  'refund can never again be applied before, or twice alongside, the payment it reverses (INC-2026-031). Constraints:',
  'it runs on what we already operate or self-hosted on our managed Kubernetes, with no new SaaS vendor and data in the',
  'EU; at most 4 hours a month of routine work for a two-person platform team and EUR 300 a month of extra',
  'infrastructure; a maintained Node.js client and an open-source licence. Success: zero out-of-order events per account',
  'and zero duplicate ledger entries over the first 90 days, at most one page and under 4 hours of routine work a month.',
];

const OUTBOX_STATEMENT =
  'Adopt a transactional outbox in our existing PostgreSQL 16 (postgres-outbox) for billing events: events are ' +
  'written in the billing transaction with a per-account sequence and read per account sequence by relay workers per ' +
  'consumer group that hold partition leases taken with FOR UPDATE SKIP LOCKED.';

const DEDUPE_RISK: Risk = {
  risk: 'A consumer skips the event_id check and applies a redelivered event twice',
  likelihood: 'medium',
  impact: 'high',
  mitigation:
    "One shared consumer library with the processed_events check, and a contract test in each consumer's CI that " +
    'delivers a batch twice.',
};

const DESK_DECISION: Decision = {
  title: 'Billing events go through a transactional outbox in PostgreSQL',
  date: '2026-11-12',
  route: 'desk-research',
  evidence: 'research/evidence-table.json, research/desk-findings.md',
  statement: OUTBOX_STATEMENT,
  options: [
    {
      option_id: 'postgres-outbox',
      name: 'Transactional outbox in PostgreSQL 16',
      verdict: 'chosen',
      reason:
        'Meets both must-haves on our own measurements [C9, C10] and is the cheapest to run: no new server and an ' +
        'estimated 1 to 2 hours a month [C12].',
    },
    {
      option_id: 'rabbitmq',
      name: 'RabbitMQ 4.x quorum queues',
      verdict: 'runner-up',
      reason:
        'Meets both must-haves on our own measurements [C1, C2], but a production cluster is estimated at 6 to 8 ' +
        'hours a month, above the 4-hour budget [C3].',
    },
    {
      option_id: 'nats-jetstream',
      name: 'NATS JetStream 2.x',
      verdict: 'rejected',
      reason:
        'Its must-haves rest only on vendor documentation we have not tested [C5, C6], it needs a three-server cluster ' +
        'nobody on the team has run [C7], and the claim that one node suffices is vendor sales material [C8].',
    },
  ],
  rationale: [
    "Per-account ordering, the first must-have, holds for the outbox: billing numbers each account's events under the " +
      'row lock it already takes, and the October load test saw no out-of-order event with relay workers killed [C9].',
    'At-least-once delivery, the second must-have, holds for the per-account sequence relay, with repeats dropped by ' +
      'event_id [C10]; the one loss we saw came from an earlier relay that advanced a global id cursor, a design we ' +
      'rule out [C11].',
    'RabbitMQ also meets both must-haves on our own measurements [C1, C2], so operating cost, the important criterion, ' +
      'decides between the two: the outbox needs no new server and an estimated 1 to 2 hours a month [C12], RabbitMQ ' +
      'an estimated 6 to 8 hours, above the 4-hour budget [C3].',
    'JetStream is out: neither must-have has been tested by us [C5, C6], its operating effort is unknown [C7], and the ' +
      "only claim that it is cheap to run is the vendor's own sales material [C8].",
    'Replay, the nice-to-have, points the same way: outbox retention is planned, though not built [C13], while quorum ' +
      'queues drop acknowledged messages [C4].',
  ],
  positive: [
    'No new stateful system: the outbox runs on the managed PostgreSQL we already operate [C12].',
    'An event exists exactly when its billing change committed, and each account is numbered in order [C9].',
  ],
  negative: [
    'Every relay change must keep per-account reads: a cursor over the global id loses events [C11].',
    'The outbox adds load to the primary; it was measured only up to 200 events/s on staging (see Risks).',
    'Consumers read the outbox through the relay library and a database role on the billing database.',
  ],
  risks: [
    {
      risk: 'A later relay change reads by global id again and silently skips late-committed events',
      likelihood: 'low',
      impact: 'high',
      mitigation:
        "A relay test that commits out of id order, and a nightly reconciliation of each account's highest " +
        "account_seq against every consumer's cursor that pages on a difference.",
    },
    {
      risk: 'Outbox reads and table growth load the primary as event volume grows',
      likelihood: 'medium',
      impact: 'medium',
      mitigation:
        'Daily partitions dropped after 30 days, an alert when relay queries pass 10% of primary CPU, a load test at ' +
        'ten times our current peak, and RabbitMQ as the documented fallback.',
    },
    DEDUPE_RISK,
  ],
  followUps: [
    {
      action: 'Build the outbox table, the per-account sequence relay and the partition leases',
      owner: 'Tobias',
      due: '2027-01-15',
    },
    {
      action: 'Add the nightly reconciliation of account_seq against consumer cursors, with paging',
      owner: 'Tobias',
      due: '2027-01-29',
    },
    {
      action: 'Ship the shared idempotent consumer library to ledger, notifications and analytics',
      owner: 'Maren',
      due: '2027-01-31',
    },
    {
      action: 'Load test the outbox at 250 events/s, ten times our current peak, on production-sized hardware',
      owner: 'Tobias',
      due: '2027-02-26',
    },
    {
      action: 'Record the monthly operating hours and pages of the outbox against the 4-hour budget for three months',
      owner: 'Maren',
      due: '2027-04-30',
    },
  ],
  confidence: {
    level: 'medium',
    explanation:
      'Both must-haves of the outbox rest on high-graded evidence [C9, C10], but operating cost, the criterion that ' +
      'separates it from RabbitMQ, rests on moderate evidence: a staging measurement and our own estimates [C3, C12]. ' +
      'The outbox has not been measured above 200 events/s or on production hardware.',
  },
  evidenceLines: [
    '- Route artifacts: research/evidence-table.json and research/desk-findings.md, validated by evidence-quality and',
    '  citation-check.',
    '- Claims this record uses: C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13.',
  ],
  refs: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9', 'C10', 'C11', 'C12', 'C13'],
};

const SPIKE_DECISION: Decision = {
  title: 'Billing events go through a transactional outbox in PostgreSQL',
  date: '2026-11-13',
  route: 'prototype-spike',
  evidence: 'research/spike-results.json, research/spike-notes.md',
  statement: OUTBOX_STATEMENT,
  options: [
    {
      option_id: 'postgres-outbox',
      name: 'Transactional outbox in PostgreSQL 16',
      verdict: 'chosen',
      reason:
        'Met both must-haves in five runs with a consumer crash [E3] and runs on the PostgreSQL we already operate, ' +
        'with no new server.',
    },
    {
      option_id: 'rabbitmq',
      name: 'RabbitMQ 4.x quorum queues',
      verdict: 'runner-up',
      reason:
        'Met both must-haves with the fastest crash recovery of the two brokers [E1], but adds a broker cluster to ' +
        'operate.',
    },
    {
      option_id: 'nats-jetstream',
      name: 'NATS JetStream 2.x',
      verdict: 'rejected',
      reason:
        'Met both must-haves [E2], but a crash stalls partitions for the ack_wait, and it would be a new stateful ' +
        'system nobody on the team has run.',
    },
  ],
  rationale: [
    'All three options met both must-haves in the same harness: in five runs each, with a consumer crash in every ' +
      'run, no event was lost and no account saw an out-of-order event once repeats were dropped by event_id ' +
      '[E1, E2, E3].',
    'With the must-haves tied, operating cost for a two-person team decides. The outbox ran on PostgreSQL 16, the ' +
      'database we already operate, and needs no new server [E3]; RabbitMQ and JetStream each need a new broker, in ' +
      "production a replicated cluster that the spike's single nodes did not exercise [E1, E2].",
    "The outbox's median p95 publish-to-consume latency of 120.9 ms is far above RabbitMQ's 7.0 ms and JetStream's " +
      '5.1 ms [E1, E2, E3], but no success criterion sets a latency limit, so it does not count against the outbox.',
    'RabbitMQ is the runner-up ahead of JetStream: after a crash its standby consumer took over within a worst case ' +
      'of 52.3 ms [E1], while JetStream stalled partitions for the 2 s ack_wait, a worst case of 2,073.0 ms [E2]; and ' +
      'the team has run RabbitMQ before, while nobody has run NATS.',
  ],
  positive: [
    'No new stateful system to operate: the outbox runs on the database we already run [E3].',
    'Per-account ordering comes from numbering each event under the account row lock, not from broker settings [E3].',
  ],
  negative: [
    'Publish-to-consume latency is about 121 ms at p95 instead of single-digit milliseconds with a broker [E1, E3].',
    'The outbox adds load to the primary, which the spike did not measure (see Risks and Follow-ups).',
    'Consumers read the outbox through the relay library and a database role on the billing database.',
  ],
  risks: [
    {
      risk: "The production relay (batches, three consumer groups, several billing writers) behaves differently from the spike's and loses or reorders events",
      likelihood: 'medium',
      impact: 'high',
      mitigation:
        "Keep the spike's per-account sequence reads and partition leases, and rerun the E3 harness against the real " +
        'relay on staging, with a worker crash, before cut-over.',
    },
    {
      risk: 'Outbox reads and table growth load the primary beyond what the spike measured',
      likelihood: 'medium',
      impact: 'medium',
      mitigation:
        'Daily partitions with 30-day retention, an alert on relay query time, a staging measurement at 50 and 250 ' +
        'events/s, and RabbitMQ as the documented fallback.',
    },
    DEDUPE_RISK,
  ],
  followUps: [
    {
      action: 'Build the outbox table, the per-account sequence relay and the partition leases',
      owner: 'Tobias',
      due: '2027-01-15',
    },
    {
      action: 'Rerun the E3 harness against the real relay on staging, five runs with a worker crash, before cut-over',
      owner: 'Tobias',
      due: '2027-01-29',
    },
    {
      action: 'Ship the shared idempotent consumer library to ledger, notifications and analytics',
      owner: 'Maren',
      due: '2027-01-31',
    },
    {
      action: 'Confirm with the analytics owner that 30-day outbox retention covers their replay needs',
      owner: 'Maren',
      due: '2027-02-12',
    },
    {
      action: 'Measure the load of the outbox on the staging primary at 50 and 250 events/s',
      owner: 'Tobias',
      due: '2027-02-26',
    },
    {
      action: 'Record the monthly operating hours and pages of the outbox against the 4-hour budget for three months',
      owner: 'Maren',
      due: '2027-04-30',
    },
  ],
  confidence: {
    level: 'medium',
    explanation:
      'The must-haves rest on our own spike, pinned, repeated five times and run with one harness for all options, ' +
      'graded moderate because it ran single nodes on a laptop [E1, E2, E3]. Operating cost, the deciding criterion, ' +
      "was not measured; it follows from the contract's constraints, so we do not claim high.",
  },
  evidenceLines: [
    '- Route artifacts: research/spike-results.json and research/spike-notes.md, validated by spike-reproducibility.',
    '- Experiments this record uses: E1, E2, E3.',
  ],
  refs: ['E1', 'E2', 'E3'],
};

function decisionRecord(d: Decision): string {
  return md(
    `# Decision: ${d.title}`,
    '',
    '- Status: proposed',
    `- Date: ${d.date}`,
    '- Deciders: Maren (platform lead)',
    `- Decision question: ${QUESTION}`,
    `- Research route: ${d.route} (evidence: ${d.evidence})`,
    '',
    '## Context',
    '',
    ...CONTEXT,
    '',
    '## Options considered',
    '',
    '| Option | Verdict | Reason |',
    '| ------ | ------- | ------ |',
    ...d.options.map((o) => `| ${o.option_id} (${o.name}) | ${o.verdict} | ${o.reason} |`),
    '',
    '## Decision',
    '',
    d.statement,
    '',
    '## Rationale',
    '',
    ...d.rationale.map((r) => `- ${r}`),
    '',
    '## Consequences',
    '',
    '### Positive',
    '',
    ...d.positive.map((p) => `- ${p}`),
    '',
    '### Negative',
    '',
    ...d.negative.map((n) => `- ${n}`),
    '',
    '## Risks and mitigations',
    '',
    '| Risk | Likelihood | Impact | Mitigation |',
    '| ---- | ---------- | ------ | ---------- |',
    ...d.risks.map((r) => `| ${r.risk} | ${r.likelihood} | ${r.impact} | ${r.mitigation} |`),
    '',
    '## Follow-ups',
    '',
    ...d.followUps.map((f) => `- [ ] ${f.action} (${f.owner}, ${f.due})`),
    '',
    '## Confidence',
    '',
    `${d.confidence.level[0]?.toUpperCase()}${d.confidence.level.slice(1)}. ${d.confidence.explanation}`,
    '',
    '## Evidence',
    '',
    ...d.evidenceLines,
  );
}

function decisionSummary(d: Decision): string {
  return json({
    decision_question: QUESTION,
    status: 'proposed',
    decision: { outcome: 'adopt', chosen_option_id: 'postgres-outbox', statement: d.statement },
    options_considered: d.options,
    rationale: d.rationale,
    risks: d.risks,
    follow_ups: d.followUps,
    confidence: d.confidence,
    evidence_refs: d.refs,
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// The two scenarios
// ---------------------------------------------------------------------------------------------------------------------

export const DESK_ROUTE: Scenario = {
  id: 'billing-queue-desk',
  objective: OBJECTIVE,
  interview: INTERVIEW,
  route: 'desk-research',
  repository: REPOSITORY,
  drafts: {
    'research-plan': [DESK_PLAN],
    'evidence-table': [evidenceTable(true), evidenceTable(false)],
    'desk-findings': [deskFindings(true), deskFindings(false)],
    'decision-record': [decisionRecord(DESK_DECISION)],
    'decision-summary': [decisionSummary(DESK_DECISION)],
  },
};

export const SPIKE_ROUTE: Scenario = {
  id: 'billing-queue-spike',
  objective: OBJECTIVE,
  interview: INTERVIEW,
  route: 'prototype-spike',
  repository: REPOSITORY,
  drafts: {
    'research-plan': [SPIKE_PLAN],
    'spike-results': [spikeResults(true), spikeResults(false)],
    'spike-notes': [spikeNotes(true), spikeNotes(false)],
    'decision-record': [decisionRecord(SPIKE_DECISION)],
    'decision-summary': [decisionSummary(SPIKE_DECISION)],
  },
};
