/**
 * The documented shape of every Admin API answer the `rimthan admin` commands use, as closed JSON Schemas compiled
 * with core's SchemaCompiler: a release list, one release, the channels, the channel history, a channel change, a
 * publish outcome, and the error body. `checkAnswer` is the one place an answer is checked before a command reads it;
 * a wrong shape is refused naming the schema path that failed (never the value).
 */
import { SchemaCompiler } from '../core/index.js';
import type { CompiledSchema, JsonObject } from '../core/index.js';

const text = (maxLength: number): JsonObject => ({ type: 'string', maxLength });
const nullable = (schema: JsonObject): JsonObject => ({ anyOf: [schema, { type: 'null' }] });
const closed = (properties: Record<string, JsonObject>, optional: readonly string[] = []): JsonObject => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  additionalProperties: false,
});
const list = (items: JsonObject, maxItems = 100_000): JsonObject => ({ type: 'array', items, maxItems });

const RELEASE = text(200);
const SHA256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const TIME = text(64);
const PRINCIPAL = text(256);
const CHANNEL = { enum: ['active', 'migration-target'] };

const RELEASE_ROW: Record<string, JsonObject> = {
  release: RELEASE,
  manifest_sha256: nullable(SHA256),
  bytes_sha256: SHA256,
  size: { type: 'integer', minimum: 0 },
  published_at: nullable(TIME),
  published_by: nullable(PRINCIPAL),
  channels: list(CHANNEL, 2),
};

const CHANGE = closed({
  channel: CHANNEL,
  previous: nullable(RELEASE),
  release: nullable(RELEASE),
  changed_at: TIME,
  changed_by: PRINCIPAL,
});

/** The answers, by what the command asked for. */
export const ADMIN_ANSWERS = {
  publish: closed({ release: RELEASE, manifest_sha256: SHA256, created: { type: 'boolean' } }),
  releases: closed({ releases: list(closed(RELEASE_ROW)) }),
  release: closed({
    release: closed(
      {
        ...RELEASE_ROW,
        verified: { type: 'boolean' },
        reason: text(1000),
        registry_id: text(200),
        workflows: list(closed({ id: text(200), version: text(64), title: text(1000) }), 10_000),
        entries: { type: 'integer', minimum: 0 },
      },
      ['reason', 'registry_id', 'workflows', 'entries'],
    ),
  }),
  channels: closed({
    channels: list(closed({ channel: CHANNEL, release: nullable(RELEASE), error: text(1000) }, ['error']), 2),
  }),
  history: closed({ history: list(CHANGE) }),
  change: closed({ change: CHANGE }),
  error: closed({
    error: closed({ code: text(64), message: text(4096), reason: text(200), entry: text(1024) }, ['reason', 'entry']),
  }),
} as const satisfies Record<string, JsonObject>;
export type AdminAnswer = keyof typeof ADMIN_ANSWERS;

/** A release row (`GET /releases`), a release (`GET /releases/{r}`), a channel change, as the schemas guarantee. */
export interface ReleaseRow {
  readonly release: string;
  readonly manifest_sha256: string | null;
  readonly bytes_sha256: string;
  readonly size: number;
  readonly published_at: string | null;
  readonly published_by: string | null;
  readonly channels: readonly string[];
}
export interface ReleaseDetail extends ReleaseRow {
  readonly verified: boolean;
  readonly reason?: string;
  readonly registry_id?: string;
  readonly workflows?: readonly { readonly id: string; readonly version: string; readonly title: string }[];
  readonly entries?: number;
}
export interface Change {
  readonly channel: string;
  readonly previous: string | null;
  readonly release: string | null;
  readonly changed_at: string;
  readonly changed_by: string;
}
export interface AnswerTypes {
  publish: { release: string; manifest_sha256: string; created: boolean };
  releases: { releases: ReleaseRow[] };
  release: { release: ReleaseDetail };
  channels: { channels: { channel: string; release: string | null; error?: string }[] };
  history: { history: Change[] };
  change: { change: Change };
  error: { error: { code: string; message: string; reason?: string; entry?: string } };
}

const compiler = new SchemaCompiler();
const compiled = new Map<AdminAnswer, CompiledSchema>();

/** Undefined when `value` has the shape of `answer`, else the schema path (and keyword) of the first mismatch. */
export function answerProblem(answer: AdminAnswer, value: unknown): string | undefined {
  let check = compiled.get(answer);
  if (check === undefined) {
    check = compiler.compile(ADMIN_ANSWERS[answer]);
    compiled.set(answer, check);
  }
  const verdict = check(value);
  if (verdict.ok) return undefined;
  const issue = verdict.issues[0];
  return issue === undefined ? 'no match' : `${issue.schemaPath}`;
}
