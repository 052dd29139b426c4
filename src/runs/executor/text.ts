/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character (or a surrogate pair). */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** Status summaries are at most 1024 bytes (store limit). */
export const MAX_SUMMARY_BYTES = 1024;
/** Flow-authored interrupt messages and cancel reasons kept in history are at most 512 bytes. */
export const MAX_MESSAGE_BYTES = 512;
