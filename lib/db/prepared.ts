// Hot reads are built once — per database handle and per query shape — and then only executed
// with values: drizzle's query building costs more than the query on these paths.
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
