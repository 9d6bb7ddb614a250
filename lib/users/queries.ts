// User rows: created at first sign-in, keyed by the lowercase wallet address.
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { ApiError } from '../http/errors';
import type { Db } from '../db/client';
import { users } from '../db/schema';

const publicColumns = { id: users.id, walletAddress: users.walletAddress, role: users.role };
export type UserSummary = { id: string; walletAddress: string; role: 'CLIENT' | 'AGENT' };

/** Creates the user on first sign-in; an existing user keeps its role (API.md §3 step 5). */
export async function upsertUserByAddress(db: Db, walletAddress: string): Promise<UserSummary> {
  const [user] = await db
    .insert(users)
    .values({ walletAddress })
    .onConflictDoUpdate({ target: users.walletAddress, set: { updatedAt: sql`now()` } })
    .returning(publicColumns);
  return user!;
}

// Every authenticated request runs this lookup: build its SQL once per database handle.
const prepareFindUser = (db: Db) =>
  db.select(publicColumns).from(users).where(eq(users.id, sql.placeholder('id'))).limit(1).prepare('find_user_by_id');
const findUserStatements = new WeakMap<Db, ReturnType<typeof prepareFindUser>>();

export async function findUserById(db: Db, id: string): Promise<UserSummary | undefined> {
  let statement = findUserStatements.get(db);
  if (!statement) findUserStatements.set(db, (statement = prepareFindUser(db)));
  const [user] = await statement.execute({ id });
  return user;
}

export async function getUserOrThrow(db: Db, id: string): Promise<UserSummary> {
  const user = await findUserById(db, id);
  if (!user) throw new ApiError(404, 'User not found');
  return user;
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
