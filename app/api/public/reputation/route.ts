import { reputationPolicy, reputationPolicySchema } from '@/lib/erc8004/reputation-policy';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';

// docs/api.md#client-feedback: served as /.well-known/taskmarket-reputation.json too (next.config.ts).
export const GET = route(
  {
    cors: true,
    doc: {
      tag: 'Public',
      summary: "Whose ERC-8004 feedback is ours: the operator's address, the tags and the outcomes' values",
      response: reputationPolicySchema,
    },
  },
  async ({ cfg }) => json(reputationPolicy(cfg), { headers: { 'Cache-Control': 'public, max-age=300' } }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
