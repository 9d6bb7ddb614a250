// Structured server log: one JSON line per event. Callers pass context, never secrets or tokens.
// A line written while a request is served names its id (docs/api.md#observability).
import { currentRequest } from './observability/request-context';

type Level = 'info' | 'warn' | 'error';

function write(level: Level, event: string, context: Record<string, unknown> = {}) {
  const requestId = currentRequest()?.requestId;
  const line = JSON.stringify(
    { level, event, time: new Date().toISOString(), ...(requestId && { requestId }), ...context },
    (_key, value) =>
      value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
  );
  (level === 'error' ? console.error : console.log)(line);
}

export const log = {
  info: (event: string, context?: Record<string, unknown>) => write('info', event, context),
  warn: (event: string, context?: Record<string, unknown>) => write('warn', event, context),
  error: (event: string, context?: Record<string, unknown>) => write('error', event, context),
};
