/** The release store shipped inside the package: `releases/dist/<release>.json`, active pointer `releases/ACTIVE`. */
import { join } from 'node:path';
import { packageRoot } from '../../package/index.js';
import { FolderReleaseStore } from './folder-store.js';

/** The packaged releases (every release the package has ever shipped, immutable) and the packaged active pointer. */
export function packagedReleaseStore(): FolderReleaseStore {
  const releases = join(packageRoot(), 'releases');
  return new FolderReleaseStore(join(releases, 'dist'), { activeFile: join(releases, 'ACTIVE') });
}
