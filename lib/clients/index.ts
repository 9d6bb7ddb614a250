// Clients (docs/api.md#client-record): a client's public track record, and the compact figures the board
// carries for each mission's client.
export { withClientStats } from './board-stats';
export { clientRecordsOf, statsOf } from './figures';
export { getClientRecordOrThrow } from './record';
export * from './schemas';
