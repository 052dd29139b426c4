/**
 * A repository for the shipped `release_notes` flow: a small library tagged `v1.2.0`, then a handful of Conventional
 * Commits (a feature, two fixes, documentation) for the release the person asks notes for.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scratch } from './scratch.js';

export const RELEASE_NOTES_FILES: Readonly<Record<string, string>> = {
  'README.md': '# invoice-format\n\nFormats invoice amounts and dates for the billing service.\n',
  'src/amount.ts': 'export function formatAmount(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n',
};

const COMMITS: readonly { message: string; path: string; content: string }[] = [
  {
    message: 'feat: format amounts with the currency code',
    path: 'src/amount.ts',
    content:
      'export function formatAmount(cents: number, currency = "EUR"): string {\n' +
      '  return `${(cents / 100).toFixed(2)} ${currency}`;\n}\n',
  },
  {
    message: 'fix: round half-cent amounts away from zero',
    path: 'src/round.ts',
    content:
      'export function roundCents(value: number): number {\n  return Math.sign(value) * Math.round(Math.abs(value));\n}\n',
  },
  {
    message: 'fix(dates): keep the invoice date in UTC',
    path: 'src/date.ts',
    content: 'export function invoiceDate(d: Date): string {\n  return d.toISOString().slice(0, 10);\n}\n',
  },
  {
    message: 'docs: explain the currency argument',
    path: 'README.md',
    content: '# invoice-format\n\nformatAmount(cents, currency) formats an amount.\n',
  },
];

/** Tags the first commit `v1.2.0` and adds the release's commits. */
export function addReleaseHistory(scratch: Scratch): void {
  scratch.git('tag', 'v1.2.0');
  for (const commit of COMMITS) {
    writeFileSync(join(scratch.repo, commit.path), commit.content);
    scratch.git('add', '-A');
    scratch.git('commit', '-q', '-m', commit.message);
  }
}
