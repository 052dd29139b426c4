/** Label text for Mermaid flowcharts, shared by the release graphs (registry) and the flow graphs (runs). */

const SAFE = /[A-Za-z0-9 .,:_\-()/?!'=+*@[\]]/;

/** Escapes label text for a quoted Mermaid label: anything outside a small safe set becomes `#<code>;`. */
export function mermaidText(text: string): string {
  let out = '';
  for (const ch of text.replace(/\s+/g, ' ').trim()) {
    out += SAFE.test(ch) ? ch : `#${ch.codePointAt(0) ?? 63};`;
  }
  return out;
}
