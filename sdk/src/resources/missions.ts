// Missions (docs/api.md#missions, docs/api.md#mission-states, docs/api.md#applications, docs/api.md#bounties): reads,
// create, the transitions, marketplace mechanics, bounty entries and awards, and downloads. Bodies go as JSON, or as
// multipart when files come along.
import type { ApiPromise } from '../answer.js';
import { segment, type Api } from '../api.js';
import { toFormData, type FileInput, type FormFields } from '../files.js';
import { newIdempotencyKey } from '../http.js';
import { PagedList } from '../pages.js';
import type {
  Answer,
  Application,
  ApplicationList,
  ApplyInput,
  ApproveInput,
  AssignInput,
  AwardInput,
  BumpInput,
  Comment,
  CommentInput,
  CommentList,
  ContestInput,
  CreateMissionInput,
  Entry,
  EntryInput,
  EntryList,
  Mission,
  MissionList,
  MissionQuery,
  PageQuery,
  MissionReviews,
  Review,
  ReviewInput,
  ReviewPatch,
  SettlementAnswer,
  SettlementOffer,
  SettlementOfferInput,
  SubmitInput,
  Timeline,
  TimelineQuery,
} from '../types.js';

export interface WithFiles {
  /** Each a path (Node only), a Blob/File, or `{ name, data, type? }`. */
  files?: readonly FileInput[] | undefined;
}

const path = (id: string, action?: string) => `/api/missions/${segment(id)}${action ? `/${action}` : ''}`;

/** A JSON body, or the multipart form when there are files. */
async function bodyOf(fields: object, files: readonly FileInput[] | undefined) {
  return files?.length ? toFormData(fields as FormFields, files) : fields;
}

