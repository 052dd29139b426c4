/**
 * TOML string encoders for rendered Codex agent files (TOML 1.0). Only what the renderer needs: a single-line basic
 * string and a multi-line basic string, both escaping every character TOML forbids raw.
 */

function hex4(code: number): string {
  return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
  '"': '\\"',
  '\\': '\\\\',
};

function escapeChar(ch: string, multiline: boolean): string {
  if (multiline && ch === '\n') return '\n';
  const short = SHORT_ESCAPES[ch];
  if (short !== undefined) return short;
  const code = ch.codePointAt(0) as number;
  // TOML forbids raw U+0000–U+001F (except tab) and U+007F in basic strings.
  return code < 0x20 || code === 0x7f ? hex4(code) : ch;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point: TOML forbids them raw.
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\u007f]/g;

/** A TOML basic string: `"..."` with quotes, backslashes and control characters escaped. */
export function tomlBasicString(value: string): string {
  return `"${value.replace(NEEDS_ESCAPE, (ch) => escapeChar(ch, false))}"`;
}

/**
 * A TOML multi-line basic string. The opening delimiter is followed by a newline (which TOML trims), raw newlines
 * are kept, every quote is escaped (so no `"""` can close the string early) and so are backslashes and controls.
 */
export function tomlMultilineString(value: string): string {
  return `"""\n${value.replace(NEEDS_ESCAPE, (ch) => escapeChar(ch, true))}"""`;
}
