import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRunStore, PostgresRunStore, SqliteRunStore } from '../../../src/runs/store/index.js';
import { rimthanCode } from './store-fixtures.js';

test('openRunStore picks SQLite for sqlite:PATH and bare paths, PostgreSQL for postgres URLs', () => {
  assert.ok(openRunStore('sqlite:/tmp/runs.db') instanceof SqliteRunStore);
  assert.ok(openRunStore('./runs.db') instanceof SqliteRunStore);
  assert.ok(openRunStore('postgres://postgres@127.0.0.1:5432/test') instanceof PostgresRunStore);
  assert.ok(openRunStore('postgresql://postgres@127.0.0.1/test') instanceof PostgresRunStore);
});

test('openRunStore refuses empty settings and unknown URL schemes instead of creating a file', () => {
  for (const spec of ['', '  ', 'sqlite:', 'mysql://root@localhost/db', 'http://example.com/runs']) {
    assert.throws(() => openRunStore(spec), rimthanCode('invalid_arguments'), spec);
  }
});

test('a PostgreSQL store refuses a schema name that is not a plain lowercase identifier', () => {
  for (const schema of ['Public', 'a;drop', 'x"y', '', 'a'.repeat(49)]) {
    assert.throws(
      () => new PostgresRunStore({ connectionString: 'postgres://x@127.0.0.1/db', schema }),
      rimthanCode('invalid_arguments'),
    );
  }
});
