// docs/api.md#scopes is the routes' own rule: the table there is what `npm run docs:scopes` prints.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SCOPE_TABLE_BEGIN, SCOPE_TABLE_END, scopeTable } from '../../scripts/scope-table';

test('behavior: docs/api.md#scopes lists every authenticated operation under the scope its route requires', () => {
  const doc = readFileSync('docs/api.md', 'utf8');
  const start = doc.indexOf(SCOPE_TABLE_BEGIN);
  expect(start, `docs/api.md needs the table between ${SCOPE_TABLE_BEGIN} and ${SCOPE_TABLE_END}`).toBeGreaterThan(-1);
  const written = doc.slice(start + SCOPE_TABLE_BEGIN.length, doc.indexOf(SCOPE_TABLE_END)).trim();
  expect(written, 'run `npm run docs:scopes` and put its table in docs/api.md#scopes').toBe(scopeTable());
});
