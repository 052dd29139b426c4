/**
 * Structured log lines: one JSON object per event, one line each, for a log collector. Only the events an operator
 * needs (start, release change, refresh failure, fault, and the notices and start-up refusals a text log would show as
 * `rimthan: …` lines), and only fields from a closed list of safe ones: never a
 * request or response body, a token, a query string, a principal or a participant value. A fault is logged by the
 * kind of error (its class name and code), never its message or stack, which could quote participant data.
 */

/** The events a Rimthan process logs. */
export type LogEvent =
  | 'start'
  | 'release_change'
  | 'release_refresh_failed'
  | 'release_refresh_recovered'
  | 'vertex_failed'
  | 'fault'
  | 'stop'
  | 'notice'
  | 'refusal';

/** The fields an event may carry, each a short closed word, a number or an operator-given name. */
export interface LogFields {
  readonly profile?: string;
  readonly transport?: string;
  /** A listen URL (scheme, host, port, path only). */
  readonly listen?: string;
  readonly channel?: string;
  readonly release?: string;
  readonly previous?: string;
  /** A refusal's or fault's kind (`ENOENT`, `TypeError`, `digest_mismatch`), never a message. */
  readonly kind?: string;
  /** Where a fault happened (`http`, `tools/call`, a tool name, `supervisor`). */
  readonly where?: string;
  /**
   * Why a release refresh was refused, as the follower words it: channel names, release names, entry names and
   * closed reason codes (`active: research-2026.12.1 digest_mismatch at asset prompt/brief@1.0.0`), release content
   * only.
   */
  readonly reason?: string;
  readonly version?: string;
  /** A refusal's error code (`usage`, `invalid_config`, `store_unavailable`), from the closed list of codes. */
  readonly code?: string;
  /**
   * A notice's or refusal's text, exactly the words of its text line without `rimthan: ` (those lines name settings,
   * files and closed words, never a value, token or participant datum); control characters become spaces.
   */
  readonly message?: string;
  /** Where a usage refusal points for help (`rimthan serve --help`). */
  readonly help?: string;
  /** A flow's name and one of its vertices (`vertex_failed`): names from the flow's code, never run data. */
  readonly flow?: string;
  readonly vertex?: string;
}

const LEVEL: Readonly<Record<LogEvent, 'info' | 'warn' | 'error'>> = {
  start: 'info',
  stop: 'info',
  release_change: 'info',
  release_refresh_failed: 'warn',
  release_refresh_recovered: 'info',
  vertex_failed: 'warn',
  fault: 'error',
  notice: 'info',
  refusal: 'error',
};

const SAFE = /^[\w.:/@[\]-]{1,256}$/;
/** A reason is a few such words with spaces, semicolons and parentheses between them. */
const SAFE_REASON = /^[\w.:/@[\]() ;,-]{1,1024}$/;

/** The longest message logged; a longer one is cut with `…`. */
const MAX_MESSAGE = 2048;

/** A message as logged: one line of printable text, bounded. */
function safeMessage(value: string): string {
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

/**
 * A field value as logged: a message is one bounded line; a URL loses its query and fragment; anything else not a
 * short safe word becomes `other`.
 */
function safe(key: keyof LogFields, value: string): string {
  if (key === 'message') return safeMessage(value);
  let text = value;
  if (key === 'listen') {
    try {
      const url = new URL(value);
      text = `${url.protocol}//${url.host}${url.pathname}`;
    } catch {
      return 'other';
    }
  }
  return (key === 'reason' || key === 'help' ? SAFE_REASON : SAFE).test(text) ? text : 'other';
}

/** The kind of an error: its `code` when it is a closed word, else its class name. */
export function errorKindOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Za-z][\w]{0,63}$/.test(code)) return code;
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && /^[A-Za-z]\w{0,63}$/.test(name) ? name : 'Error';
}

export interface StructuredLogger {
  log(event: LogEvent, fields?: LogFields): void;
  /** A fault, by kind only. */
  fault(where: string, error: unknown): void;
}

/** A logger writing one JSON line per event to `write` (stderr in the CLI). */
export function jsonLogger(write: (line: string) => void, now: () => Date = () => new Date()): StructuredLogger {
  const log = (event: LogEvent, fields: LogFields = {}): void => {
    const line: Record<string, string> = { time: now().toISOString(), level: LEVEL[event], event };
    for (const [key, value] of Object.entries(fields) as [keyof LogFields, string | undefined][]) {
      if (value !== undefined) line[key] = safe(key, value);
    }
    write(JSON.stringify(line));
  };
  return {
    log,
    fault: (where, error) => log('fault', { where, kind: errorKindOf(error) }),
  };
}
