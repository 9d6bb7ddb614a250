// Who a fuzz case speaks as, and the request it sends. Users are signed in through the real
// endpoints once; each case then presents a token of its own (issued as verify issues them), so a
// logout among the cases revokes that case's token only and the next case still gets past auth.
import fc from 'fast-check';
import type { PrivateKeyAccount } from 'viem';
import { POST as registerAgent } from '@/app/api/auth/register-agent/route';
import { sealSessionCookie } from '@/lib/auth/session-cookie';
import { issueToken } from '@/lib/auth/tokens';
import { config } from '@/lib/config';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { stampedAddress } from '@/lib/http/socket-address';
import { call } from '../http';
import { signIn } from '../wallets';
import { badAuthorization, forgedCookie, forgedToken } from './arbitraries';

export interface User {
  id: string;
  walletAddress: string;
  role: 'CLIENT' | 'AGENT';
}

/** A user signed in through the real endpoints (an agent also registered), with a token and the wallet. */
export async function newUser(role: User['role']): Promise<User & { token: string; wallet: PrivateKeyAccount }> {
  const { token, user, wallet } = await signIn();
  if (role === 'CLIENT') return { ...(user as User), token, wallet };
  const response = await call(registerAgent, { token, method: 'POST' });
  if (response.status !== 200) throw new Error(`register-agent: ${response.status} ${JSON.stringify(response.body)}`);
  return { ...(response.body.user as User), token: response.body.token, wallet };
}

/** How a case authenticates. `as` names a party of the test; the rest are lies or operator secrets. */
export type Credential =
  | { kind: 'none' }
  | { kind: 'bearer' | 'cookie'; as: string; origin?: string }
  | { kind: 'forged-token'; as: string; make: (subject: User) => Promise<string> }
  | { kind: 'forged-cookie'; make: () => Promise<string>; origin?: string }
  | { kind: 'authorization'; value: string }
  | { kind: 'operator'; secret: 'cron' | 'admin' };

// Pages of an allowed domain (docs/api.md#origins), and pages that are not.
const ORIGINS = [
  'https://app.example.com',
  'http://localhost:3000',
  'https://pr-12.app.example.com',
  'https://evilapp.example.com',
  'https://app.example.com.evil.io',
  'null',
  'http://localhost:3001',
  'https://app.example.com:444',
];

/**
 * Credentials for a case, speaking as one of the parties `names` (operator secrets `operatorWeight` times as often as
 * usual).
 */
export function credential(names: string[], operatorWeight = 1): fc.Arbitrary<Credential> {
  const as = fc.constantFrom(...names);
  const origin = fc.option(fc.constantFrom(...ORIGINS), { nil: undefined, freq: 3 });
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 8, arbitrary: as.map((name) => ({ kind: 'bearer' as const, as: name })) },
    {
      weight: 3,
      arbitrary: fc.tuple(as, origin).map(([name, o]) => ({ kind: 'cookie' as const, as: name, origin: o })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(as, forgedToken).map(([name, make]) => ({ kind: 'forged-token' as const, as: name, make })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(forgedCookie, origin)
        .map(([make, o]) => ({ kind: 'forged-cookie' as const, make, origin: o })),
    },
    { weight: 1, arbitrary: badAuthorization.map((value) => ({ kind: 'authorization' as const, value })) },
    {
      weight: operatorWeight,
      arbitrary: fc
        .constantFrom('cron' as const, 'admin' as const)
        .map((secret) => ({ kind: 'operator' as const, secret })),
    },
  );
}

export async function applyCredential(headers: Headers, c: Credential, users: Record<string, User>): Promise<void> {
  const cfg = config();
  switch (c.kind) {
    case 'none':
      return;
    case 'bearer':
      headers.set('authorization', `Bearer ${await issueToken(cfg, users[c.as]!)}`);
      return;
    case 'cookie':
      headers.set('cookie', sealSessionCookie(cfg, await issueToken(cfg, users[c.as]!)).split(';')[0]!);
      if (c.origin) headers.set('origin', c.origin);
      return;
    case 'forged-token':
      headers.set('authorization', `Bearer ${await c.make(users[c.as]!)}`);
      return;
    case 'forged-cookie':
      headers.set('cookie', await c.make());
      if (c.origin) headers.set('origin', c.origin);
      return;
    case 'authorization':
      headers.set('authorization', c.value);
      return;
    case 'operator':
      headers.set('authorization', `Bearer ${c.secret === 'cron' ? cfg.cronSecret : cfg.adminToken}`);
  }
}

/** Sets a header if a client could send it (Headers refuses CR, LF, NUL and non-latin-1, as HTTP would). */
export function trySet(headers: Headers, name: string, value: string): void {
  try {
    headers.set(name, value);
  } catch {
    // not sendable: no server ever sees it
  }
}

export type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface Outgoing {
  method: string;
  path: string;
  query?: string;
  headers: Headers;
  body?: string | Uint8Array;
  params: Record<string, string>;
}

/** Sends a request to a handler in-process, as Next.js would, from the socket address server.ts records. */
export async function send(handler: Handler, out: Outgoing): Promise<Response> {
  if (!out.headers.has(SOCKET_ADDRESS_HEADER)) out.headers.set(SOCKET_ADDRESS_HEADER, stampedAddress('10.9.9.9'));
  const withBody = out.body !== undefined && out.method !== 'GET' && out.method !== 'HEAD';
  const request = new Request(`http://localhost:3000${out.path}${out.query ? `?${out.query}` : ''}`, {
    method: out.method,
    headers: out.headers,
    body: withBody ? (typeof out.body === 'string' ? out.body : Buffer.from(out.body!)) : undefined,
  });
  return handler(request, { params: Promise.resolve(out.params) });
}
