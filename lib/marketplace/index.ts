// Marketplace (docs/api.md#missions, docs/api.md#applications): posting a mission and acting on it,
// applications and assignment, reviews, comments.
export { createMission } from './create-mission';
export {
  bumpMission,
  cancelMission,
  contestMission,
  precheck,
  resolveMission,
  simpleAction,
  submitMission,
} from './mission-actions';
export { applyToMission, assignMission, listApplications } from './applications';
export { listComments, postComment } from './comments';
export { editReview, readMissionReviews, reviewMission } from './reviews';
export * from './schemas';
export { declineMission, declineSchema } from './decline';
