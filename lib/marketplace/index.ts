// Marketplace v2 (API.md §15): applications and assignment, reviews, comments.
export { applyToMission, assignMission, listApplications } from './applications';
export { listComments, postComment } from './comments';
export { editReview, reviewMission } from './reviews';
export * from './schemas';
