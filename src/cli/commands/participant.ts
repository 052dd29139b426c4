/**
 * `rimthan participant start|status|answer|write-assets|prepare|report|submit|continue`: the reference harness for
 * scripted hosts and for people, one protocol step per command, over the rimthan/participant library. Every command
 * reads `.rimthan/workflow-session.json` (except start, which creates it) and saves it after every answer that
 * carries a checkpoint. `run` (participant-run.ts) is the whole loop.
 */
import { str } from '../../participant/index.js';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isJsonObject, parseStrictJson } from '../../core/index.js';
import type { JsonObject, JsonValue } from '../../core/index.js';
import { dynamicContextText, ParticipantError, ParticipantErrorCode, sessionStatus } from '../../participant/index.js';
import type { GivenReport, ParticipantSession } from '../../participant/index.js';
import { parseCommand, positionals, stringList, stringOption } from '../args.js';
import type { Parsed } from '../args.js';
import { UsageError } from '../errors.js';
import { terminalIo } from '../io.js';
import type { CliIo } from '../io.js';
import { confirmAnswer } from './participant-confirm.js';
import { jsonOutput, withSession } from './participant-connect.js';
import {
  CONNECT_OPTIONS,
  PARTICIPANT_ANSWER_OPTIONS,
  PARTICIPANT_PREPARE_OPTIONS,
  PARTICIPANT_START_OPTIONS,
  PARTICIPANT_SUBMIT_OPTIONS,
  PARTICIPANT_WRITE_ASSETS_OPTIONS,
} from './participant-options.js';
import { printResult, resultWords, statusWords, workOrderWords } from './participant-output.js';

