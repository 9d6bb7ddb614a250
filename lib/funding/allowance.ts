// GET/POST /api/account/allowance and its revocation (docs/api.md#standing-allowance): the person,
// signed in with their wallet, reads the mandate in force, today's use, the permit's remaining
// allowance and the typed data of the terms they chose; signs a USDC EIP-2612 permit to the escrow and
// an EIP-712 FundingMandate naming our relayer; hands both back. Each is checked off-chain (the wallet's
// signature — EIP-1271 for a contract wallet — of exactly these terms at the current nonces, unexpired,
// funder the relayer), then recorded as the person's one relay (mandate_relays: one row per person,
// never two in flight) and sent through the relayer (lib/chain/sender.ts): recorded first, the hash
// written before it leaves, the chain's nonce asked before any resend, so it is never sent twice.
import 'server-only';
import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Hex, PublicClient } from 'viem';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type MandateRelay, type MandateRelayPayload, mandateRelays } from '../db/schema';
import { getChainClients } from '../chain/clients';
import {
  type FundingMandate,
  mandateTypedData,
  permitTypedData,
  readAllowanceAndBalance,
  readFundedOn,
  readMandate,
  readPermitToken,
  revocationTypedData,
  revokeBySigCall,
  setMandateWithPermitCall,
  chainDay,
} from '../chain/mandate';
import { isExecutionRevert, isRpcUnreachable, readChain, sendErrorText } from '../chain/rpc-errors';
import { lookupTransaction, sendSerialized } from '../chain/sender';
import { ApiError, DependencyDown, unavailableDependency } from '../errors';
import type { Kv } from '../kv';
import { getKv } from '../kv';
import { chargeOf, consume, EVERYONE, giveBack } from '../limits/rate-limit';
import { log } from '../log';

const amount = z.string().regex(/^[1-9][0-9]{0,29}$/, 'a positive amount in base units, at most 30 digits');
const unix = z.string().regex(/^[1-9][0-9]{0,11}$/, 'unix seconds, decimal');
const signature = z.string().regex(/^0x[0-9a-fA-F]{130,20000}$/, 'a 0x-prefixed hex signature');

/** The terms a person chooses: what the permit lets the escrow pull in all, per mission, per UTC day, until when. */
export const allowanceTermsSchema = z.strictObject({
  total: amount.describe("The permit's value: what the escrow may pull in all (base units)"),
  perMission: amount.describe('The most one mission may be funded with (base units)'),
  perDay: amount.describe('The most funded per UTC day (base units)'),
  validUntil: unix.describe('When the mandate and the permit end (unix seconds)'),
});
export type AllowanceTerms = z.infer<typeof allowanceTermsSchema>;

export const allowanceQuerySchema = allowanceTermsSchema.partial();

export const allowanceInputSchema = z.strictObject({
  terms: allowanceTermsSchema,
  permitSignature: signature.describe('The wallet’s signature of typedData.permit'),
  mandateSignature: signature.describe('The wallet’s signature of typedData.mandate'),
});

export const revocationInputSchema = z.strictObject({
  signature: signature.describe('The wallet’s signature of the revocation’s typedData'),
});

const typedDataSchema = z.object({
  domain: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
});

const relaySchema = z
  .object({
    kind: z.enum(['set', 'revoke']),
    status: z.enum(['relaying', 'mined', 'failed']),
    txHash: z.string().nullable(),
    error: z.string().nullable(),
  })
  .nullable()
  .describe("The person's last relayed mandate or revocation");

export const allowanceSchema = z.object({
  escrow: z.string(),
  token: z.string(),
  funder: z.string().describe('The relayer: the only address a mandate signed here lets call createTaskFor'),
  mandate: z
    .object({
      funder: z.string(),
      perMission: z.string(),
      perDay: z.string(),
      validUntil: z.string(),
      nonce: z.string(),
      live: z.boolean().describe('Names our relayer and has not expired'),
    })
    .nullable()
    .describe('The mandate in force on the chain, or null'),
  nonce: z.string().describe('The nonce the next mandate or revocation carries (mandateNonce)'),
  day: z.number().int().describe('The UTC day perDay counts (unix seconds / 86400)'),
  fundedToday: z.string().describe('What the escrow funded by mandate today (fundedOn)'),
  allowance: z.string().describe("The permit's remaining allowance to the escrow"),
  balance: z.string(),
  relay: relaySchema,
  typedData: z
    .object({ permit: typedDataSchema, mandate: typedDataSchema })
    .optional()
    .describe('For the terms in the query: the USDC Permit and the FundingMandate to sign; uint256 as decimal strings'),
});
export type AllowanceView = z.infer<typeof allowanceSchema>;

