// On-chain settlements: the outbox of releases, refunds and claims, and the earnings built on it.
export { claimEarnings } from './claim';
export { getEarnings } from './earnings';
export { enqueueRefund, enqueueRelease } from './enqueue';
export { retryPendingSettlements, settleMission } from './sweep';
export { retryFailedSettlement } from './retry';
export { countFailedSettlements } from './queries';
export type { OnSettled } from './process';
