/** Shared state of one validation pass: the problem sink, the locator and lookups by entry identity. */
import type { ReleaseContent } from '../content.js';
import type { AssetEntry, AssetKind, Ref, SchemaEntry, ValidatorDefinition } from '../model/release.js';
import { ProblemCode, entryKey, quoted } from '../problems.js';
import type { Locator, Path, Problem } from '../problems.js';

/** One validation pass over release content: lookups by identity plus the problem sink. */
export class Checker {
  readonly problems: Problem[] = [];
  readonly #locate: Locator;
  readonly #unloaded: ReadonlySet<string>;
  readonly #assets = new Map<string, AssetEntry>();
  readonly #schemas = new Map<string, SchemaEntry>();
  readonly #validators = new Map<string, ValidatorDefinition>();

  constructor(
    readonly content: ReleaseContent,
    locate: Locator,
    unloaded: ReadonlySet<string>,
  ) {
    this.#locate = locate;
    this.#unloaded = unloaded;
    for (const a of content.assets) this.#assets.set(entryKey('asset', a.id, a.version, a.kind), a);
    for (const s of content.schemas) this.#schemas.set(entryKey('schema', s.id, s.version), s);
    for (const v of content.validators) this.#validators.set(entryKey('validator', v.id, v.version), v);
  }

  report(entry: string, path: Path, code: ProblemCode, message: string): void {
    this.problems.push({ ...this.#locate({ entry, path }), code, message });
  }

  asset(kind: AssetKind, ref: Ref): AssetEntry | undefined {
    return this.#assets.get(entryKey('asset', ref.id, ref.version, kind));
  }

  schema(ref: Ref): SchemaEntry | undefined {
    return this.#schemas.get(entryKey('schema', ref.id, ref.version));
  }

  validator(ref: Ref): ValidatorDefinition | undefined {
    return this.#validators.get(entryKey('validator', ref.id, ref.version));
  }

  /**
   * Reports a reference that resolves to nothing. A target whose file exists but failed to load was already reported,
   * so it is not reported twice.
   */
  unresolved(entry: string, path: Path, targetKey: string, what: string, ref: Ref): void {
    if (this.#unloaded.has(targetKey)) return;
    this.report(
      entry,
      path,
      ProblemCode.UnresolvedRef,
      `${what} ${quoted(`${ref.id}@${ref.version}`)} does not exist in this release`,
    );
  }

  /** Resolves an asset reference of a given kind, reporting it when missing. */
  needAsset(entry: string, path: Path, kind: AssetKind, ref: Ref): AssetEntry | undefined {
    const found = this.asset(kind, ref);
    if (found === undefined)
      this.unresolved(entry, path, entryKey('asset', ref.id, ref.version, kind), `${kind} asset`, ref);
    return found;
  }

  /** Resolves a schema reference, reporting it when missing. */
  needSchema(entry: string, path: Path, ref: Ref): SchemaEntry | undefined {
    const found = this.schema(ref);
    if (found === undefined) this.unresolved(entry, path, entryKey('schema', ref.id, ref.version), 'schema', ref);
    return found;
  }

  /** Resolves a validator reference, reporting it when missing. */
  needValidator(entry: string, path: Path, ref: Ref): ValidatorDefinition | undefined {
    const found = this.validator(ref);
    if (found === undefined) this.unresolved(entry, path, entryKey('validator', ref.id, ref.version), 'validator', ref);
    return found;
  }
}
