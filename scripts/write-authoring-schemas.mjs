#!/usr/bin/env node
// Writes schemas/authoring/*.schema.json, the JSON Schemas of every authoring file (registry.yaml, workflow and
// validator YAML, asset frontmatter, route scenarios), from the TypeScript modules that define them
// (src/registry/shape/authoring-schemas.ts, src/routes/scenario-json-schema.ts). Run after `npm run build` whenever a
// source format changes; test/routes/authoring-schemas.test.ts fails until the files match.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTHORING_SCHEMA_DIR, authoringSchemaTexts } from '../dist/src/routes/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, AUTHORING_SCHEMA_DIR);
mkdirSync(dir, { recursive: true });
const texts = authoringSchemaTexts();
let changed = 0;
for (const name of readdirSync(dir)) {
  if (name.endsWith('.schema.json') && !texts.has(name)) {
    rmSync(join(dir, name));
    console.log(`removed ${AUTHORING_SCHEMA_DIR}/${name}`);
    changed++;
  }
}
for (const [name, text] of texts) {
  const path = join(dir, name);
  let before;
  try {
    before = readFileSync(path, 'utf8');
  } catch {
    before = undefined;
  }
  if (before === text) continue;
  writeFileSync(path, text);
  console.log(`wrote ${AUTHORING_SCHEMA_DIR}/${name}`);
  changed++;
}
if (changed === 0) console.log(`${AUTHORING_SCHEMA_DIR}/ is up to date`);
