// RFC 7009 token revocation for OAuth clients (a "disconnect" in the client): a refresh or access
// token of the calling client ends its whole grant. Unknown tokens are answered 200 too (RFC 7009 §2.2).
import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { refreshTokens } from '../db/schema';
import type { Kv } from '../kv';
import { readToken } from '../auth/tokens';
import type { OAuthClient } from './clients';
import { findLiveGrant, hashSecret, markGrantRevoked, revokeGrantNow } from './grants';

export const revocationRequestSchema = z.object({
  token: z.string().min(1).max(4000),
  token_type_hint: z.string().max(50).optional(),
  client_id: z.string().max(200).optional(),
  client_secret: z.string().max(200).optional(),
});

export async function revokeClientToken(
  db: Db,
  kv: Kv,
  cfg: Config,
  client: OAuthClient,
  token: string,
  now: Date,
): Promise<void> {
  const grantId = await grantOfToken(db, cfg, token);
  if (!grantId) return;
  const grant = await findLiveGrant(db, grantId, now);
  if (!grant || grant.clientId !== client.id) return;
  await markGrantRevoked(kv, cfg, grant.id);
  await revokeGrantNow(db, grant.id, now);
}

async function grantOfToken(db: Db, cfg: Config, token: string): Promise<string | undefined> {
  if (token.startsWith('tmr_')) {
    const [row] = await db
      .select({ grantId: refreshTokens.grantId })
      .from(refreshTokens)
      .where(eq(refreshTokens.hash, hashSecret(token)))
      .limit(1);
    return row?.grantId;
  }
  try {
    return (await readToken(cfg, token)).gid;
  } catch {
    return undefined;
  }
}
