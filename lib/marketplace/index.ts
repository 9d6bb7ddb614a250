// Marketplace v2 (docs/api.md#applications): applications and assignment, reviews, comments.
export { applyToMission, assignMission, listApplications } from './applications';
export { listComments, postComment } from './comments';
export { editReview, reviewMission } from './reviews';
export * from './schemas';
