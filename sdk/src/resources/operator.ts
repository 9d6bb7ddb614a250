// The operator's endpoints (docs/api.md#operations, #settlements, #applications): authorized by ADMIN_TOKEN or
// CRON_SECRET instead of a wallet — resolve a dispute, read and write a mission's conversation, retry a
// settlement, run the sweep. For operations scripts, never for an agent's or a client's code.
import { segment, type Api } from '../api.js';
import { TaskmarketError } from '../errors.js';
import { PagedList } from '../pages.js';
import type {
  Comment,
  CommentInput,
  CommentList,
  Mission,
  PageQuery,
  ResolveInput,
  Settlement,
  SweepReport,
} from '../types.js';

export interface OperatorSecrets {
  adminToken?: string | undefined;
  cronSecret?: string | undefined;
}

export function operatorResource(api: Api, secrets: OperatorSecrets) {
  const secret = (name: keyof OperatorSecrets) => {
    const value = secrets[name];
    if (!value) throw new TaskmarketError({ status: 0, error: `This operator call needs createClient({ ${name} })` });
    return { secret: value };
  };
  const mission = (id: string, action: string) => `/api/admin/missions/${segment(id)}/${action}`;
  return {
    /** Settles a DISPUTED mission: COMPLETED (the agent is paid) or CANCELLED (refunded). */
    resolve: async (id: string, input: ResolveInput) =>
      api.json<Mission>({ auth: secret('adminToken'), method: 'POST', path: mission(id, 'resolve'), body: input }),
    comments(id: string, query: PageQuery = {}): PagedList<CommentList['items'][number], CommentList> {
      return new PagedList((cursor) =>
        api.json<CommentList>({
          auth: secret('adminToken'),
          method: 'GET',
          path: mission(id, 'comments'),
          query: { ...query, cursor: cursor ?? query.cursor },
        }),
      );
    },
    comment: async (id: string, input: CommentInput) =>
      api.json<Comment>({ auth: secret('adminToken'), method: 'POST', path: mission(id, 'comments'), body: input }),
    /** Sends a FAILED settlement again (reconciled from the chain first: never paid twice). */
    retrySettlement: async (id: string) =>
      api.json<Settlement>({
        auth: secret('adminToken'),
        method: 'POST',
        path: `/api/admin/settlements/${segment(id)}/retry`,
      }),
    /** Runs the sweep once (CRON_SECRET). */
    sweep: async () => api.json<SweepReport>({ auth: secret('cronSecret'), method: 'POST', path: '/api/cron/sweep' }),
  };
}
