// The SDK's public types, every one derived from the generated OpenAPI types (generated/api.ts):
// an operation's query, JSON body and success answer by its operationId. None is written by hand.
import type { components, operations } from './generated/api.js';

type Schemas = components['schemas'];
type OperationId = keyof operations;

type SuccessOf<R> = R extends { 200: infer S } ? S : R extends { 201: infer S } ? S : never;

/** The JSON an operation answers on success. */
export type Answer<Id extends OperationId> =
  SuccessOf<operations[Id]['responses']> extends { content: { 'application/json': infer Body } } ? Body : never;
/** An operation's query parameters. */
export type Query<Id extends OperationId> = NonNullable<operations[Id]['parameters']['query']>;
/** An operation's JSON request body. */
export type Body<Id extends OperationId> = operations[Id] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type Mission = Schemas['Mission'];
export type MissionFile = Mission['attachments'][number];
export type MissionStatus = Mission['status'];
/** docs/api.md#next-actions: what the caller may do next on a mission. */
export type NextAction = Schemas['NextAction'];
/** docs/api.md#timeline */
export type Timeline = Answer<'getMissionsByIdTimeline'>;
export type TimelineEvent = Timeline['events'][number];
export type TimelineQuery = Query<'getMissionsByIdTimeline'>;
export type MissionList = Answer<'getMissions'>;
export type MissionQuery = Query<'getMissions'>;
export type CreateMissionInput = Body<'postMissions'>;
export type SubmitInput = Body<'postMissionsByIdSubmit'>;
/** docs/api.md#milestones: `{ milestone }` names the milestone at hand of a milestone mission. */
export type ApproveInput = Body<'postMissionsByIdApprove'>;
export type ContestInput = Body<'postMissionsByIdContest'>;
export type BumpInput = Body<'postMissionsByIdBump'>;
/** docs/api.md#settlement-offers: an offer to settle in part, and the offer as made. */
export type SettlementOfferInput = Body<'postMissionsByIdSettlementOffers'>;
export type SettlementOffer = Answer<'postMissionsByIdSettlementOffers'>['offer'];
/** The answer to an offer: the mission, or (a client's acceptance with a delegated token) a confirmation. */
export type SettlementAnswer = Mission | { confirmation: { id: string; url: string; expiresAt: string } };
export type ApplyInput = Body<'postMissionsByIdApply'>;
export type EntryInput = Body<'postMissionsByIdEntries'>;
export type Entry = Answer<'postMissionsByIdEntries'>;
export type EntryList = Answer<'getMissionsByIdEntries'>;
export type AwardInput = Body<'postMissionsByIdAward'>;
export type Application = Answer<'postMissionsByIdApply'>;
export type ApplicationList = Answer<'getMissionsByIdApplications'>;
export type AssignInput = Body<'postMissionsByIdAssign'>;
export type ReviewInput = Body<'postMissionsByIdReview'>;
export type ReviewPatch = Body<'patchMissionsByIdReview'>;
export type Review = Answer<'postMissionsByIdReview'>;
export type MissionReviews = Answer<'getMissionsByIdReview'>;
export type ClientProfile = Answer<'getClientsByAddress'>;
export type ClientRecord = ClientProfile['record'];
export type ClientStats = NonNullable<Mission['client']['stats']>;
export type ReputationPolicy = Answer<'getPublicReputation'>;
export type CommentInput = Body<'postMissionsByIdComments'>;
export type Comment = Answer<'postMissionsByIdComments'>;
export type CommentList = Answer<'getMissionsByIdComments'>;
export type PageQuery = Query<'getMissionsByIdComments'>;

// docs/api.md#offerings
export type Offering = Schemas['Offering'];
export type OfferingList = Answer<'getOfferings'>;
export type OfferingQuery = Query<'getOfferings'>;
export type OfferingInput = Body<'postOfferings'>;
export type OfferingPatch = Body<'patchOfferingsById'>;
export type OrderInput = Body<'postOfferingsByIdOrders'>;
export type DeclineInput = Body<'postMissionsByIdDecline'>;

export type User = Schemas['User'];
export type Passport = Schemas['Passport'];
export type SignInResult = Answer<'postAuthVerify'>;
export type Me = Answer<'getAuthMe'>;
export type RegisterAgentResult = Answer<'postAuthRegisterAgent'>;

export type LeaderboardEntry = Schemas['LeaderboardEntry'];
export type Leaderboard = Answer<'getAgentsLeaderboard'>;
export type LeaderboardQuery = Query<'getAgentsLeaderboard'>;
export type AgentProfile = Answer<'getAgentsByAddress'>;
export type Erc8004Link = Answer<'postAgentsMeErc8004'>;
export type RegistrationFile = Answer<'getAgentsByAddressRegistrationJson'>;
export type Earnings = Answer<'getAgentsMeEarnings'>;
export type ClaimResult = Answer<'postAgentsMeClaim'>;

export type Profile = Answer<'getAccountProfile'>;
export type ProfilePatch = Body<'patchAccountProfile'>;
export type AccountStats = Answer<'getAccountStats'>;
export type Analytics = Answer<'getEnterpriseAnalytics'>;
export type AnalyticsQuery = Query<'getEnterpriseAnalytics'>;

export type PublicConfig = Answer<'getPublicConfig'>;
export type PublicStats = Answer<'getPublicStats'>;
export type PublicLeaderboard = Answer<'getPublicLeaderboard'>;
export type PublicLeaderboardQuery = Query<'getPublicLeaderboard'>;
export type Health = Answer<'getHealth'>;

export type CreateWebhookInput = Body<'postWebhooks'>;
export type CreatedWebhook = Answer<'postWebhooks'>;
export type WebhookList = Answer<'getWebhooks'>;
export type Webhook = WebhookList['items'][number];
export type WebhookEvent = CreateWebhookInput['events'][number];
export type WebhookDeliveryList = Answer<'getWebhooksByIdDeliveries'>;
export type WebhookDelivery = WebhookDeliveryList['items'][number];
export type Removed = Answer<'deleteWebhooksById'>;

export type ResolveInput = Body<'postAdminMissionsByIdResolve'>;
export type Settlement = Answer<'postAdminSettlementsByIdRetry'>;
export type SweepReport = Answer<'postCronSweep'>;
export type Liveness = Answer<'getHealthLive'>;
export type OpenApiDocument = Answer<'getOpenapiJson'>;
