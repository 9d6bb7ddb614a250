// Enterprise (API.md §7): a client's analytics over a date range.
export { clientAnalytics } from './analytics';
export { resolveRange } from './range';
export * from './schemas';
