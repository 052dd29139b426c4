/**
 * `rimthan participant run`: the whole scripted loop. It starts the workflow when there is no session yet, applies
 * the confirmed answers of `--answers FILE` (each confirmed by the person, or by `--yes`), continues ungated steps,
 * delivers the setup assets and attests them, prepares each gated step from the files on disk, hands each listed
 * validator its work order and takes its report from `--validator-command CMD` (work order on stdin, report on
 * stdout) or `--reports DIR` (`<validator>.json`), and submits. It stops, with exit code 1 and the reason, where a
 * person is needed: a question the answers do not cover, a file not written yet, deterministic failures, findings.
 */
import { str } from '../../participant/index.js';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isJsonObject, parseStrictJson } from '../../core/index.js';
import type { JsonObject, JsonValue } from '../../core/index.js';
import {
  confirmState,
  ParticipantError,
  ParticipantErrorCode,
  readSession,
  sessionStatus,
} from '../../participant/index.js';
import type { GivenReport, ParticipantSession, WorkOrder } from '../../participant/index.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import type { Parsed } from '../args.js';
import { CommandFailed, UsageError } from '../errors.js';
import { terminalIo } from '../io.js';
import type { CliIo } from '../io.js';
import { confirmAnswer } from './participant-confirm.js';
import { jsonOutput, splitCommand, withSession } from './participant-connect.js';
import { PARTICIPANT_RUN_OPTIONS } from './participant-options.js';
import { failIfStopped, resultWords } from './participant-output.js';
import { givenReports, startFromOptions } from './participant.js';

const TOPIC = 'participant run';
/** More tool rounds than any workflow needs: a loop that does not end is a bug, not a wait. */
const MAX_ROUNDS = 200;

interface Record_ {
  readonly step: string;
  readonly tool: string;
  readonly status: string;
}

function readAnswers(file: string | undefined, io: CliIo): JsonObject {
  if (file === undefined) return {};
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, file), 'utf8');
  } catch {
    throw new CommandFailed('not_found', `cannot read --answers ${file}`);
  }
  const parsed = parseStrictJson(text, { maxBytes: 1024 * 1024 });
  if (!parsed.ok || !isJsonObject(parsed.value)) {
    throw new CommandFailed('invalid_answers', `--answers ${file} must be one JSON object (field → value)`);
  }
  return parsed.value;
}

