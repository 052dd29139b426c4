/**
 * A validator for `rimthan participant run --validator-command` that judges the research workflow's artifacts as the
 * host tests' scripted validator subagents do (research-checks.ts): it reads its work order on stdin, reads each input
 * read-only from the workspace (its working directory) and checks the bytes have the digest the order binds, opens the
 * repository files the inputs cite when its checks need them, and prints one report on stdout.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { RESEARCH_CHECKS } from './agent/research-checks.js';
import type { Finding } from './agent/research-checks.js';

interface Order {
  validator_id: string;
  inputs: { artifact_id: string; path: string; sha256: string }[];
}

const order = JSON.parse(readFileSync(0, 'utf8')) as Order;
const check = RESEARCH_CHECKS[order.validator_id];
const inputs = new Map(order.inputs.map((i) => [i.artifact_id, i.path]));
const files = new Map<string, string>();
const findings: Finding[] = [];
for (const input of order.inputs) {
  const bytes = readFileSync(input.path);
  if (createHash('sha256').update(bytes).digest('hex') !== input.sha256)
    findings.push({
      severity: 'error',
      message: 'the input is not the file prepare bound',
      artifact_id: input.artifact_id,
    });
  files.set(input.path, bytes.toString('utf8'));
}
if (check === undefined) {
  findings.push({ severity: 'error', message: `no criteria known for validator ${order.validator_id}` });
} else if (findings.length === 0) {
  for (const path of check.sources(inputs, files)) {
    try {
      files.set(path, readFileSync(path, 'utf8'));
    } catch {
      // A cited file that is not there: the check reports it.
    }
  }
  findings.push(...check.findings(inputs, files));
}
const outcome = findings.some((f) => f.severity === 'error') ? 'failed' : 'passed';
process.stdout.write(`${JSON.stringify({ outcome, findings })}\n`);
