// Hot reads are built once — per database handle and per query shape — and then only executed
// with values: drizzle's query building costs more than the query on these paths. The busiest
// read's many rows skip drizzle's mapping too (driverRows).
import type { PgPreparedQuery, PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * `build(db, shape)` memoised per database handle and shape: a string or other primitive, or any
 * value with `key` naming it as one.
 */
export function builtOnce<Shape, T>(
  build: (db: Db, shape: Shape) => T,
  key: (shape: Shape) => unknown = (shape) => shape,
): (db: Db, shape: Shape) => T {
  const byDb = new WeakMap<Db, Map<unknown, T>>();
  return (db, shape) => {
    let byShape = byDb.get(db);
    if (!byShape) byDb.set(db, (byShape = new Map()));
    const name = key(shape);
    let built = byShape.get(name);
    if (built === undefined) byShape.set(name, (built = build(db, shape)));
    return built;
  };
}

// Both drivers' prepared queries (postgres-js, PGlite) have all(); drizzle's abstract type omits it.
type WithAll = { all(values: Record<string, unknown>): Promise<unknown> };

/**
 * A prepared read's rows as the driver decoded them, for a hot read of many rows whose every field
 * is named by its key (`.as()`, or a column of that name) and needs no decoding of drizzle's (text,
 * uuid, boolean): drizzle's mapping looks up every field's decoder on every row, ~90 µs of a board
 * page of 21 rows under npm run bench's profile.
 */
export function driverRows<T extends PreparedQueryConfig>(
  statement: PgPreparedQuery<T>,
  values: Record<string, unknown>,
): Promise<T['execute']> {
  return (statement as unknown as WithAll).all(values) as Promise<T['execute']>;
}
