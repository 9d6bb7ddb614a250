import { json, route } from '@/lib/http/route';
import { fundingSchema, fundMission, fundMissionSchema, getFunding } from '@/lib/funding';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';
import type { Caller } from '@/lib/oauth/caller';

const posterOf = (caller: Caller) => ({ kind: 'user', id: caller.user.id, role: caller.user.role }) as const;

// docs/api.md#post-and-pay: the poster reads the one authorization that funds its unfunded mission…
export const GET = route(
  {
    auth: 'user',
    scope: 'missions:post',
    // docs/api.md#limits: each read may carry a relay on; bounded per user like a write.
    limit: 'fundingRead',
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'The funding of an AWAITING_FUNDING mission: typed data to sign, its status',
      response: fundingSchema,
      errors: [404, 409, 429],
    },
  },
  async ({ params, caller, cfg, kv, db }) => json(await getFunding(await db(), kv, cfg, params.id, posterOf(caller))),
);

// …and hands back its signature (relayed: 202) or a task it opened from its own wallet (200).
export const POST = route(
  {
    auth: 'user',
    scope: 'missions:post',
    limit: 'write',
    body: fundMissionSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Missions',
      summary: 'Fund an AWAITING_FUNDING mission: a signature to relay, or the id of a task already created',
      response: fundingSchema,
      status: 202,
      errors: [
        { status: 200, description: '`onChainTaskId` checked: the mission is OPEN now', schema: fundingSchema },
        404,
        409,
        429,
      ],
    },
  },
  async ({ params, body, caller, cfg, kv, db }) => {
    const answer = await fundMission(await db(), kv, cfg, params.id, posterOf(caller), body, new Date());
    return json(answer.body, { status: answer.status });
  },
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
