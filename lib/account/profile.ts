// The caller's own profile: read it, and change the fields a user may set (never role, wallet or id).
import 'server-only';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { ApiError } from '../errors';
import type { Profile, ProfilePatch } from './schemas';

const { id, walletAddress, role, displayName, bio, organization, website, avatarUrl, createdAt, updatedAt } =
  getTableColumns(users);
const profileColumns = {
  id,
  walletAddress,
  role,
  displayName,
  bio,
  organization,
  website,
  avatarUrl,
  createdAt,
  updatedAt,
};

type Row = { [K in keyof typeof profileColumns]: (typeof users.$inferSelect)[K] };

const present = (row: Row): Profile => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function getProfileOrThrow(db: Db, userId: string): Promise<Profile> {
  const [row] = await db.select(profileColumns).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new ApiError(404, 'User not found');
  return present(row);
}

/** Applies the fields present in the patch; `{}` changes nothing (JSON merge-patch semantics). */
export async function updateProfile(db: Db, userId: string, patch: ProfilePatch): Promise<Profile> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length === 0) return getProfileOrThrow(db, userId);
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, userId))
    .returning(profileColumns);
  if (!row) throw new ApiError(404, 'User not found');
  return present(row);
}
