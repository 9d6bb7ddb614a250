// Spans for SQL statements, named by what they do and to which table ("SELECT missions"), never
// by their values; and the count of statements cut off by an unreachable or overloaded database.
import { unavailableDependency } from '../errors';
import { countDependencyError } from './metrics';
import { SpanKind, inSpan } from './tracing';

const names = new Map<string, string>();
const MAX_NAMES = 1_000;

/** `SELECT missions`, `INSERT settlements`, `BEGIN`: the statement's verb and first table. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    const verb = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
    // The table, without its schema: `from "drizzle"."__drizzle_migrations"` is __drizzle_migrations.
    const table = /\b(?:from|into|update|join)\s+(?:"?[A-Za-z_]\w*"?\.)?"?([A-Za-z_]\w*)"?/i.exec(text)?.[1];
    name = table ? `${verb} ${table}` : verb;
    // Our statements are a bounded set of shapes; the cap only guards against one that is not.
    if (names.size < MAX_NAMES) names.set(text, name);
  }
  return name;
}

/** Runs one statement in its span, counting a failure that says the database is unreachable. */
export function observeStatement<T>(text: string, run: () => Promise<T>): Promise<T> {
  return inSpan(
    statementName(text),
    {
      kind: SpanKind.CLIENT,
      leaf: true,
      attributes: { 'db.system.name': 'postgresql', 'db.query.summary': statementName(text) },
    },
    async () => {
      try {
        return await run();
      } catch (error) {
        if (unavailableDependency(error) === 'database') countDependencyError('database');
        throw error;
      }
    },
  );
}

/**
 * postgres.js queries are lazy: they run when awaited. The statement is observed from then, so its
 * span has the awaiting code's span as parent and lasts as long as the round trip.
 */
export function observedQuery<Q extends PromiseLike<unknown>>(text: string, query: Q): Q {
  const then = query.then;
  // biome-ignore lint/suspicious/noThenProperty: the query is awaited through this then, by design
  (query as { then: unknown }).then = (
    onFulfilled?: (value: unknown) => unknown,
    onRejected?: (reason: unknown) => unknown,
  ) =>
    observeStatement(text, () => Promise.resolve(then.call(query) as PromiseLike<unknown>)).then(
      onFulfilled,
      onRejected,
    );
  return query;
}
