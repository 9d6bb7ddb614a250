// Steady load on a pair of instances while a dependency fails: a few workers signing in over and
// over (nonce on one instance, verify on the other) and reading /api/auth/me with the tokens they
// got, every reply recorded with the moment it was sent and answered.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { PrivateKeyAccount } from 'viem';
import { expectDocumentedShape, newAccount, request, type Reply, requestNonce, siweMessage } from './client';
import type { Pair } from './instances';

export interface Sample extends Reply {
  kind: 'nonce' | 'verify' | 'me';
  sentAt: number;
  answeredAt: number;
}

export interface SignedInUser {
  account: PrivateKeyAccount;
  token: string;
  userId: string;
}

export interface Load {
  samples: Sample[];
  /** Every user a verify answered 200 for: the service said it committed them. */
  signedIn: SignedInUser[];
  /** Samples sent at or after `from` and answered by `to`. */
  between(from: number, to: number): Sample[];
  stop(): Promise<void>;
}

// Pacing between a worker's rounds, so a dependency that fails fast does not turn the load into a
// busy loop that starves the instances on a two-core machine.
const ROUND_PAUSE_MS = 20;

export function startLoad(pair: Pair, { workers = 4, users = [] as SignedInUser[] } = {}): Load {
  const samples: Sample[] = [];
  const signedIn: SignedInUser[] = [...users];
  let running = true;

  async function timed(kind: Sample['kind'], send: () => Promise<Reply>): Promise<Reply> {
    const sentAt = Date.now();
    let reply: Reply;
    try {
      reply = await send();
    } catch (error) {
      // No answer at all (connection refused or reset): recorded as status 0, which no test admits.
      reply = { status: 0, body: String(error), headers: new Headers() };
    }
    samples.push({ kind, sentAt, answeredAt: Date.now(), ...reply });
    return reply;
  }

  async function worker(index: number) {
    for (let round = 0; running; round++) {
      const [issuer, verifier] = (index + round) % 2 === 0 ? [pair.a, pair.b] : [pair.b, pair.a];
      const account = newAccount();
      const nonce = await timed('nonce', () => requestNonce(issuer, account.address));
      // Verify runs even without a nonce of its own (with one never issued), so a KV outage hits
      // verify's take-the-nonce step too, not only the nonce route.
      const message = siweMessage(account, nonce.status === 200 ? nonce.body.nonce : randomBytes(16).toString('hex'));
      const signature = await account.signMessage({ message });
      const verified = await timed('verify', () =>
        request(verifier, '/api/auth/verify', { body: { message, signature } }),
      );
      if (verified.status === 200)
        signedIn.push({ account, token: verified.body.token, userId: verified.body.user.id });
      const known = signedIn[Math.floor(Math.random() * signedIn.length)];
      if (known) await timed('me', () => request(issuer, '/api/auth/me', { token: known.token }));
      await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
    }
  }

  const done = Promise.all(Array.from({ length: workers }, (_, i) => worker(i)));
  return {
    samples,
    signedIn,
    between: (from, to) => samples.filter((s) => s.sentAt >= from && s.answeredAt <= to),
    async stop() {
      running = false;
      await done;
    },
  };
}

/** What any fault may cost: 503s and refusals, in the documented shape — never a 500, never silence. */
export function expectOnlyDocumentedAnswers(samples: Sample[]): void {
  const unexpected = samples.filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503));
  expect(unexpected.map((s) => `${s.kind} ${s.status} ${JSON.stringify(s.body)}`)).toEqual([]);
  samples.forEach(expectDocumentedShape);
}

/** Per kind of request, how many of each status: what a failing assertion prints. */
export function tally(samples: Sample[]): Record<string, Record<number, number>> {
  const counts: Record<string, Record<number, number>> = {};
  for (const s of samples) {
    const kind = (counts[s.kind] ??= {});
    kind[s.status] = (kind[s.status] ?? 0) + 1;
  }
  return counts;
}

/** A failed dependency may cost a 503, never a hang: every request is answered within `limitMs`. */
export function expectPromptAnswers(samples: Sample[], limitMs = 5_000): void {
  const slow = samples.filter((s) => s.answeredAt - s.sentAt > limitMs);
  expect(slow.map((s) => `${s.kind} ${s.status} after ${s.answeredAt - s.sentAt} ms`)).toEqual([]);
}
