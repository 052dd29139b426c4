/**
 * JSON text in ASCII only: every character past U+007E written as its `\uXXXX` escape (an astral character as its two
 * surrogate escapes). The same value parses back; only the bytes differ. A stdio peer that splits a UTF-8 character
 * across two reads and decodes each read on its own (Codex 0.169 does, turning such a character into U+FFFD) then has
 * nothing to split.
 */
const NON_ASCII = /[\u007f-\uffff]/g;

function escape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `JSON.stringify(value)` with every non-ASCII character escaped. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(NON_ASCII, escape);
}
