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
  Review,
  ReviewInput,
  ReviewPatch,
  SubmitInput,
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
    approve: (id: string) => post(id, 'approve'),
    cancel: (id: string) => post(id, 'cancel'),
    reopen: (id: string) => post(id, 'reopen'),
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
    review: (id: string, input: ReviewInput) =>
      api.json<Review>({ auth: 'required', method: 'POST', path: path(id, 'review'), body: input }),
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
  };
}

export type MissionsResource = ReturnType<typeof missionsResource>;
