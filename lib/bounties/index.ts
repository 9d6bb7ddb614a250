// Bounties (docs/api.md#bounties): the public face the routes use.
export { enterBounty, listEntries, precheckEntry } from './entries';
export { awardBounty } from './judging';
export * from './schemas';
