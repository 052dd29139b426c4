/**
 * The folder store's append-only journals (`channel-history.jsonl`, `audit.jsonl`): one JSON object per line, appended
 * with O_APPEND and flushed before the call returns. A line that does not parse (a write torn by a crash) is skipped
 * on read; nothing is ever rewritten.
 */
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { isJsonObject, parseStrictJson } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';

/** The largest journal read back (older lines beyond it are not returned; the file itself is never truncated). */
const MAX_JOURNAL_BYTES = 16 * 1024 * 1024;

/** Appends one entry as a line and flushes it. */
export function appendJournal(path: string, entry: JsonObject): void {
  const fd = openSync(path, 'a', 0o644);
  try {
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`);
    let offset = 0;
    while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Every entry that parses, oldest first (an absent journal is empty). */
export function readJournal(path: string): JsonObject[] {
  let text: string;
  try {
    const bytes = readFileSync(path);
    text = bytes.subarray(Math.max(0, bytes.byteLength - MAX_JOURNAL_BYTES)).toString('utf8');
  } catch {
    return [];
  }
  const entries: JsonObject[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = parseStrictJson(line, { maxBytes: 64 * 1024 });
    if (parsed.ok && isJsonObject(parsed.value)) entries.push(parsed.value);
  }
  return entries;
}

/** The string value of a journal field, or null. */
export function textOf(entry: JsonObject, key: string): string | null {
  const value = entry[key];
  return typeof value === 'string' ? value : null;
}
