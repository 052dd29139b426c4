/**
 * A validator subagent for `rimthan participant run --validator-command`: it reads its work order on stdin, reads
 * each input artifact read-only from the workspace (its working directory), checks the bytes have the digest the
 * order binds, and fails with a finding when an input carries the repair marker; otherwise it passes. It prints one
 * report on stdout, the shape a host's subagent returns.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

interface Order {
  validator_id: string;
  brief: { content: string };
  inputs: { artifact_id: string; path: string; sha256: string }[];
}

const order = JSON.parse(readFileSync(0, 'utf8')) as Order;
const findings: { severity: string; message: string; artifact_id: string }[] = [];
if (order.brief.content.length === 0)
  findings.push({ severity: 'error', message: 'empty brief', artifact_id: order.inputs[0]?.artifact_id ?? 'none' });
for (const input of order.inputs) {
  const bytes = readFileSync(input.path);
  if (createHash('sha256').update(bytes).digest('hex') !== input.sha256) {
    findings.push({
      severity: 'error',
      message: 'the input is not the file prepare bound',
      artifact_id: input.artifact_id,
    });
  } else if (bytes.toString('utf8').includes('NEEDS-REPAIR')) {
    findings.push({
      severity: 'error',
      message: 'a claim rests on one unrepeated measurement',
      artifact_id: input.artifact_id,
    });
  }
}
process.stdout.write(`${JSON.stringify({ outcome: findings.length === 0 ? 'passed' : 'failed', findings })}\n`);
