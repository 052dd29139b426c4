/** Small pieces every page uses: status badges, digests, errors, loading, JSON blocks, Markdown-ish text. */
import type { ComponentChildren } from 'preact';
import type { Loaded } from '../use-api.js';

export function Badge({ kind, children }: { kind: string; children: ComponentChildren }) {
  return <span class={`badge badge-${kind}`}>{children}</span>;
}

/** A SHA-256 shortened for reading, whole in the tooltip. */
export function Digest({ value }: { value: string }) {
  return (
    <code class="digest" title={value}>
      {value.slice(0, 12)}…
    </code>
  );
}

export function ErrorBox({ error }: { error: Error }) {
  const code = (error as { code?: unknown }).code;
  return (
    <div class="error-box" role="alert">
      {typeof code === 'string' && <strong>{code}: </strong>}
      {error.message}
    </div>
  );
}

/** Renders a loaded answer, a spinner line while loading, or the error. */
export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.state === 'loading') return <p class="loading">Loading…</p>;
  if (loaded.state === 'failed') return <ErrorBox error={loaded.error} />;
  return <>{children(loaded.data)}</>;
}

export function JsonBlock({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

/** Instruction and brief text: paragraphs and headings of the Markdown source, shown as text (never as HTML). */
export function Prose({ text }: { text: string }) {
  const blocks = text.split(/\n{2,}/);
  return (
    <div class="prose">
      {blocks.map((block, i) => {
        const heading = /^(#{1,6})\s+(.*)$/s.exec(block.trim());
        if (heading !== null) return <h4 key={i}>{heading[2]}</h4>;
        return <p key={i}>{block}</p>;
      })}
    </div>
  );
}

export function Time({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={iso}>
      {Number.isNaN(date.getTime()) ? iso : date.toLocaleString()}
    </time>
  );
}
