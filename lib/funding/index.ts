// Funding (docs/api.md#escrow): the relayed funding of a posted mission, its sweep, and reclaimed escrow.
export * from './schemas';
export { fundMission, getFunding } from './relay';
export { sweepFundings } from './sweep';
export { markReclaimed, reactToSettlement, cancelReclaimedMissions } from './reclaimed';