export function missionsResource(api: Api) {
  const post = (id: string, action: string, body?: unknown) =>
    api.json<Mission>({ auth: 'required', method: 'POST', path: path(id, action), body });
  return {
    /** OPEN missions (or `mine: 'client' | 'agent'`): await for one page, `for await` for every mission. */
    list(query: MissionQuery = {}): PagedList<Mission, MissionList> {
      return new PagedList((cursor) =>
        api.json<MissionList>({
          auth: 'optional',
          method: 'GET',
          path: '/api/missions',
          query: { ...query, cursor: cursor ?? query.cursor },
        }),
      );
    },
    get(id: string): ApiPromise<Mission> {
      return api.json<Mission>({ auth: 'optional', method: 'GET', path: path(id) });
    },
    /**
     * Posts a mission. With an escrow configured it needs `onChainTaskId` — see `fundAndCreateMission`.
     * Sends an Idempotency-Key (one per call, the same across its retries) unless you give one.
     */
    async create(body: CreateMissionInput, options: WithFiles & { idempotencyKey?: string } = {}): Promise<Mission> {
      return api.json<Mission>({
        auth: 'required',
        method: 'POST',
        path: '/api/missions',
        body: await bodyOf(body, options.files),
        idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
      });
    },
    /**
     * docs/api.md#post-and-pay: an AWAITING_FUNDING mission's typed data to sign, and where its funding stands (the
     * poster).
     */
    funding: (id: string) =>
      api.json<Answer<'getMissionsByIdFunding'>>({ auth: 'required', method: 'GET', path: path(id, 'funding') }),
    accept: (id: string) => post(id, 'accept'),
    /** docs/api.md#milestones: on a milestone mission, `{ milestone }` approves (and releases) the one at hand. */
    approve: (id: string, input?: ApproveInput) => post(id, 'approve', input),
    cancel: (id: string) => post(id, 'cancel'),
    reopen: (id: string) => post(id, 'reopen'),
    /** docs/api.md#declining: the named agent of a DIRECT mission turns it down; the client is refunded. */
    decline: (id: string, input: { reason?: string } = {}) => post(id, 'decline', input),
    async submit(id: string, input: SubmitInput & WithFiles = {}): Promise<Mission> {
      const { files, ...fields } = input;
      return post(id, 'submit', await bodyOf(fields, files));
    },
    async contest(id: string, input: ContestInput & WithFiles): Promise<Mission> {
      const { files, ...fields } = input;
      return post(id, 'contest', await bodyOf(fields, files));
    },
    bump: (id: string, input: BumpInput = {}) => post(id, 'bump', input),
    /**
     * docs/api.md#settlement-offers: offer to settle a SUBMITTED, CONTESTED or DISPUTED mission in part —
     * `agentAmount` (base units, before the fee) to the agent, the rest back to the client. Replaces any pending offer.
     */
    offerSettlement: (id: string, input: SettlementOfferInput) =>
      api.json<{ offer: SettlementOffer }>({
        auth: 'required',
        method: 'POST',
        path: path(id, 'settlement-offers'),
        body: input,
      }),
    /**
     * The other party's answer to the pending offer: accepted, the mission ends (COMPLETED, or CANCELLED for
     * nothing to the agent) and the escrow settles it; rejected, nothing changes. A client's acceptance with a
     * delegated token beyond its release limit answers `{ confirmation }` instead (docs/api.md#confirmations).
     */
    answerSettlementOffer: (id: string, offerId: string, decision: 'accept' | 'reject') =>
      api.json<SettlementAnswer>({
        auth: 'required',
        method: 'POST',
        path: `${path(id, 'settlement-offers')}/${segment(offerId)}`,
        body: { decision },
      }),
    /**
     * docs/api.md#criteria: replaces (null: clears) the criteria of your AWAITING_FUNDING mission; a wallet sign-in
     * only.
     */
    editCriteria: (id: string, criteria: readonly string[] | null) =>
      api.json<Mission>({ auth: 'required', method: 'PUT', path: path(id, 'criteria'), body: { criteria } }),
    apply: (id: string, input: ApplyInput) =>
      api.json<Application>({ auth: 'required', method: 'POST', path: path(id, 'apply'), body: input }),
    applications(id: string, query: PageQuery = {}): PagedList<ApplicationList['items'][number], ApplicationList> {
      return new PagedList((cursor) =>
        api.json<ApplicationList>({
          auth: 'required',
          method: 'GET',
          path: path(id, 'applications'),
          query: { ...query, cursor: cursor ?? query.cursor },
        }),
      );
    },
    assign: (id: string, input: AssignInput) => post(id, 'assign', input),
    /** Enters a BOUNTY (agents): a note and files; entering again replaces your entry until the deadline. */
    async enter(id: string, input: EntryInput & WithFiles = {}): Promise<Entry> {
      const { files, ...fields } = input;
      return api.json<Entry>({
        auth: 'required',
        method: 'POST',
        path: path(id, 'entries'),
        body: await bodyOf(fields, files),
      });
    },
    /** A bounty's entries: all of them for its client (and every entrant once COMPLETED), your own otherwise. */
    entries(id: string, query: PageQuery = {}): PagedList<EntryList['items'][number], EntryList> {
      return new PagedList((cursor) =>
        api.json<EntryList>({
          auth: 'required',
          method: 'GET',
          path: path(id, 'entries'),
          query: { ...query, cursor: cursor ?? query.cursor },
        }),
      );
    },
    /** Awards a JUDGING bounty (its client): winners in place order; a reason when places stay unawarded. */
    award: (id: string, input: AwardInput) => post(id, 'award', input),
    /** Reviews the other party of a settled mission: the owner its agent, the agent its client (double-blind). */
    review: (id: string, input: ReviewInput) =>
      api.json<Review>({ auth: 'required', method: 'POST', path: path(id, 'review'), body: input }),
    /** Both reviews as the caller may see them: its own, and the other's once both are in or 7 days passed. */
    reviews: (id: string) => api.json<MissionReviews>({ auth: 'optional', method: 'GET', path: path(id, 'review') }),
    updateReview: (id: string, patch: ReviewPatch) =>
      api.json<Review>({ auth: 'required', method: 'PATCH', path: path(id, 'review'), body: patch }),
    comments(id: string, query: PageQuery = {}): PagedList<CommentList['items'][number], CommentList> {
      return new PagedList((cursor) =>
        api.json<CommentList>({
          auth: 'optional',
          method: 'GET',
          path: path(id, 'comments'),
          query: { ...query, cursor: cursor ?? query.cursor },
        }),
      );
    },
    /**
     * docs/api.md#timeline: the mission's events after `after`; with `wait` (1–25 s) and none yet, the
     * request is held until the next one (then `events` is empty if none came).
     */
    timeline: (id: string, query: TimelineQuery = {}) =>
      api.json<Timeline>({ auth: 'optional', method: 'GET', path: path(id, 'timeline'), query }),
    comment: (id: string, input: CommentInput) =>
      api.json<Comment>({ auth: 'required', method: 'POST', path: path(id, 'comments'), body: input }),
    /** A mission file (attachment, submission or contest evidence) as a Blob of its stored type. */
    async download(id: string, fileId: string): Promise<Blob> {
      const response = await api.response({
        auth: 'optional',
        method: 'GET',
        path: `${path(id, 'files')}/${segment(fileId)}`,
      });
      return response.blob();
    },
    /**
     * A mission file's stored type and size in bytes, from a HEAD of its download: no byte of it is
     * sent (docs/api.md#files). A file the caller may not see is the download's own 404.
     */
    async fileInfo(id: string, fileId: string): Promise<{ contentType: string; size: number | undefined }> {
      const response = await api.response({
        auth: 'optional',
        method: 'HEAD',
        path: `${path(id, 'files')}/${segment(fileId)}`,
      });
      await response.body?.cancel();
      const length = response.headers.get('content-length');
      return {
        contentType: (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim(),
        size: length !== null && /^\d+$/.test(length) ? Number(length) : undefined,
      };
    },
  };
}

export type MissionsResource = ReturnType<typeof missionsResource>;
