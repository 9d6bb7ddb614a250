// Confirmations (docs/api.md#confirmations): the public face the routes, the pages and the MCP endpoint use.
export { release, type ReleaseAnswer } from './release';
export { approveOnChecks } from './approve-on-checks';
export { answerSettlementOffer, offerSettlement } from './settlement-offers';
export { decideConfirmation } from './decide';
export { getConfirmation, listPending } from './views';
export { setReleaseLimit } from '../oauth/grant-releases';
export { releasedSince } from './release-gate';
export * from './schemas';
export { deleteOldConfirmations } from './retention';
