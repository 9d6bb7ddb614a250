import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';
import { sendQueuedWebhooks } from '@/lib/webhooks';
import {
  confirmationIdParams,
  confirmationSchema,
  decideConfirmation,
  decisionSchema,
  getConfirmation,
} from '@/lib/confirmations';

// One confirmation (docs/api.md#confirmations): read by the person or by the token that asked.
export const GET = route(
  {
    auth: 'user',
    scope: 'any',
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
    after: sendQueuedWebhooks,
    auth: 'user',
    limit: 'write',
    body: decisionSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Confirmations',
      summary: 'Approve or deny: approved, the release is applied as if made now, once',
      description:
        'Wallet sign-in only. An approval runs the action with its usual checks: a mission that ' +
        "changed meanwhile answers that action's error (409) and the confirmation keeps waiting. " +
        'Decided or expired: 409.',
      response: confirmationSchema,
      errors: [400, 404, 409],
    },
  },
  async ({ params, body, caller, cfg, db }) =>
    json(await decideConfirmation(await db(), cfg, caller, confirmationIdParams(params), body.decision, new Date())),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
