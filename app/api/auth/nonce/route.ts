import { issueNonce } from '@/lib/auth/nonces';
import { nonceRequest } from '@/lib/auth/schemas';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

export const POST = route({ limit: 'nonce', body: nonceRequest }, async ({ body, kv, cfg, charge }) => {
  const nonce = await issueNonce(kv, cfg, body.address, charge);
  return json({ nonce });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
