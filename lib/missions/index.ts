// Missions (docs/api.md#missions): the public face the routes, the sweep and later the pages use.
export { createMission } from './create-mission';
export {
  bumpMission,
  cancelMission,
  contestMission,
  precheck,
  resolveMission,
  simpleAction,
  submitMission,
} from './actions';
export { getMissionOrThrow } from './views';
export { getMissionFileOrThrow } from './download';
export { listMissions } from './list';
export { applyDueTransitions } from './due-transitions';
export { markReclaimed, reactToSettlement, cancelReclaimedMissions } from './reclaimed';
export { viewerOf } from './viewer';
export * from './schemas';
export * from './funding-schemas';
export { fundMission, getFunding } from './funding-relay';
export { sweepFundings } from './funding-sweep';
