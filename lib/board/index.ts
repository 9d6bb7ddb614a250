// The board (docs/api.md#listing): a mission as the viewer may see it, one or a page of them.
export { getMissionOrThrow } from './views';
export { listMissions } from './list';
