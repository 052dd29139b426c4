/**
 * `.rimthan/workflow-session.json`: what a participant commits for Git handoff. Exactly `{checkpoint,
 * confirmed_state}`: the checkpoint envelope as the server returned it and the confirmed-state projection it binds
 * (docs/harness/protocol-walkthrough.md). Nothing else: no artifact bodies, findings, step payloads or transport
 * tokens (checkpoints-data-perimeter.md). Written atomically; read strictly, and checked before any call: both parts
 * against their published schemas, the envelope against what its token's body says (unverified: only the server can
 * check the signature) and the confirmed state against the digest the checkpoint binds, so an edited file (or one a
 * merge left with conflict markers) is named as such instead of failing later on the server.
 */
import { digestJson, isJsonObject, parseStrictJsonBytes, SchemaCompiler } from '../core/index.js';
import type { CompiledSchema, JsonObject } from '../core/index.js';
import { checkpointEnvelopeDrift, GUIDED_SCHEMA_RESOURCES, SOME_MEMBER } from '../guided/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
import type { Workspace } from './workspace.js';

/** The session file's name inside `.rimthan/`. */
export const SESSION_FILE_NAME = 'workflow-session.json';
/** The session file's workspace path. */
export const SESSION_FILE = `.rimthan/${SESSION_FILE_NAME}`;
/** The largest session file read: a checkpoint envelope and a bounded confirmed state are far below it. */
export const MAX_SESSION_BYTES = 1024 * 1024;

export interface SessionState {
  readonly checkpoint: JsonObject;
  readonly confirmed_state: JsonObject;
}

const compiled = new Map<string, CompiledSchema>();
function published(id: string): CompiledSchema {
  let check = compiled.get(id);
  if (check === undefined) {
    const schema = GUIDED_SCHEMA_RESOURCES.find((s) => s.id === id)?.schema;
    check = schema === undefined ? () => ({ ok: true }) : new SchemaCompiler().compile(schema);
    compiled.set(id, check);
  }
  return check;
}

/** What to do about an edited session file. */
const RESTORE = `restore it from Git (git checkout -- ${SESSION_FILE}); change the workflow only through rimthan participant`;

/** A line Git writes into a file it could not merge. */
const CONFLICT_MARKER = /^(?:<{7}|={7}|>{7})(?: |$)/m;

function invalid(message: string): never {
  throw new ParticipantError(ParticipantErrorCode.SessionInvalid, `${SESSION_FILE} ${message}`);
}

/** The digest a checkpoint binds for a confirmed-state projection. */
export function confirmedStateDigest(projection: JsonObject): string {
  return digestJson({ state: projection['state'], confirmations: projection['confirmations'] });
}

/**
 * The documented shape only: one object holding exactly `checkpoint` and `confirmed_state`, both objects. What the
 * checkpoint proves is the server's to say (the console shows a tampered file's verdict from the guided tools).
 */
export function sessionShape(value: unknown): SessionState {
  if (!isJsonObject(value)) invalid('is not one JSON object');
  const extra = Object.keys(value).find((k) => k !== 'checkpoint' && k !== 'confirmed_state');
  if (extra !== undefined) invalid(`holds "${extra}": a session file holds only "checkpoint" and "confirmed_state"`);
  const checkpoint = value['checkpoint'];
  const state = value['confirmed_state'];
  if (!isJsonObject(checkpoint)) {
    invalid('does not hold a Rimthan checkpoint envelope (edited, or not a Rimthan session file)');
  }
  if (!isJsonObject(state)) invalid('does not hold a confirmed-state projection');
  return { checkpoint, confirmed_state: state };
}

/** Checks a session's shape and that its confirmed state is the one its checkpoint binds. */
export function checkSession(value: unknown): SessionState {
  const { checkpoint, confirmed_state: state } = sessionShape(value);
  if (!published('checkpoint-envelope')(checkpoint).ok) {
    invalid('does not hold a Rimthan checkpoint envelope (edited, or not a Rimthan session file)');
  }
  if (!published('confirmed-state-projection')(state).ok) {
    invalid('does not hold a confirmed-state projection');
  }
  const session = { checkpoint: checkpoint, confirmed_state: state };
  const drift = checkpointEnvelopeDrift(session.checkpoint);
  if (drift !== undefined) {
    throw new ParticipantError(
      ParticipantErrorCode.SessionTampered,
      `${SESSION_FILE} was edited: its checkpoint${drift === SOME_MEMBER ? '' : `'s ${drift}`} is not what the server ` +
        `signed; ${RESTORE}`,
    );
  }
  if (confirmedStateDigest(session.confirmed_state) !== session.checkpoint['confirmed_state_sha256']) {
    throw new ParticipantError(
      ParticipantErrorCode.SessionTampered,
      `${SESSION_FILE} was edited: its confirmed state is not the one its checkpoint binds; ${RESTORE}`,
    );
  }
  return session;
}

/** The session file's parsed JSON (strict, bounded, never through a link); undefined when there is none. */
function readSessionJson(workspace: Workspace): unknown {
  const bytes = workspace.readState(SESSION_FILE_NAME, MAX_SESSION_BYTES);
  if (bytes === undefined) return undefined;
  const parsed = parseStrictJsonBytes(bytes, { maxBytes: MAX_SESSION_BYTES });
  if (!parsed.ok && CONFLICT_MARKER.test(bytes.toString('utf8'))) {
    invalid(
      'holds Git merge-conflict markers: two people advanced the workflow in parallel, and checkpoints cannot be ' +
        `merged; keep one side whole (git checkout --ours ${SESSION_FILE}, or --theirs) together with that side's ` +
        'files, then continue',
    );
  }
  if (!parsed.ok) invalid('is not one strict JSON document');
  return parsed.value;
}

/** Reads and checks the session file; undefined when there is none. */
export function readSession(workspace: Workspace): SessionState | undefined {
  const value = readSessionJson(workspace);
  return value === undefined ? undefined : checkSession(value);
}

/** Reads the session file and checks its shape only (see sessionShape); undefined when there is none. */
export function readSessionShape(workspace: Workspace): SessionState | undefined {
  const value = readSessionJson(workspace);
  return value === undefined ? undefined : sessionShape(value);
}

/** Like readSession, but a missing file is an error naming what to do. */
export function requireSession(workspace: Workspace): SessionState {
  const session = readSession(workspace);
  if (session === undefined) {
    throw new ParticipantError(
      ParticipantErrorCode.SessionMissing,
      `no ${SESSION_FILE} in ${workspace.root}: start a workflow first (rimthan participant start)`,
    );
  }
  return session;
}

/** Writes the session file atomically (two-space JSON, final newline). */
export function writeSession(workspace: Workspace, session: SessionState): void {
  const text = `${JSON.stringify({ checkpoint: session.checkpoint, confirmed_state: session.confirmed_state }, null, 2)}\n`;
  workspace.writeState(SESSION_FILE_NAME, Buffer.from(text, 'utf8'));
}
