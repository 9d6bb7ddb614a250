// Recognises a unique-constraint violation (SQLSTATE 23505) from either driver, through Drizzle's
// wrapper, so a lost insert race can be answered as the conflict it is rather than a 500.

/** The violated constraint's name, or undefined when `error` is something else. */
export function uniqueViolation(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 4) return undefined;
  const e = error as { code?: unknown; constraint_name?: unknown; constraint?: unknown; cause?: unknown };
  if (e.code === '23505') return String(e.constraint_name ?? e.constraint ?? '');
  return uniqueViolation(e.cause, depth + 1);
}