export const revocationSchema = z.object({
  typedData: typedDataSchema.describe('The FundingMandateRevocation to sign'),
  relay: relaySchema,
});

const refuse = (detail: string) => new ApiError(400, 'Validation failed', [detail]);
// A mandate lasts at most a year: a standing right over someone's USDC does not stand forever.
const MAX_VALIDITY_S = 366 * 86400;

function chainOf(cfg: Config) {
  const clients = getChainClients();
  const relayer = clients?.relayer?.account?.address;
  const { escrow, rewardToken } = cfg.chain;
  if (!clients || !escrow || !rewardToken) throw new DependencyDown('chain', new Error('chain not configured'));
  if (!relayer) throw new ApiError(409, 'This deployment has no relayer: a standing allowance is not available');
  return { clients, escrow, token: rewardToken, relayer: relayer.toLowerCase() as Hex };
}

/** Decimal strings for every bigint, as the API answers uint256. */
const decimal = (value: unknown): unknown =>
  typeof value === 'bigint'
    ? value.toString()
    : Array.isArray(value)
      ? value.map(decimal)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decimal(v)]))
        : value;

async function typedDataOf(cfg: Config, client: Hex, terms: AllowanceTerms, nonce: bigint) {
  const { clients, escrow, token, relayer } = chainOf(cfg);
  const read = await readChain(() => readPermitToken(clients.publicClient, token, client));
  const validUntil = BigInt(terms.validUntil);
  const permit = permitTypedData(
    { chainId: cfg.chainId, address: token, name: read.name, version: read.version },
    { owner: client, spender: escrow, value: BigInt(terms.total), nonce: read.nonce, deadline: validUntil },
  );
  const mandate: FundingMandate = {
    client,
    funder: relayer,
    perMission: BigInt(terms.perMission),
    perDay: BigInt(terms.perDay),
    validUntil,
    nonce,
  };
  return { permit, mandate: mandateTypedData(cfg.chainId, escrow, mandate), terms: mandate };
}

const relayOf = (row: MandateRelay | undefined): AllowanceView['relay'] =>
  row
    ? {
        kind: row.kind === 'SET' ? 'set' : 'revoke',
        status: row.status === 'RELAYING' ? 'relaying' : row.status === 'MINED' ? 'mined' : 'failed',
        txHash: row.txHash,
        error: row.lastError,
      }
    : null;

async function relayRow(db: Db, userId: string) {
  const [row] = await db.select().from(mandateRelays).where(eq(mandateRelays.userId, userId));
  return row;
}

export async function getAllowance(
  db: Db,
  cfg: Config,
  user: { id: string; walletAddress: string },
  query: Partial<AllowanceTerms>,
  now: Date,
): Promise<AllowanceView> {
  const { clients, escrow, token, relayer } = chainOf(cfg);
  const client = user.walletAddress.toLowerCase() as Hex;
  // A relay whose lease is free is carried on by whoever looks.
  if ((await relayRow(db, user.id))?.status === 'RELAYING') await processMandateRelay(db, cfg, user.id, 0);
  const day = await readChain(() => chainDay(clients.publicClient));
  const [{ mandate, nonce }, fundedToday, { allowance, balance }] = await readChain(() =>
    Promise.all([
      readMandate(clients.publicClient, escrow, client),
      readFundedOn(clients.publicClient, escrow, client, day),
      readAllowanceAndBalance(clients.publicClient, token, client, escrow),
    ]),
  );
  const terms = allowanceTermsSchema.safeParse(query);
  const asked = Object.values(query).some((v) => v !== undefined);
  if (asked && !terms.success)
    throw refuse('total, perMission, perDay and validUntil: give all four, in base units and unix seconds');
  const typed = terms.success ? await typedDataOf(cfg, client, terms.data, nonce) : undefined;
  return {
    escrow,
    token,
    funder: relayer,
    mandate: mandate && {
      funder: mandate.funder,
      perMission: mandate.perMission.toString(),
      perDay: mandate.perDay.toString(),
      validUntil: mandate.validUntil.toString(),
      nonce: mandate.nonce.toString(),
      live: mandate.funder === relayer && mandate.validUntil > BigInt(Math.floor(now.getTime() / 1000)),
    },
    nonce: nonce.toString(),
    day: Number(day),
    fundedToday: fundedToday.toString(),
    allowance: allowance.toString(),
    balance: balance.toString(),
    relay: relayOf(await relayRow(db, user.id)),
    ...(typed && {
      typedData: {
        permit: decimal(typed.permit) as z.infer<typeof typedDataSchema>,
        mandate: decimal(typed.mandate) as z.infer<typeof typedDataSchema>,
      },
    }),
  };
}

