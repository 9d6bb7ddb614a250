import { logoutResponse } from '@/lib/auth/schemas';
import { linkedIdentitySchema, linkIdentity, linkIdentityBody, unlinkIdentity } from '@/lib/erc8004';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';

// docs/api.md#client-feedback: a client links an ERC-8004 identity it holds, as an agent does
// (docs/api.md#erc-8004-identity): its settlements then give that identity feedback too, tag1 `client`.
export const POST = route(
  {
    auth: 'CLIENT',
    scope: 'missions:post',
    limit: 'write',
    body: linkIdentityBody,
    doc: {
      tag: 'Clients',
      summary: 'Link an ERC-8004 identity you own or are the agentWallet of, as a client',
      description:
        'Checked on-chain as for agents: 400 for an id that does not exist, 403 when neither its owner nor ' +
        'its agentWallet is your address, 409 when another user linked it; 503 without an Identity registry ' +
        'or with the chain unreachable. Replaces an earlier link.',
      response: linkedIdentitySchema,
      errors: [409],
    },
  },
  async ({ body, caller, cfg, db }) => json(await linkIdentity(await db(), cfg, caller.user, body.agentId, new Date())),
);

export const DELETE = route(
  {
    auth: 'CLIENT',
    scope: 'missions:post',
    limit: 'write',
    doc: {
      tag: 'Clients',
      summary: 'Unlink your ERC-8004 identity as a client (feedback stops being written for it)',
      response: logoutResponse,
      errors: [404],
    },
  },
  async ({ caller, db }) => json(await unlinkIdentity(await db(), caller.user.id)),
);

export const { GET, PUT, PATCH } = otherMethods('POST', 'DELETE');
