/** Catalogue-wide rules: release header, identifiers and versions, unique entries, workflow alias collisions. */
import { REGISTRY_ENTRY } from '../content.js';
import { AssetKind } from '../model/release.js';
import { isKebabId, isReleaseName, isVersion } from '../model/naming.js';
import { ProblemCode, entryKey, quoted } from '../problems.js';
import type { Checker } from './context.js';

/** registry_id and release name (skipped when the header itself did not load). */
export function checkHeader(c: Checker, headerLoaded: boolean): void {
  if (!headerLoaded) return;
  if (!isKebabId(c.content.registry_id)) {
    c.report(
      REGISTRY_ENTRY,
      ['registry_id'],
      ProblemCode.InvalidId,
      'registry_id must be a kebab-case identifier of at most 64 characters',
    );
  }
  if (!isReleaseName(c.content.release)) {
    c.report(
      REGISTRY_ENTRY,
      ['release'],
      ProblemCode.InvalidReleaseName,
      'release must match ^[a-z0-9][a-z0-9.-]{0,127}$ (e.g. research-2026.11.1)',
    );
  }
}

/** Ids, versions and uniqueness of every entry. */
export function checkEntries(c: Checker): void {
  const seen = new Set<string>();
  const entries = [
    ...c.content.workflows.map((e) => entryKey('workflow', e.id, e.version)),
    ...c.content.validators.map((e) => entryKey('validator', e.id, e.version)),
    ...c.content.schemas.map((e) => entryKey('schema', e.id, e.version)),
    ...c.content.assets.map((e) => entryKey('asset', e.id, e.version, e.kind)),
  ];
  const all = [...c.content.workflows, ...c.content.validators, ...c.content.schemas, ...c.content.assets];
  all.forEach((entry, i) => {
    const key = entries[i] as string;
    if (!isKebabId(entry.id))
      c.report(key, ['id'], ProblemCode.InvalidId, `id ${quoted(entry.id)} must be kebab-case, at most 64 characters`);
    if (!isVersion(entry.version))
      c.report(
        key,
        ['version'],
        ProblemCode.InvalidVersion,
        `version ${quoted(entry.version)} must be MAJOR.MINOR.PATCH`,
      );
    if (seen.has(key)) c.report(key, ['id'], ProblemCode.DuplicateEntry, `${key} appears more than once`);
    seen.add(key);
  });
}

/** An alias may not equal another workflow's id or alias (versions of one workflow share their aliases). */
export function checkAliases(c: Checker): void {
  const owners = new Map<string, Set<string>>();
  const claim = (name: string, owner: string): void => {
    const set = owners.get(name) ?? new Set<string>();
    set.add(owner);
    owners.set(name, set);
  };
  for (const w of c.content.workflows) {
    claim(w.id, w.id);
    for (const alias of w.entry_aliases) claim(alias, w.id);
  }
  for (const w of c.content.workflows) {
    const key = entryKey('workflow', w.id, w.version);
    const own = new Set<string>();
    w.entry_aliases.forEach((alias, i) => {
      const path = ['entry_aliases', i];
      if (!isKebabId(alias))
        c.report(key, path, ProblemCode.InvalidId, `alias ${quoted(alias)} must be kebab-case, at most 64 characters`);
      if (own.has(alias)) c.report(key, path, ProblemCode.DuplicateEntry, `alias ${quoted(alias)} is listed twice`);
      own.add(alias);
      const others = [...(owners.get(alias) ?? [])].filter((o) => o !== w.id);
      if (others.length > 0) {
        c.report(
          key,
          path,
          ProblemCode.AliasCollision,
          `alias ${quoted(alias)} is also the id or an alias of workflow ${quoted(others.sort()[0])}`,
        );
      }
    });
  }
}

/** Skill-style limits on every asset and the non-empty body rule. */
export function checkAssets(c: Checker): void {
  for (const a of c.content.assets) {
    const key = entryKey('asset', a.id, a.version, a.kind);
    if ([...a.description].length > 1024)
      c.report(key, ['description'], ProblemCode.DescriptionTooLong, 'description is longer than 1024 characters');
    if (a.content.trim() === '') c.report(key, ['content'], ProblemCode.InvalidValue, 'the asset body is empty');
    if (a.kind === AssetKind.Subagent && a.tools !== undefined) {
      const dup = a.tools.find((t, i) => a.tools?.indexOf(t) !== i);
      if (dup !== undefined) c.report(key, ['tools'], ProblemCode.InvalidValue, `tool ${quoted(dup)} is listed twice`);
    }
  }
}

/** Validator definitions: the brief resolves, input artifact ids are kebab-case and unique. */
export function checkValidators(c: Checker): void {
  for (const v of c.content.validators) {
    const key = entryKey('validator', v.id, v.version);
    c.needAsset(key, ['brief'], AssetKind.ValidatorBrief, v.brief);
    v.input_artifacts.forEach((id, i) => {
      if (!isKebabId(id))
        c.report(key, ['input_artifacts', i], ProblemCode.InvalidId, `artifact id ${quoted(id)} must be kebab-case`);
      if (v.input_artifacts.indexOf(id) !== i)
        c.report(key, ['input_artifacts', i], ProblemCode.DuplicateEntry, `artifact ${quoted(id)} is listed twice`);
    });
    const dupCap = v.required_capabilities.find((cap, i) => v.required_capabilities.indexOf(cap) !== i);
    if (dupCap !== undefined)
      c.report(
        key,
        ['required_capabilities'],
        ProblemCode.InvalidValue,
        `capability ${quoted(dupCap)} is listed twice`,
      );
  }
}
