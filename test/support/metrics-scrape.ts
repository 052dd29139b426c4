/**
 * Reading the Prometheus text a `rimthan serve` admin listener (or a ServiceMetrics in process) exports: one scrape of
 * `/metrics` with the admin bearer token (status and content type checked), and the value of one series.
 */
import assert from 'node:assert/strict';

/** GET `${adminUrl}/metrics` with the admin token; asserts 200 and the Prometheus text type, returns the text. */
export async function scrapeMetrics(adminUrl: string, adminToken: string): Promise<string> {
  const response = await fetch(`${adminUrl}/metrics`, {
    headers: { Authorization: `Bearer ${adminToken}`, Connection: 'close' },
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of the one sample `series` (a full metric name with its labels, as exported) in Prometheus text, or NaN. */
export function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.slice(series.length + 1));
}
