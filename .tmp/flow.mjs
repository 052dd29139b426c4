import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { participant, stdioServer, HOST, VALIDATOR_COMMAND } from '../dist/test/participant/support/cli.js';
import { writeStepOutputs } from '../dist/test/participant/support/agent.js';
const root = mkdtempSync('/work/wt/handoff/.tmp/flow-');
const served = stdioServer(root);
const dir = join(root, 'ws'); (await import('node:fs')).mkdirSync(dir);
writeFileSync(join(root, 'a.json'), JSON.stringify({ decision_question: 'Which message queue should the billing service adopt?', candidate_options: ['kafka', 'rabbitmq'] }));
const args = ['run', '--workflow', 'research', ...HOST, '--set', 'objective=Pick the queue', '--answers', join(root, 'a.json'), '--validator-command', VALIDATOR_COMMAND, '--yes'];
let r = participant(served, dir, args);
for (let i = 0; i < 6 && /is not there yet/.test(r.stderr); i++) { await writeStepOutputs(served.target, dir); r = participant(served, dir, args); }
console.log(r.stderr);
console.log(participant(served, dir, ['status']).stdout);
