/**
 * The monitoring files shipped in docs/operations: the Prometheus alert rules (prometheus/rimthan-rules.yml) and the
 * Grafana dashboard (grafana/rimthan.json). The rules pass Debian's `promtool check rules`, two of them fire under
 * `promtool test rules` on series shaped like a real scrape, and every metric a rule or a dashboard query names is one
 * a `rimthan serve` process really exports (the names come from a ServiceMetrics registry with every family
 * registered, the one GET /admin/metrics renders). The dashboard shows every Rimthan metric family.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { ServiceMetrics } from '../../src/observability/index.js';
import { packageRoot } from '../../src/package/index.js';

const RULES = join(packageRoot(), 'docs', 'operations', 'prometheus', 'rimthan-rules.yml');
const DASHBOARD = join(packageRoot(), 'docs', 'operations', 'grafana', 'rimthan.json');
/** Series Prometheus makes itself, not the service. */
const PROMETHEUS_SERIES = new Set(['up']);

/** Every family the service exports (`# TYPE` lines) and every series name it writes (histogram suffixes too). */
async function exported(): Promise<{ families: Set<string>; series: Set<string> }> {
  const metrics = new ServiceMetrics();
  metrics.followReleases(
    () =>
      ({
        active: { release: 'research-2026.12.1' },
        migration_target: null,
        degraded: null,
        refreshes: 1,
        refresh_failures: 0,
      }) as never,
  );
  metrics.runStatuses(() => Promise.resolve({ completed: 1 }));
  metrics.storeObserver();
  const text = await metrics.render();
  const families = new Set<string>();
  const series = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [name, type] = [m[1] ?? '', m[2] ?? ''];
    families.add(name);
    series.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) series.add(`${name}${s}`);
    if (type === 'summary') for (const s of ['_sum', '_count']) series.add(`${name}${s}`);
  }
  return { families, series };
}

/** The metric names a PromQL expression reads (identifiers followed by a selector, a range or an operator). */
function metricNames(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""');
  const names = [...withoutStrings.matchAll(/\b(rimthan_[a-z0-9_]+|up)\b/g)].map((m) => m[1] ?? '');
  return [...new Set(names)];
}

interface Rule {
  readonly alert: string;
  readonly expr: string;
  readonly labels?: { severity?: string };
  readonly annotations?: { summary?: string; description?: string };
}

function rules(): Rule[] {
  const doc = parse(readFileSync(RULES, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
  return doc.groups.flatMap((g) => g.rules);
}

/** A rule's annotations with `{{ $labels.x }}` filled in from `labels`. */
function annotations(alert: string, labels: Readonly<Record<string, string>>): Record<string, string> {
  const rule = rules().find((r) => r.alert === alert);
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(rule?.annotations ?? {})) {
    out[key] = text.replace(/\{\{ \$labels\.([a-z_]+) \}\}/g, (_m, name: string) => labels[name] ?? '');
  }
  return out;
}

function dashboardExprs(): string[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { type: string; targets?: { expr: string }[] }[];
  };
  return dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

function promtool(args: readonly string[]): { status: number | null; out: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8' });
  if (run.error !== undefined) {
    assert.fail(`promtool is not installed (Debian: apt-get install prometheus): ${run.error.message}`);
  }
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('docs/operations: Prometheus rules and Grafana dashboard', () => {
  test('promtool check rules accepts the rules file', () => {
    const { status, out } = promtool(['check', 'rules', RULES]);
    assert.equal(status, 0, out);
    assert.match(out, /SUCCESS: \d+ rules found/);
  });

  test('every rule is an alert with a severity and a summary, over metrics the service exports', async () => {
    const { series } = await exported();
    const all = rules();
    assert.ok(all.length >= 10);
    for (const rule of all) {
      assert.match(rule.alert, /^Rimthan[A-Za-z0-9]+$/);
      assert.ok(['critical', 'warning'].includes(rule.labels?.severity ?? ''), `${rule.alert} severity`);
      assert.ok((rule.annotations?.summary ?? '') !== '', `${rule.alert} summary`);
      const names = metricNames(rule.expr);
      assert.ok(names.length > 0, `${rule.alert} names a metric`);
      for (const name of names) {
        assert.ok(series.has(name) || PROMETHEUS_SERIES.has(name), `${rule.alert}: ${name} is not exported`);
      }
    }
  });

  test('promtool test rules: internal faults and a degraded replica fire on scrape-shaped series', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rimthan-promtool-'));
    try {
      const tests = join(dir, 'tests.yml');
      writeFileSync(
        tests,
        JSON.stringify({
          rule_files: [RULES],
          evaluation_interval: '1m',
          tests: [
            {
              interval: '1m',
              input_series: [
                { series: 'rimthan_internal_faults_total{instance="a:9464",where="http"}', values: '0 0 1 1 1 1' },
                { series: 'rimthan_release_degraded{instance="a:9464"}', values: '0 1 1 1 1 1' },
                { series: 'rimthan_release_degraded{instance="b:9464"}', values: '0 0 0 0 0 0' },
              ],
              alert_rule_test: [
                {
                  eval_time: '4m',
                  alertname: 'RimthanInternalFaults',
                  exp_alerts: [
                    {
                      exp_labels: { severity: 'critical', instance: 'a:9464', where: 'http' },
                      exp_annotations: annotations('RimthanInternalFaults', { instance: 'a:9464', where: 'http' }),
                    },
                  ],
                },
                {
                  eval_time: '4m',
                  alertname: 'RimthanReleaseDegraded',
                  exp_alerts: [
                    {
                      exp_labels: { severity: 'critical', instance: 'a:9464' },
                      exp_annotations: annotations('RimthanReleaseDegraded', { instance: 'a:9464' }),
                    },
                  ],
                },
                { eval_time: '4m', alertname: 'RimthanRunCommitFailures', exp_alerts: [] },
              ],
            },
          ],
        }),
      );
      const { status, out } = promtool(['test', 'rules', tests]);
      assert.equal(status, 0, out);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the dashboard queries name only exported metrics and show every Rimthan metric family', async () => {
    const { families, series } = await exported();
    const exprs = dashboardExprs();
    assert.ok(exprs.length >= 15);
    const used = new Set<string>();
    for (const expr of exprs) {
      for (const name of metricNames(expr)) {
        assert.ok(series.has(name), `the dashboard reads ${name}, which is not exported`);
        used.add(name.replace(/_(bucket|sum|count)$/, ''));
      }
    }
    const ours = [...families].filter((name) => !/^rimthan_(process|nodejs)_/.test(name));
    assert.deepEqual(
      ours.filter((name) => !used.has(name)),
      [],
      'every Rimthan metric family is on the dashboard',
    );
  });
});
