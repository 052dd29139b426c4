import { isJsonObject } from '../../core/index.js';
import { Limits } from '../contracts/primitives.js';

/**
 * Reads `checkpoint.registry_release` from raw tool arguments WITHOUT verifying anything. Used only to route a
 * checkpoint-bearing call to the release it is pinned to; the engine then verifies the checkpoint against that release
 * (a lie here only selects a release the token will fail against).
 */
export function checkpointRelease(args: unknown): string | undefined {
  if (!isJsonObject(args)) return undefined;
  const checkpoint = args['checkpoint'];
  if (!isJsonObject(checkpoint)) return undefined;
  const release = checkpoint['registry_release'];
  return typeof release === 'string' && release.length > 0 && release.length <= Limits.releaseLength
    ? release
    : undefined;
}
