/**
 * registry/model: the release model (the shapes of a verified release and its entries) and the naming rules for ids,
 * versions and release names. Pure data and functions: other rooms (guided, mcp) depend on the model without loading
 * the authoring, verification or store code of the registry.
 */
export * from './release.js';
export * from './naming.js';
