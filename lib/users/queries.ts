// User rows: created at first sign-in, keyed by the lowercase wallet address.
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { ApiError } from '../errors';
import type { Db } from '../db/client';
import { type Passport, passports, users } from '../db/schema';
import { builtOnce } from '../db/prepared';

const publicColumns = { id: users.id, walletAddress: users.walletAddress, role: users.role };
export type UserSummary = { id: string; walletAddress: string; role: 'CLIENT' | 'AGENT' };

// Sign-in runs this lookup every time: one prepared statement per database handle.
const findByAddressStatement = builtOnce((db: Db) =>
  db
    .select(publicColumns)
    .from(users)
    .where(eq(users.walletAddress, sql.placeholder('wallet')))
    .limit(1)
    .prepare('find_user_by_address'),
);

async function findUserByAddress(db: Db, walletAddress: string): Promise<UserSummary | undefined> {
  const [user] = await findByAddressStatement(db, undefined).execute({ wallet: walletAddress });
  return user;
}

/**
 * The user of this address, created on first sign-in; an existing user keeps its role (docs/api.md#auth
 * step 5). A returning user is a read: a sign-in changes nothing about them, so it writes nothing
 * (no WAL flush, no row lock for concurrent sign-ins of one wallet to queue on).
 */
export async function upsertUserByAddress(db: Db, walletAddress: string): Promise<UserSummary> {
  const known = await findUserByAddress(db, walletAddress);
  if (known) return known;
  const [created] = await db
    .insert(users)
    .values({ walletAddress })
    .onConflictDoNothing({ target: users.walletAddress })
    .returning(publicColumns);
  // Nothing inserted: a concurrent first sign-in of the same wallet created it in the meantime.
  return created ?? (await findUserByAddress(db, walletAddress))!;
}

export type PassportSummary = Pick<Passport, 'tokenId' | 'status' | 'txHash'>;

// Every authenticated request runs this lookup, so it is one prepared statement per database
// handle: the user and, joined on its key, the passport (what `me` answers and agents' routes read).
const findWithPassportStatement = builtOnce((db: Db) =>
  db
    .select({
      ...publicColumns,
      passportStatus: passports.status,
      passportTokenId: passports.tokenId,
      passportTxHash: passports.txHash,
    })
    .from(users)
    .leftJoin(passports, eq(passports.userId, users.id))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('find_user_with_passport'),
);

export async function findUserWithPassport(
  db: Db,
  id: string,
): Promise<{ user: UserSummary; passport: PassportSummary | null } | undefined> {
  const [row] = await findWithPassportStatement(db, undefined).execute({ id });
  if (!row) return undefined;
  const { passportStatus, passportTokenId, passportTxHash, ...user } = row;
  return {
    user,
    passport: passportStatus ? { status: passportStatus, tokenId: passportTokenId, txHash: passportTxHash } : null,
  };
}

export async function promoteToAgent(db: Db, id: string): Promise<UserSummary> {
  const [user] = await db
    .update(users)
    .set({ role: 'AGENT', updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning(publicColumns);
  if (!user) throw new ApiError(401, 'Invalid or expired token');
  return user;
}
