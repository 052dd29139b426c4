/**
 * What reaches a terminal of text a server sent: every control character (C0, DEL, C1, so every ESC sequence, OSC 8
 * link and CSI), the bidirectional overrides and isolates, the line and paragraph separators and lone surrogates shown
 * visibly as `\u001b` (the sequence never acts on the terminal), and a bound on the length with a marker saying how
 * much was left out. `shown` is for one value inside a line (a newline is escaped too); `terminalText` for a whole
 * output (newlines and tabs kept).
 */

/** Characters a terminal acts on, or that change how the text around them reads, or that cannot be encoded. */
// In `u` mode a surrogate pair is one code point beyond U+FFFF, so the surrogate range matches lone halves only.
/* eslint-disable no-control-regex -- the control characters are exactly what must not reach a terminal */
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/gu;
// As UNSAFE, newline and tab included.
const UNSAFE_OR_LINE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/gu;
/* eslint-enable no-control-regex */

/** The longest value `shown` prints (characters), and the longest whole output `terminalText` writes. */
export const MAX_SHOWN_CHARS = 500;
export const MAX_OUTPUT_CHARS = 4 * 1024 * 1024;

function visible(ch: string): string {
  return `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

function escaped(text: string, pattern: RegExp): string {
  return text.replace(pattern, visible);
}

/** `text` cut to at most `max` characters (never inside a surrogate pair), with a marker naming what was left out. */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${text.length - end} more characters not shown)`;
}

/** One server-provided value for a line of output: every control escaped (newlines too), at most `max` characters. */
export function shown(value: string, max = MAX_SHOWN_CHARS): string {
  return escaped(bounded(value, max), UNSAFE_OR_LINE);
}

/** A whole output: controls escaped except newline and tab, at most `max` characters. */
export function terminalText(text: string, max = MAX_OUTPUT_CHARS): string {
  return escaped(bounded(text, max), UNSAFE);
}
