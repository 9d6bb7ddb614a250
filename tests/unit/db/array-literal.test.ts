import { describe, expect, test } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { arrayLiteral } from '@/lib/db/array-literal';

describe('arrayLiteral', () => {
  test('behavior: PostgreSQL reads back exactly the strings given, quotes and backslashes included', async () => {
    const db = await PGlite.create();
    try {
      for (const values of [[], ['OPEN'], ['a', 'b c', 'd,e', 'f"g', 'h\\i', '{j}', 'NULL', ''], ['é', '日本']]) {
        const { rows } = await db.query<{ a: string[] }>('select $1::text[] as a', [arrayLiteral(values)]);
        expect(rows[0]!.a).toEqual(values);
      }
    } finally {
      await db.close();
    }
  });
});
