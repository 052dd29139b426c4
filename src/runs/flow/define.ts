import type { JsonObject } from '../../core/json.js';
import type { FlowSpec } from './types.js';

/**
 * Declares a flow with its input type `I` and state type `S` inferred for the vertices. Nothing is checked here: a
 * flow is checked and compiled once by `FlowCatalog.register`, which is where a bad definition fails.
 */
export function defineFlow<I extends JsonObject, S extends JsonObject = I>(spec: FlowSpec<I, S>): FlowSpec<I, S> {
  return spec;
}
