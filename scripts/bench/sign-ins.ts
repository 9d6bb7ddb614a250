// Sign-in requests prepared ahead of a measurement: SIWE messages over fresh nonces from a nonce
// route, signed by a few wallets, each body good for one verify.
import { createSiweMessage } from 'viem/siwe';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type Scenario, skipBodies, unusedBodies } from './measure';

export const post = async (base: string, path: string, body?: unknown, token?: string): Promise<any> => {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
};

const wallets = Array.from({ length: 50 }, () => privateKeyToAccount(generatePrivateKey()));

/** `count` verify bodies over nonces from `noncePath` (POST { address }), for messages to `domain`. */
export async function presignedVerifies(
  base: string,
  count: number,
  { noncePath = '/api/auth/nonce', domain = new URL(base).host } = {},
): Promise<string[]> {
  const one = async (i: number) => {
    const wallet = wallets[i % wallets.length]!;
    const { nonce } = await post(base, noncePath, { address: wallet.address });
    const message = createSiweMessage({
      domain,
      address: wallet.address,
      uri: `http://${domain}`,
      version: '1',
      chainId: 31337,
      nonce,
      issuedAt: new Date(),
    });
    return JSON.stringify({ message, signature: await wallet.signMessage({ message }) });
  };
  const bodies: string[] = [];
  // A few nonce requests in flight at once: preparing is not what is measured.
  for (let i = 0; i < count; i += 16)
    bodies.push(...(await Promise.all(Array.from({ length: Math.min(16, count - i) }, (_, j) => one(i + j)))));
  return bodies;
}

/** Signs in once through `verifyPath` with the first body and answers the session cookie it set (name=value). */
export async function sessionCookie(base: string, verifyPath: string, body: string): Promise<string> {
  const response = await fetch(base + verifyPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  if (!response.ok) throw new Error(`${verifyPath}: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie()[0];
  if (!cookie) throw new Error(`${verifyPath} set no cookie`);
  return cookie.split(';')[0]!;
}

/**
 * A verify scenario whose single-use bodies are topped up before each measurement, so a round
 * never runs out and none are signed in vain (measure.ts takes each body once, across rounds).
 */
export function verifyPool(
  name: string,
  base: string,
  path: string,
  perRound: number,
  options: { noncePath: string; domain: string },
) {
  const scenario = { name, method: 'POST' as const, path, bodies: [] as string[] };
  return async () => {
    await topUp(scenario, base, perRound, options);
    return scenario;
  };
}

// When each batch of a scenario's bodies was signed. Its nonces live five minutes, and a comparison
// of many endpoints comes back to verify minutes later: bodies left over from a batch older than
// this are skipped, not sent (they would be answered 401 and measure the refusal).
const batches = new WeakMap<Scenario, { end: number; signedAt: number }[]>();
const FRESH_MS = 2 * 60_000;

/** Signs enough fresh bodies that `perRound` unused ones were signed in the last two minutes. */
export async function topUp(
  scenario: Scenario & { bodies: string[] },
  base: string,
  perRound: number,
  options: { noncePath: string; domain: string },
) {
  const signed = batches.get(scenario) ?? [];
  for (const batch of signed) if (Date.now() - batch.signedAt > FRESH_MS) skipBodies(scenario, batch.end);
  const missing = perRound - unusedBodies(scenario);
  if (missing <= 0) return;
  const signedAt = Date.now();
  scenario.bodies.push(...(await presignedVerifies(base, missing, options)));
  batches.set(scenario, [
    ...signed.filter((batch) => Date.now() - batch.signedAt <= FRESH_MS),
    { end: scenario.bodies.length, signedAt },
  ]);
}

/** Signs in over the instance's nonce route and registers as an agent: the user and the agent's token. */
export async function signInAgent(
  base: string,
  domain: string,
): Promise<{ user: { id: string; walletAddress: string }; token: string }> {
  const [body] = await presignedVerifies(base, 1, { domain });
  const { token, user } = await post(base, '/api/auth/verify', JSON.parse(body!));
  const agent = await post(base, '/api/auth/register-agent', undefined, token);
  return { user, token: agent.token };
}
