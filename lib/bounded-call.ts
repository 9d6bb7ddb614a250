// A synchronous call with a deadline, for work a stranger shapes: a JSON Schema's keywords run on a
// stranger's JSON (docs/api.md#checked-criteria, docs/api.md#offerings).
import { createContext, Script } from 'node:vm';

// A sync call with a deadline: node:vm's timeout terminates whatever the script runs, the realm's own code
// included, so a pattern that backtracks catastrophically (`^(a+)+$` on "aaa…!"), uniqueItems over a huge
// array or a pathological compile all stop at the budget. Ajv's documented `code.regExp` hook (a
// RegExpEngine) would bound the patterns alone; bounding the whole call covers every keyword at once.
const sandbox = createContext({ work: undefined as (() => unknown) | undefined });
const runWork = new Script('work()');

export class OutOfTime extends Error {}

export function bounded<T>(work: () => T, budgetMs: number): T {
  sandbox.work = work;
  try {
    return runWork.runInContext(sandbox, { timeout: Math.max(1, Math.ceil(budgetMs)) }) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new OutOfTime();
    throw error;
  } finally {
    sandbox.work = undefined;
  }
}
