/** `counter_flow` v1: the smallest useful flow (the one the run-tools spec uses in its examples). */
import { defineFlow } from '../flow/define.js';

export type CounterInput = { count: number };
export type CounterState = { count: number; done: boolean };

/** Adds one to `count` twice, then marks the run done: three vertices, three checkpoints after the seed. */
export const counterFlow = defineFlow<CounterInput, CounterState>({
  name: 'counter_flow',
  version: 'v1',
  description: 'Counts: adds one to count twice, then finishes.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    additionalProperties: false,
    required: ['count'],
    properties: { count: { type: 'integer', minimum: -1_000_000_000, maximum: 1_000_000_000 } },
  },
  initialState: (input) => ({ count: input.count, done: false }),
  graph: {
    start: 'increment',
    vertices: {
      increment: {
        label: 'Increment',
        run: ({ state }) => ({ count: state.count + 1 }),
        next: 'increment_again',
      },
      increment_again: {
        label: 'Increment again',
        run: ({ state }) => ({ count: state.count + 1 }),
        next: 'finish',
      },
      finish: {
        label: 'Finish',
        run: () => ({ done: true }),
      },
    },
  },
});
