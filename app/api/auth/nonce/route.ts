import { issueNonce } from '@/lib/auth/nonces';
import { nonceRequest, nonceResponse } from '@/lib/auth/schemas';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

export const POST = route(
  {
    limit: 'nonce',
    body: nonceRequest,
    doc: { tag: 'Auth', summary: 'A one-time SIWE nonce for an address (5 min)', response: nonceResponse },
  },
  async ({ body, kv, cfg, charge }) => {
    const nonce = await issueNonce(kv, cfg, body.address, charge);
    return json({ nonce });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
