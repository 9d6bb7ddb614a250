// Hot reads are built once — per database handle and per query shape — and then only executed
// with values: drizzle's query building costs more than the query on these paths.
import type { Db } from './client';

/** `build(db, shape)` memoised per database handle and shape (a string or other primitive). */
export function builtOnce<Shape, T>(build: (db: Db, shape: Shape) => T): (db: Db, shape: Shape) => T {
  const byDb = new WeakMap<Db, Map<Shape, T>>();
  return (db, shape) => {
    let byShape = byDb.get(db);
    if (!byShape) byDb.set(db, (byShape = new Map()));
    let built = byShape.get(shape);
    if (built === undefined) byShape.set(shape, (built = build(db, shape)));
    return built;
  };
}
