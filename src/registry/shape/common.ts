/** Shape pieces shared by several entry kinds: refs and the file-name identity of source entries. */
import type { JsonObject } from '../../core/index.js';
import { HostAssetKind } from '../model/release.js';
import type { Ref } from '../model/release.js';
import { ProblemCode, quoted } from '../problems.js';
import type { Path } from '../problems.js';
import type { ShapeReader } from './reader.js';

/** Identity taken from a source file name; undefined when decoding a built release (id/version then required). */
export type Identity = { readonly id: string; readonly version: string } | undefined;

export const HOST_ASSET_KINDS = Object.values(HostAssetKind);

/** `{ id, version }`. */
export function readRef(r: ShapeReader, value: unknown, path: Path): Ref {
  const o = r.object(value, path, ['id', 'version']);
  return { id: r.string(o.id, [...path, 'id']), version: r.string(o.version, [...path, 'version']) };
}

/** `{ kind, id, version }` with a host asset kind. */
export function readHostAssetRef(r: ShapeReader, value: unknown, path: Path): Ref & { kind: HostAssetKind } {
  const o = r.object(value, path, ['kind', 'id', 'version']);
  return {
    kind: r.oneOf(o.kind, [...path, 'kind'], HOST_ASSET_KINDS, 'host asset kind'),
    id: r.string(o.id, [...path, 'id']),
    version: r.string(o.version, [...path, 'version']),
  };
}

/** The keys `id`/`version`: required in a built release, optional (and equal to the file name) in a source file. */
export function identityKeys(identity: Identity): { required: string[]; optional: string[] } {
  return identity === undefined
    ? { required: ['id', 'version'], optional: [] }
    : { required: [], optional: ['id', 'version'] };
}

/** Reads id/version, checking a source file does not contradict its file name. */
export function readIdentity(r: ShapeReader, o: JsonObject, identity: Identity): { id: string; version: string } {
  if (identity === undefined) return { id: r.string(o.id, ['id']), version: r.string(o.version, ['version']) };
  for (const key of ['id', 'version'] as const) {
    const value = o[key];
    if (value !== undefined && value !== identity[key]) {
      r.report(
        [key],
        ProblemCode.IdMismatch,
        `${key} ${quoted(value)} differs from the file name (${quoted(identity[key])})`,
      );
    }
  }
  return identity;
}

/** Optional list: absent means empty in a source file, but the key is required in a built release. */
export function listKey(identity: Identity): 'required' | 'optional' {
  return identity === undefined ? 'required' : 'optional';
}
