/**
 * The test's stand-in for the person and their coding agent: it writes the active step's declared outputs into the
 * workspace (hand-written bodies for the artifact ids it knows, when they match the served schema; otherwise an
 * instance generated from the served schema), marks one Markdown output as needing repair when asked, and repairs it.
 * Everything it knows about the step comes from the served step payload, read through rimthan/participant.
 */
import { SchemaCompiler } from '../../../src/core/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { connectServer, ParticipantSession, Workspace, writeOutput } from '../../../src/participant/index.js';
import type { ServerTarget, StepPayload } from '../../../src/participant/index.js';
import { BODIES } from '../../mcp/support/research-artifacts.js';
import { instanceOf } from './schema-instance.js';

/** The marker the test validator fails on. */
export const NEEDS_REPAIR = 'NEEDS-REPAIR: claim C2 rests on one unrepeated measurement.';

const SPIKE: Readonly<Record<string, string>> = {
  'spike-results': JSON.stringify({
    decision_question: 'Which message queue should the billing service adopt?',
    environment: { description: 'Laptop, Docker' },
    experiments: [
      {
        experiment_id: 'E1',
        option_id: 'kafka',
        hypothesis: 'p95 publish latency stays under 20 ms at 2,000 msg/s',
        setup: { description: 'Single broker', commands: ['make bench'], dependencies: [], notes_section: 'E1' },
        measurements: [{ metric: 'p95 latency', value: 12, unit: 'ms', runs: 5 }],
        verdict: 'confirmed',
        verdict_rationale: 'Well under the threshold.',
      },
    ],
    limitations: [],
  }),
  'spike-notes': '# Spike notes\n\n## E1\n\nRun `make bench`.\n',
};
const KNOWN: Readonly<Record<string, string>> = { ...BODIES, ...SPIKE };

async function bodyFor(
  server: { readResource(uri: string): Promise<string | undefined> },
  output: StepPayload['outputs'][number],
): Promise<string> {
  if (output.media_type !== 'application/json')
    return KNOWN[output.artifact_id] ?? `# ${output.artifact_id}\n\nWritten by the test agent.\n`;
  const schemaText = output.schema === null ? undefined : await server.readResource(output.schema.uri);
  const schema = schemaText === undefined ? undefined : (JSON.parse(schemaText) as JsonObject);
  const known = KNOWN[output.artifact_id];
  if (known !== undefined && (schema === undefined || new SchemaCompiler().compile(schema)(JSON.parse(known)).ok))
    return known;
  if (schema === undefined) return '{}';
  return JSON.stringify(instanceOf(schema));
}

/** Opens a library session on `target` for `dir`, runs `body`, closes. */
export async function withLibrary<T>(
  target: ServerTarget,
  dir: string,
  body: (s: ParticipantSession) => Promise<T>,
): Promise<T> {
  const server = await connectServer(target);
  try {
    return await body(new ParticipantSession(server, new Workspace(dir)));
  } finally {
    await server.close();
  }
}

/**
 * Writes every declared output of the active step. With `markForRepair`, the first Markdown output carries the
 * marker the test validator fails on. Returns the paths written and the marked one.
 */
export async function writeStepOutputs(
  target: ServerTarget,
  dir: string,
  opts: { markForRepair?: boolean } = {},
): Promise<{ step: string; written: string[]; marked: string | undefined }> {
  return withLibrary(target, dir, async (session) => {
    const step = await session.stepPayload();
    const written: string[] = [];
    let marked: string | undefined;
    for (const output of step.outputs) {
      let body = await bodyFor(session.server, output);
      if (opts.markForRepair === true && marked === undefined && output.media_type === 'text/markdown') {
        body = `${body}\n${NEEDS_REPAIR}\n`;
        marked = output.path;
      }
      writeOutput(session.workspace, output, body);
      written.push(output.path);
    }
    return { step: step.step.id, written, marked };
  });
}
