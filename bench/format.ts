/** Number and table formatting for the benchmark report. */
import type { Figure, Quantity, SuiteResult } from './model.js';

/** Three significant figures with thousands separators for big numbers (12,300; 4.56; 0.0123). */
export function fmt(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs === 0) return '0';
  return Number(value.toPrecision(3)).toString();
}

export function fmtQuantity(q: Quantity): string {
  return `${fmt(q.value)} ${q.unit}`;
}

/** Nanoseconds as a readable duration (ns, µs, ms, s). */
export function fmtNs(ns: number): string {
  if (ns < 1e3) return `${fmt(ns)} ns`;
  if (ns < 1e6) return `${fmt(ns / 1e3)} µs`;
  if (ns < 1e9) return `${fmt(ns / 1e6)} ms`;
  return `${fmt(ns / 1e9)} s`;
}

/** A time comparison given as baseline ÷ Rimthan: "5.2× lower" when Rimthan is faster, "1.3× higher" when slower. */
export function lowerText(baselineOverRimthan: number): string {
  if (baselineOverRimthan >= 1) return `${fmt(baselineOverRimthan)}× lower`;
  return `${fmt(1 / baselineOverRimthan)}× higher`;
}

/** A throughput comparison given as Rimthan ÷ baseline: "3.1× higher" or "0.5× (lower)". */
export function higherText(rimthanOverBaseline: number): string {
  if (rimthanOverBaseline >= 1) return `${fmt(rimthanOverBaseline)}× higher`;
  return `${fmt(1 / rimthanOverBaseline)}× lower`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(escapeCell).join(' | ')} |`;
}

function figureRow(f: Figure): string {
  return row([
    f.name,
    fmtQuantity(f.rimthan),
    f.baseline === undefined ? '—' : `${fmtQuantity(f.baseline.quantity)} (${f.baseline.label})`,
    f.ratio?.text ?? '—',
    f.aim?.text ?? '—',
    f.aim === undefined ? '—' : f.aim.met ? 'yes' : '**no**',
    f.note ?? '',
  ]);
}

/** The Markdown report: one table per suite, then its notes. */
export function renderMarkdown(results: readonly SuiteResult[], header: readonly string[]): string {
  const out: string[] = ['# Rimthan benchmarks', '', ...header.map((h) => `- ${h}`), ''];
  for (const r of results) {
    out.push(`## ${r.suite}`, '');
    if (r.skipped !== undefined) {
      out.push(`Skipped: ${r.skipped}`, '');
      continue;
    }
    out.push(row(['Figure', 'Rimthan', 'Baseline (same run)', 'Ratio', 'Aim', 'Met', 'Note']));
    out.push(row(['---', '---:', '---:', '---:', '---', '---', '---']));
    for (const f of r.figures) out.push(figureRow(f));
    out.push('');
    for (const n of r.notes) out.push(`- ${n}`);
    out.push(`- Suite time: ${fmt(r.durationMs / 1000)} s`, '');
  }
  return out.join('\n');
}
