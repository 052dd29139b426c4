/** Temporary database files for the suites: one private folder under os.tmpdir(), removed when the suite ends. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempFolder {
  /** A fresh path inside the folder (the file is not created). */
  file(name: string): string;
  /** Deletes the folder and everything in it (database, -wal and -shm files). */
  remove(): void;
}

/** Creates `<tmpdir>/rimthan-bench-<label>-XXXXXX`. */
export function tempFolder(label: string): TempFolder {
  const dir = mkdtempSync(join(tmpdir(), `rimthan-bench-${label}-`));
  let n = 0;
  return {
    file(name) {
      n++;
      return join(dir, `${n}-${name}`);
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `body` with a temp folder and always removes it afterwards. */
export async function withTempFolder<T>(label: string, body: (folder: TempFolder) => Promise<T>): Promise<T> {
  const folder = tempFolder(label);
  try {
    return await body(folder);
  } finally {
    folder.remove();
  }
}