/** `--set FIELD=VALUE` pairs, in order. */
function setPairs(parsed: Parsed, topic: string): [string, string][] {
  return stringList(parsed, 'set').map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError('--set takes FIELD=VALUE', topic);
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

/** Starts the workflow the start options describe, each initial field confirmed by the person. */
export async function startFromOptions(
  session: ParticipantSession,
  parsed: Parsed,
  io: CliIo,
  topic: string,
): Promise<JsonObject> {
  const workflow = stringOption(parsed, 'workflow');
  const harness = stringOption(parsed, 'harness');
  if (workflow === undefined || harness === undefined) {
    throw new UsageError('start needs --workflow ID and --harness NAME (codex, claude-code, cowork, buzz)', topic);
  }
  const adapterText = stringOption(parsed, 'adapter');
  const adapterMatch = adapterText === undefined ? undefined : /^([^@]+)@(.+)$/.exec(adapterText);
  if (adapterText !== undefined && adapterMatch === null) throw new UsageError('--adapter takes ID@VERSION', topic);
  const state: Record<string, JsonValue> = {};
  for (const [field, text] of setPairs(parsed, topic)) {
    state[field] = text;
    await confirmAnswer(io, parsed, field, text);
  }
  const version = stringOption(parsed, 'workflow-version');
  return session.start({
    workflow,
    ...(version === undefined ? {} : { workflow_version: version }),
    host: {
      harness,
      ...(adapterMatch ? { adapter: { id: adapterMatch[1] ?? '', version: adapterMatch[2] ?? '' } } : {}),
      host_capabilities: stringList(parsed, 'capability'),
      validator_capabilities: stringList(parsed, 'validator-capability'),
    },
    state,
  });
}

/** `participant start`. */
export async function participantStart(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const topic = 'participant start';
  const parsed = parseCommand(argv, PARTICIPANT_START_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  await withSession(parsed, io, topic, async (session) => {
    printResult(io, await startFromOptions(session, parsed, io, topic), jsonOutput(parsed));
  });
}

/** `participant status`. */
export async function participantStatus(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const topic = 'participant status';
  const parsed = parseCommand(argv, CONNECT_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  await withSession(parsed, io, topic, async (session) => {
    const status = await sessionStatus(session);
    io.out(jsonOutput(parsed) ? JSON.stringify(status, null, 2) : statusWords(status).join('\n'));
  });
}

/** `participant answer FIELD VALUE`. */
export async function participantAnswer(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const topic = 'participant answer';
  const parsed = parseCommand(argv, PARTICIPANT_ANSWER_OPTIONS, topic);
  const [field = '', text = ''] = positionals(parsed, 2, 'FIELD VALUE: rimthan participant answer FIELD VALUE', topic);
  await withSession(parsed, io, topic, async (session) => {
    const value = await session.answerValue(field, text);
    await confirmAnswer(io, parsed, field, value);
    printResult(io, await session.answer(field, value), jsonOutput(parsed));
  });
}

/** `participant continue`. */
export async function participantContinue(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const topic = 'participant continue';
  const parsed = parseCommand(argv, CONNECT_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  await withSession(parsed, io, topic, async (session) => {
    printResult(io, await session.continue(), jsonOutput(parsed));
  });
}

/** `participant write-assets [--no-project-local] [--context-out FILE]`. */
export async function participantWriteAssets(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const topic = 'participant write-assets';
  const parsed = parseCommand(argv, PARTICIPANT_WRITE_ASSETS_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  await withSession(parsed, io, topic, async (session) => {
    const delivered = await session.writeAssets({ projectLocal: parsed.values['no-project-local'] !== true });
    const contextOut = stringOption(parsed, 'context-out');
    if (contextOut !== undefined) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(resolve(io.cwd, contextOut), dynamicContextText(delivered.dynamicContext));
    }
    if (jsonOutput(parsed)) {
      io.out(
        JSON.stringify(
          { deliveries: delivered.deliveries, written: delivered.written, dynamic_context: delivered.dynamicContext },
          null,
          2,
        ),
      );
      return;
    }
    const lines = delivered.written.map((p) => `wrote ${p}`);
    const dynamic = delivered.dynamicContext.map((a) => `${a.kind} ${a.id}@${a.version}`);
    lines.push(
      `load into the agent's context, unchanged: ${dynamic.join(', ')}${contextOut === undefined ? ' (--context-out FILE or --json gives the text)' : ` (in ${contextOut})`}`,
    );
    lines.push('next: rimthan participant prepare');
    io.out(lines.join('\n'));
  });
}

/** `participant prepare [--orders DIR]`. */
export async function participantPrepare(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const topic = 'participant prepare';
  const parsed = parseCommand(argv, PARTICIPANT_PREPARE_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  await withSession(parsed, io, topic, async (session) => {
    const { result, workOrders } = await session.prepare();
    const orders = stringOption(parsed, 'orders');
    if (orders !== undefined && workOrders.length > 0) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const dir = resolve(io.cwd, orders);
      mkdirSync(dir, { recursive: true });
      for (const o of workOrders)
        writeFileSync(resolve(dir, `${o.validator_id}.json`), `${JSON.stringify(o, null, 2)}\n`);
    }
    if (jsonOutput(parsed)) {
      printResult(io, result, true, { work_orders: workOrders as unknown as JsonValue });
      return;
    }
    const lines = resultWords(result);
    if (workOrders.length > 0) {
      lines.push('run each validator as its own read-only subagent:', ...workOrderWords(workOrders));
      lines.push('then: rimthan participant report VALIDATOR FILE for each, and rimthan participant submit');
    }
    io.out(lines.join('\n'));
    printResult({ ...io, out: () => undefined }, result, false);
  });
}

/** `participant report VALIDATOR FILE`. */
export async function participantReport(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const topic = 'participant report';
  const parsed = parseCommand(argv, CONNECT_OPTIONS, topic);
  const [validator = '', file = ''] = positionals(
    parsed,
    2,
    'VALIDATOR FILE: rimthan participant report VALIDATOR FILE',
    topic,
  );
  await withSession(parsed, io, topic, async (session) => {
    const path = resolve(io.cwd, file);
    const report = readReportFile(path, file);
    assembleCheckOne(validator, report, file);
    const pending = await session.registerReport(validator, path);
    const due = pending.validators.map((v) => str(v['validator_id'])).filter((v) => !(v in pending.reports));
    io.out(
      jsonOutput(parsed)
        ? JSON.stringify({ registered: validator, due }, null, 2)
        : `registered the report of ${validator}; ${due.length > 0 ? `still due: ${due.join(', ')}` : 'next: rimthan participant submit'}`,
    );
  });
}

function assembleCheckOne(validator: string, report: JsonValue, source: string): void {
  if (!isJsonObject(report))
    throw new ParticipantError(ParticipantErrorCode.ReportInvalid, `${source} is not one JSON object`);
  const claimed = report['validator_id'];
  if (typeof claimed === 'string' && claimed !== validator) {
    throw new ParticipantError(
      ParticipantErrorCode.ReportInvalid,
      `${source} is a report of ${claimed}, not of ${validator}`,
    );
  }
}

/** A report file's JSON (a missing or unparsable file names the file). */
export function readReportFile(path: string, shown: string): JsonValue {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ParticipantError(ParticipantErrorCode.ReportMissing, `cannot read the report file ${shown}`);
  }
  const parsed = parseStrictJson(text, { maxBytes: 1024 * 1024 });
  if (!parsed.ok) throw new ParticipantError(ParticipantErrorCode.ReportInvalid, `${shown} is not one JSON document`);
  return parsed.value;
}

/** Reports of the pending validation: the registered files, plus `<validator>.json` in `dir` for the rest. */
export async function givenReports(session: ParticipantSession, dir: string | undefined): Promise<GivenReport[]> {
  const state = await session.load();
  const pending = session.pending(state);
  const given: GivenReport[] = [];
  for (const v of pending.validators) {
    const id = str(v['validator_id']);
    const registered = pending.reports[id];
    const path = registered ?? (dir === undefined ? undefined : resolve(dir, `${id}.json`));
    if (path === undefined || (registered === undefined && !existsSync(path))) continue;
    given.push({
      validator_id: id,
      report: readReportFile(path, registered ?? `${id}.json in ${dir ?? ''}`),
      source: registered ?? `${id}.json`,
    });
  }
  return given;
}

/** `participant submit [--reports DIR]`. */
export async function participantSubmit(argv: string[], given: CliIo): Promise<void> {
  const io = terminalIo(given);
  const topic = 'participant submit';
  const parsed = parseCommand(argv, PARTICIPANT_SUBMIT_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  const dir = stringOption(parsed, 'reports');
  await withSession(parsed, io, topic, async (session) => {
    const given = await givenReports(session, dir === undefined ? undefined : resolve(io.cwd, dir));
    printResult(io, await session.submit(given), jsonOutput(parsed));
  });
}
