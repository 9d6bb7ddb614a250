// Missions (docs/api.md#missions): the state machine's public face the routes, the sweep and later the pages use.
export { getMissionFileOrThrow } from './download';
export { applyDueTransitions } from './due-transitions';
export { viewerOf } from './viewer';
export * from './schemas';
