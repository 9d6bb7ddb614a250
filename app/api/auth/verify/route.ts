import { verifyRequest, verifyResponse } from '@/lib/auth/schemas';
import { sealSessionCookie } from '@/lib/auth/session-cookie';
import { verifySignIn } from '@/lib/auth/sign-in';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

export const POST = route(
  {
    limit: 'verify',
    body: verifyRequest,
    session: true,
    doc: {
      tag: 'Auth',
      summary: 'Sign in: verify a signed SIWE message → token + session cookie',
      description: 'Each SIWE failure has its own `error` text (nonce, signature, chain id, domain, expiry).',
      response: verifyResponse,
      errors: [401],
    },
  },
  async ({ body, kv, cfg, db, charge }) => {
    const { token, user } = await verifySignIn({ cfg, kv, db, charge }, body);
    return json({ token, user }, { headers: { 'Set-Cookie': sealSessionCookie(cfg, token) } });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
