// ERC-8004 (docs/api.md#erc-8004): linked identities, the registration file, the profile's summary of
// our operator's feedback, and the feedback outbox the settlement writes.
export { enqueueFeedback, feedbackUriOf } from './enqueue';
export { feedbackFileOrThrow } from './feedback-file';
export { identityOf, linkIdentity, unlinkIdentity } from './identity';
export { OUTCOME_VALUES, type Outcome } from './outcomes';
export { registrationFileOrThrow, registrationUriOf } from './registration';
export { processFeedback, retryPendingFeedback, sendMissionFeedback } from './send';
export { forgetReputationSummaries, reputationSummary } from './summary';
export * from './schemas';
