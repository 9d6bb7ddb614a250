import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';
import {
  confirmationIdParams,
  confirmationSchema,
  decideConfirmation,
  decisionSchema,
  getConfirmation,
} from '@/lib/confirmations';

// One confirmation (docs/api.md#confirmations): read by the person or by the token that asked — an
// /api/mcp token too, so a chat client can follow the confirmation its approve_mission was answered.
export const GET = route(
  {
    auth: 'user',
    scope: 'any',
    alsoFor: 'mcp',
    params: { id: idSchema },
    doc: {
      tag: 'Confirmations',
      summary: 'A confirmation: the person, or the delegated token that asked for it',
      response: confirmationSchema,
      errors: [404],
    },
  },
  async ({ params, caller, cfg, db }) =>
    json(await getConfirmation(await db(), cfg, caller, confirmationIdParams(params), new Date())),
);

// The person's decision: wallet sign-in only, so no token approves its own request.
export const POST = route(
  {
    auth: 'user',
    limit: 'write',
    body: decisionSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Confirmations',
      summary: 'Approve or deny: approved, the release is applied as if made now, once',
      description:
        'Wallet sign-in only. An approval runs the action with its usual checks, bound to the stored ' +
        'terms: when the assignment, agent, round, reward, escrow task amount or winners changed it is ' +
        '409 and the confirmation SUPERSEDED; a termsHash sent that is not the confirmation’s is 409. ' +
        'Decided, superseded or expired: 409.',
      response: confirmationSchema,
      errors: [400, 404, 409],
    },
  },
  async ({ params, body, caller, cfg, db }) =>
    json(await decideConfirmation(await db(), cfg, caller, confirmationIdParams(params), body, new Date())),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