/** Runs `command` with the work order on stdin; its stdout is the report. */
function runValidatorCommand(command: string, order: WorkOrder, cwd: string, env: CliIo['env']): Promise<GivenReport> {
  const [program = '', ...args] = splitCommand(command, TOPIC);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(program, args, {
      cwd,
      env: { ...env, RIMTHAN_VALIDATOR_ID: order.validator_id },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1024 * 1024) chunks.push(c);
    });
    child.on('error', (error) =>
      reject(
        new CommandFailed('validator_command_failed', `cannot run --validator-command ${program}: ${error.message}`),
      ),
    );
    child.on('close', (code) => {
      if (code !== 0) {
        reject(
          new CommandFailed(
            'validator_command_failed',
            `--validator-command exited with ${str(code)} for validator ${order.validator_id}`,
          ),
        );
        return;
      }
      const parsed = parseStrictJson(Buffer.concat(chunks).toString('utf8'), { maxBytes: 1024 * 1024 });
      if (!parsed.ok) {
        reject(
          new ParticipantError(
            ParticipantErrorCode.ReportInvalid,
            `the stdout of --validator-command for ${order.validator_id} is not one JSON document`,
          ),
        );
        return;
      }
      resolvePromise({
        validator_id: order.validator_id,
        report: parsed.value,
        source: `the report of --validator-command for ${order.validator_id}`,
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(order)}\n`);
  });
}

/** Fields of `answers` that differ from the confirmed state. */
function unconfirmed(answers: JsonObject, state: JsonObject): string[] {
  return Object.keys(answers).filter((f) => JSON.stringify(state[f]) !== JSON.stringify(answers[f]));
}

async function loop(
  session: ParticipantSession,
  parsed: Parsed,
  io: CliIo,
): Promise<{ records: Record_[]; last: JsonObject }> {
  const answers = readAnswers(stringOption(parsed, 'answers'), io);
  const command = stringOption(parsed, 'validator-command');
  const reportsDir = stringOption(parsed, 'reports');
  const records: Record_[] = [];
  const note = (step: string, tool: string, result: JsonObject): JsonObject => {
    records.push({ step, tool, status: str(result['status']) });
    if (!jsonOutput(parsed)) io.out(`${step}: ${tool} → ${resultWords(result).join('\n  ')}`);
    try {
      failIfStopped(result);
    } catch (error) {
      if (jsonOutput(parsed)) io.out(JSON.stringify({ status: result['status'], steps: records, result }, null, 2));
      throw error;
    }
    return result;
  };
  let last: JsonObject = {};
  if (readSession(session.workspace) === undefined) {
    last = note('(start)', 'start', await startFromOptions(session, parsed, io, TOPIC));
  }
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const status = await sessionStatus(session);
    const step = status.step.id;
    if (status.completed) return { records, last: { status: 'completed', ...last } };
    if (!status.step.gated || status.step.satisfied) {
      const current = ((await session.load()).confirmed_state['state'] ?? {}) as JsonObject;
      const fields = unconfirmed(answers, current);
      if (status.question !== null && !fields.includes(status.question.field) && !(status.question.field in answers)) {
        throw new CommandFailed(
          'input_required',
          `step ${step} needs an answer to ${status.question.field} (options: ${status.question.options.join(', ')}): add it to --answers, or rimthan participant answer ${status.question.field} VALUE`,
        );
      }
      let next: JsonObject | undefined;
      if (fields.length > 0) {
        for (const f of fields) await confirmAnswer(io, parsed, f, answers[f] as JsonValue);
        const state = { ...current };
        for (const f of fields) state[f] = answers[f] as JsonValue;
        next = confirmState(state, new Date(), (await session.load()).confirmed_state);
      }
      last = note(step, 'continue', await session.continue(next));
      if (last['status'] === 'completed') return { records, last };
      continue;
    }
    if (step === (await session.workflow())['start_step']) {
      await session.writeAssets({ projectLocal: parsed.values['no-project-local'] !== true });
    }
    const { result, workOrders } = await session.prepare();
    note(step, 'prepare', result);
    const given: GivenReport[] = [];
    if (workOrders.length > 0) {
      if (command !== undefined) {
        for (const order of workOrders)
          given.push(await runValidatorCommand(command, order, session.workspace.root, io.env));
      } else if (reportsDir !== undefined) {
        given.push(...(await givenReports(session, resolve(io.cwd, reportsDir))));
      } else {
        throw new UsageError('validators must report: give --validator-command CMD or --reports DIR', TOPIC);
      }
    }
    last = note(step, 'submit', await session.submit(given));
    if (last['status'] === 'completed') return { records, last };
  }
  throw new CommandFailed('internal', `the workflow did not end within ${MAX_ROUNDS} rounds`);
}

/** `participant run`. */
export async function participantRun(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const parsed = parseCommand(argv, PARTICIPANT_RUN_OPTIONS, TOPIC);
  positionals(parsed, 0, 'no positional arguments', TOPIC);
  if (stringOption(parsed, 'validator-command') !== undefined && stringOption(parsed, 'reports') !== undefined) {
    throw new UsageError('give --validator-command or --reports, not both', TOPIC);
  }
  const started = Date.now();
  await withSession(parsed, io, TOPIC, async (session, server) => {
    const { records, last } = await loop(session, parsed, io);
    const figures = {
      tool_calls: server.received.calls,
      received_bytes: server.received.bytes,
      elapsed_ms: Date.now() - started,
    };
    if (jsonOutput(parsed)) io.out(JSON.stringify({ status: last['status'], steps: records, ...figures }, null, 2));
    else
      io.out(`the workflow is complete (${figures.tool_calls} tool calls, ${figures.received_bytes} bytes received)`);
  });
}