/** The wallet's signature of exactly this typed data: an EOA's, or a contract wallet's word (EIP-1271). */
async function signedBy(publicClient: PublicClient, address: Hex, typedData: object, sig: Hex): Promise<boolean> {
  return readChain(() =>
    publicClient.verifyTypedData({
      ...(typedData as Parameters<PublicClient['verifyTypedData']>[0]),
      address,
      signature: sig,
    }),
  ).catch((error) => {
    if (error instanceof DependencyDown) throw error;
    return false;
  });
}

function checkTerms(terms: AllowanceTerms, now: Date): void {
  const nowS = Math.floor(now.getTime() / 1000);
  const until = Number(terms.validUntil);
  if (until <= nowS) throw refuse('terms.validUntil: the mandate would already have expired');
  if (until > nowS + MAX_VALIDITY_S) throw refuse('terms.validUntil: at most a year ahead');
  if (BigInt(terms.perMission) > BigInt(terms.perDay)) throw refuse('terms.perMission: at most perDay');
  if (BigInt(terms.perDay) > BigInt(terms.total)) throw refuse('terms.perDay: at most total');
}

/**
 * docs/api.md#standing-allowance: what a person may make our relayer spend gas on — one relay in flight
 * (the row's primary key), five a day (the `mandateRelay` limit, given back when nothing is sent), and
 * everyone's hourly budget of broadcasts (peeked here, spent at the send).
 */
async function chargeRelay(kv: Kv, cfg: Config, userId: string): Promise<void> {
  const budget = chargeOf(cfg, 'relayBudget', EVERYONE);
  if (Number((await kv.get(budget.key)) ?? 0) >= budget.max)
    throw new ApiError(429, 'Too many requests', ["the relayer's budget for this hour is used up; try later"], {
      'Retry-After': '60',
    });
  await consume(kv, cfg, 'mandateRelay', userId);
}

/** The one conditional write that claims the person's relay: a first row, or a finished one replaced. */
async function recordRelay(db: Db, userId: string, kind: 'SET' | 'REVOKE', payload: MandateRelayPayload, now: Date) {
  const values = {
    kind,
    payload,
    status: 'RELAYING' as const,
    txHash: null,
    attempts: 0,
    lastError: null,
    lockedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  const [claimed] = await db
    .insert(mandateRelays)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: mandateRelays.userId, set: values, setWhere: ne(mandateRelays.status, 'RELAYING') })
    .returning({ userId: mandateRelays.userId });
  if (!claimed) throw new ApiError(409, 'A mandate or revocation of yours is already being relayed; wait for it');
}

async function relayAndAnswer(
  db: Db,
  kv: Kv,
  cfg: Config,
  userId: string,
  kind: 'SET' | 'REVOKE',
  payload: MandateRelayPayload,
  now: Date,
) {
  const pending = await relayRow(db, userId);
  if (pending?.status === 'RELAYING')
    throw new ApiError(409, 'A mandate or revocation of yours is already being relayed; wait for it');
  await chargeRelay(kv, cfg, userId);
  try {
    await recordRelay(db, userId, kind, payload, now);
  } catch (error) {
    await giveBack(kv, cfg, 'mandateRelay', userId);
    throw error;
  }
  await processMandateRelay(db, cfg, userId, Math.min(cfg.chain.mintWaitMs, 5_000));
}

