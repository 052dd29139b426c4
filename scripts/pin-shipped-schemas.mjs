#!/usr/bin/env node
// Writes src/core/shipped-schemas.ts's digest list from the shipped schema documents (test/support/shipped-schemas.ts).
// Run after `npm run build` whenever a contract, a token body, the example flow or a packaged release changes; then
// build again. test/core/shipped-schemas.test.ts fails until the list matches.
import { readFileSync, writeFileSync } from 'node:fs';
import { shippedSchemaDigests } from '../dist/test/support/shipped-schemas.js';

const file = new URL('../src/core/shipped-schemas.ts', import.meta.url);
const text = readFileSync(file, 'utf8');
const list = shippedSchemaDigests()
  .map((digest) => `  '${digest}',\n`)
  .join('');
const updated = text.replace(
  /export const SHIPPED_SCHEMA_DIGESTS: ReadonlySet<string> = new Set\(\[[^\]]*\]\);/,
  `export const SHIPPED_SCHEMA_DIGESTS: ReadonlySet<string> = new Set([\n${list}]);`,
);
if (updated === text) {
  console.log('src/core/shipped-schemas.ts is up to date');
} else {
  writeFileSync(file, updated);
  console.log('wrote src/core/shipped-schemas.ts; run npm run build again');
}
