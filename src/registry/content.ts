/** The entries of a release before its manifest is computed: what authoring validation checks. */
import type { AssetEntry, SchemaEntry, ValidatorDefinition, WorkflowDefinition } from './model/release.js';

export interface ReleaseContent {
  readonly registry_id: string;
  readonly release: string;
  readonly workflows: readonly WorkflowDefinition[];
  readonly assets: readonly AssetEntry[];
  readonly validators: readonly ValidatorDefinition[];
  readonly schemas: readonly SchemaEntry[];
}

/** Entry key of the registry header (registry_id, release). */
export const REGISTRY_ENTRY = 'registry';