export async function setAllowance(
  db: Db,
  kv: Kv,
  cfg: Config,
  user: { id: string; walletAddress: string },
  input: z.infer<typeof allowanceInputSchema>,
  now: Date,
): Promise<AllowanceView> {
  const { clients, escrow } = chainOf(cfg);
  const client = user.walletAddress.toLowerCase() as Hex;
  checkTerms(input.terms, now);
  const { nonce } = await readChain(() => readMandate(clients.publicClient, escrow, client));
  const typed = await typedDataOf(cfg, client, input.terms, nonce);
  // Signed for another funder, another nonce (a replay, or one a revocation voided), other terms: not these bytes.
  if (!(await signedBy(clients.publicClient, client, typed.mandate, input.mandateSignature as Hex)))
    throw refuse(
      `mandateSignature: not your wallet's signature of this FundingMandate (funder ${typed.terms.funder}, ` +
        `nonce ${nonce}, these terms exactly)`,
    );
  if (!(await signedBy(clients.publicClient, client, typed.permit, input.permitSignature as Hex)))
    throw refuse(
      `permitSignature: not your wallet's signature of this Permit (spender ${escrow}, nonce ` +
        `${typed.permit.message.nonce}, value ${input.terms.total}, deadline ${input.terms.validUntil})`,
    );
  const m = typed.terms;
  await relayAndAnswer(
    db,
    kv,
    cfg,
    user.id,
    'SET',
    {
      client,
      funder: m.funder,
      perMission: m.perMission.toString(),
      perDay: m.perDay.toString(),
      validUntil: m.validUntil.toString(),
      nonce: m.nonce.toString(),
      total: input.terms.total,
      permitDeadline: input.terms.validUntil,
      permitSignature: input.permitSignature.toLowerCase(),
      signature: input.mandateSignature.toLowerCase(),
    },
    now,
  );
  return getAllowance(db, cfg, user, {}, now);
}

export async function getRevocation(db: Db, cfg: Config, user: { id: string; walletAddress: string }) {
  const { clients, escrow } = chainOf(cfg);
  const client = user.walletAddress.toLowerCase() as Hex;
  const { nonce } = await readChain(() => readMandate(clients.publicClient, escrow, client));
  if ((await relayRow(db, user.id))?.status === 'RELAYING') await processMandateRelay(db, cfg, user.id, 0);
  return {
    typedData: decimal(revocationTypedData(cfg.chainId, escrow, client, nonce)) as z.infer<typeof typedDataSchema>,
    relay: relayOf(await relayRow(db, user.id)),
  };
}

export async function revokeAllowance(
  db: Db,
  kv: Kv,
  cfg: Config,
  user: { id: string; walletAddress: string },
  input: z.infer<typeof revocationInputSchema>,
  now: Date,
) {
  const { clients, escrow } = chainOf(cfg);
  const client = user.walletAddress.toLowerCase() as Hex;
  const { nonce } = await readChain(() => readMandate(clients.publicClient, escrow, client));
  const typed = revocationTypedData(cfg.chainId, escrow, client, nonce);
  if (!(await signedBy(clients.publicClient, client, typed, input.signature as Hex)))
    throw refuse(`signature: not your wallet's signature of this revocation (nonce ${nonce})`);
  await relayAndAnswer(
    db,
    kv,
    cfg,
    user.id,
    'REVOKE',
    {
      client,
      funder: '',
      perMission: '0',
      perDay: '0',
      validUntil: '0',
      nonce: nonce.toString(),
      signature: input.signature.toLowerCase(),
    },
    now,
  );
  return getRevocation(db, cfg, user);
}

const LEASE_MARGIN_MS = 30_000;

