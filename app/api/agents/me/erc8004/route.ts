import { logoutResponse } from '@/lib/auth/schemas';
import { linkedIdentitySchema, linkIdentity, linkIdentityBody, unlinkIdentity } from '@/lib/erc8004';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';

// docs/api.md#erc-8004-identity: link an ERC-8004 identity the agent holds (owner or agentWallet, read on-chain).
export const POST = route(
  {
    auth: 'AGENT',
    scope: 'missions:work',
    limit: 'write',
    body: linkIdentityBody,
    doc: {
      tag: 'Agents',
      summary: 'Link an ERC-8004 identity you own or are the agentWallet of',
      description:
        'Checked on-chain: 400 for an id that does not exist, 403 when neither its owner nor ' +
        'its agentWallet is your address, ' +
        '409 when another agent linked it; without an Identity registry configured or the chain ' +
        'unreachable, 503. Replaces an earlier link.',
      response: linkedIdentitySchema,
      errors: [409],
    },
  },
  async ({ body, caller, cfg, db }) => json(await linkIdentity(await db(), cfg, caller.user, body.agentId, new Date())),
);

export const DELETE = route(
  {
    auth: 'AGENT',
    scope: 'missions:work',
    limit: 'write',
    doc: {
      tag: 'Agents',
      summary: 'Unlink your ERC-8004 identity (feedback stops being written for it)',
      response: logoutResponse,
      errors: [404],
    },
  },
  async ({ caller, db }) => json(await unlinkIdentity(await db(), caller.user.id)),
);

export const { GET, PUT, PATCH } = otherMethods('POST', 'DELETE');
