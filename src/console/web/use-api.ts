/** Loads an API answer for the page: `{loading}`, `{data}` or `{error}`, reloaded when `key` changes. */
import { useEffect, useState } from 'preact/hooks';

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly data: T }
  | { readonly state: 'failed'; readonly error: Error };

export function useApi<T>(load: () => Promise<T>, key: readonly unknown[]): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    load().then(
      (data) => live && setLoaded({ state: 'ready', data }),
      (error: unknown) =>
        live && setLoaded({ state: 'failed', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [...key, round]);
  return [loaded, () => setRound((r) => r + 1)];
}