async function claim(db: Db, userId: string, leaseMs: number): Promise<MandateRelay | undefined> {
  const now = new Date();
  const [row] = await db
    .update(mandateRelays)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${mandateRelays.attempts} + 1` })
    .where(
      and(
        eq(mandateRelays.userId, userId),
        eq(mandateRelays.status, 'RELAYING'),
        or(isNull(mandateRelays.lockedUntil), lt(mandateRelays.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

const finish = (db: Db, userId: string, status: 'MINED' | 'FAILED' | 'RELAYING', set: Partial<MandateRelay> = {}) =>
  db
    .update(mandateRelays)
    .set({ status, lockedUntil: null, updatedAt: new Date(), ...set })
    .where(and(eq(mandateRelays.userId, userId), eq(mandateRelays.status, 'RELAYING')));

/**
 * Carries the person's recorded relay to the chain and back. The mandate's nonce is the chain's own
 * word on whether the signature was used (a set or a revocation bumps it): moved past the payload's,
 * it was — by our transaction or anyone's — and nothing is sent again.
 */
export async function processMandateRelay(db: Db, cfg: Config, userId: string, waitMs: number): Promise<void> {
  const row = await claim(db, userId, waitMs + LEASE_MARGIN_MS);
  if (!row) return;
  let sent = row.txHash !== null;
  const fail = async (reason: string) => {
    await finish(db, userId, 'FAILED', { lastError: reason });
    if (!sent) await giveBack(getKv(), cfg, 'mandateRelay', userId).catch(() => undefined);
  };
  const clients = getChainClients();
  const escrow = cfg.chain.escrow;
  if (!clients?.relayer || !escrow)
    return void (await finish(db, userId, 'RELAYING', { lastError: 'chain not configured' }));
  const { publicClient, relayer } = clients;
  const p = row.payload;
  const client = p.client as Hex;
  const used = async () => (await readMandate(publicClient, escrow, client)).nonce > BigInt(p.nonce);
  try {
    if (row.txHash) {
      const earlier = await lookupTransaction(publicClient, row.txHash as Hex);
      if (earlier.state === 'pending') return void (await finish(db, userId, 'RELAYING'));
      if (earlier.state === 'mined') {
        if (earlier.receipt.status === 'success') return void (await finish(db, userId, 'MINED'));
        return void (await fail('the relayed transaction reverted'));
      }
    }
    if (await used()) return void (await finish(db, userId, 'MINED'));
    if (p.validUntil !== '0' && BigInt(Math.floor(Date.now() / 1000)) >= BigInt(p.validUntil))
      return void (await fail('the mandate expired before it could be relayed'));
    const data =
      row.kind === 'SET'
        ? setMandateWithPermitCall(
            {
              client,
              funder: p.funder as Hex,
              perMission: BigInt(p.perMission),
              perDay: BigInt(p.perDay),
              validUntil: BigInt(p.validUntil),
              nonce: BigInt(p.nonce),
            },
            p.signature as Hex,
            BigInt(p.total!),
            BigInt(p.permitDeadline!),
            p.permitSignature as Hex,
          )
        : revokeBySigCall(client, BigInt(p.nonce), p.signature as Hex);
    const hash = await sendSerialized(publicClient, relayer, { to: escrow, data }, async (h) => {
      await consume(getKv(), cfg, 'relayBudget', EVERYONE);
      await db.update(mandateRelays).set({ txHash: h, updatedAt: new Date() }).where(eq(mandateRelays.userId, userId));
      sent = true;
    });
    const receipt = await publicClient
      .waitForTransactionReceipt({ hash, timeout: waitMs, pollingInterval: 250 })
      .catch(() => undefined);
    if (!receipt) return void (await finish(db, userId, 'RELAYING'));
    if (receipt.status === 'success') return void (await finish(db, userId, 'MINED'));
    await fail('the relayed transaction reverted');
  } catch (error) {
    const message = sendErrorText(error) ?? 'send failed';
    log.warn('allowance.relay_failed', { userId, message });
    if (error instanceof ApiError && error.status === 429)
      return void (await fail('the relayer’s budget for this hour is used up'));
    if (isRpcUnreachable(error) || unavailableDependency(error))
      return void (await finish(db, userId, 'RELAYING', { lastError: message }));
    // The chain's own no before anything left (a permit or mandate the escrow refuses): nothing was sent.
    if (isExecutionRevert(error) || row.attempts >= cfg.chain.settlementMaxAttempts) return void (await fail(message));
    await finish(db, userId, 'RELAYING', { lastError: message });
  }
}

/** The sweep's part: every relaying mandate or revocation whose lease is free is carried on. */
export async function retryMandateRelays(db: Db, cfg: Config, now: Date, limit = 20): Promise<number> {
  const rows = await db
    .select({ userId: mandateRelays.userId })
    .from(mandateRelays)
    .where(
      and(
        eq(mandateRelays.status, 'RELAYING'),
        or(isNull(mandateRelays.lockedUntil), lt(mandateRelays.lockedUntil, now)),
      ),
    )
    .orderBy(mandateRelays.updatedAt)
    .limit(limit);
  for (const { userId } of rows) await processMandateRelay(db, cfg, userId, 5_000);
  return rows.length;
}
