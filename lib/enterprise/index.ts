// Enterprise (docs/api.md#account): a client's analytics over a date range.
export { clientAnalytics } from './analytics';
export { resolveRange } from './range';
export * from './schemas';
