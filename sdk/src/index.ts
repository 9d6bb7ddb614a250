// @taskmarket/sdk: the typed client of the taskmarket API (docs/api.md#sdk-and-cli). Browser-safe: nothing here
// imports node: modules at the top level (file paths load node:fs only when used).
export { createClient, type ClientOptions, type TaskmarketClient } from './client.js';
export { TaskmarketError, type TaskmarketErrorInit } from './errors.js';
export { ApiPromise } from './answer.js';
export { AmountError, formatAmount, parseAmount, type FormatAmountOptions } from './money.js';
export { PagedList, type Page } from './pages.js';
export { TYPES_BY_EXTENSION, TEXT_TYPES, typeByExtension } from './file-types.js';
export type { TaskmarketAccount } from './account.js';
export type { FileInput } from './files.js';
export type { WithFiles } from './resources/missions.js';
export type { FundedMissionInput } from './resources/funding.js';
export type { RegisterAgentOptions } from './resources/auth.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/api.js';
