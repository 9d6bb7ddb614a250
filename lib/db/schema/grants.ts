// Delegated access (docs/api.md#tokens): OAuth clients registered by MCP hosts, the grants users gave them
// or made for themselves (personal access tokens), and the rotating refresh tokens of OAuth grants.
import { index, numeric, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const grantKindEnum = pgEnum('grant_kind', ['OAUTH', 'TOKEN']);

export const oauthClients = pgTable(
  'oauth_clients',
  {
    // The client_id handed out at registration (random, not guessable).
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    redirectUris: text('redirect_uris').array().notNull(),
    // 'none' (public client, PKCE only), or a secret sent by POST body or Basic auth.
    authMethod: text('auth_method').notNull(),
    secretHash: text('secret_hash'),
    clientUri: text('client_uri'),
    createdAt: at('created_at').notNull(),
    // Registrations unused for 30 days are deleted by the sweep (RFC 7591 leaves it to us).
    lastUsedAt: at('last_used_at').notNull(),
    // First used in an authorization (a code redeemed): from then on it no longer counts against the
    // ceiling on unused registrations (docs/api.md#oauth-21).
    authorizedAt: at('authorized_at'),
  },
  (t) => [
    index('oauth_clients_last_used_idx').on(t.lastUsedAt),
    index('oauth_clients_unused_idx').on(t.createdAt).where(sql`${t.authorizedAt} is null`),
  ],
);

export const grants = pgTable(
  'grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: grantKindEnum('kind').notNull(),
    // OAUTH: the client; TOKEN: none. The client row may be gone; the grant keeps its name.
    clientId: text('client_id'),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    // What the grant may release at once over a rolling 24 h, in base units (docs/api.md#confirmations);
    // above it a release waits for the person's yes. 0: every release waits.
    releaseLimit: numeric('release_limit', { precision: 78, scale: 0 }).notNull().default('0'),
    // What the grant may fund at once from the person's standing allowance over a rolling 24 h, in base
    // units (docs/api.md#standing-allowance); above it a post waits AWAITING_FUNDING. 0: never at once.
    fundingLimit: numeric('funding_limit', { precision: 78, scale: 0 }).notNull().default('0'),
    // TOKEN: SHA-256 of the token (tm_…), never the token itself; its first characters to recognise it.
    tokenHash: text('token_hash').unique(),
    tokenHint: text('token_hint'),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
    expiresAt: at('expires_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('grants_user_idx').on(t.userId, t.createdAt)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    // SHA-256 of the refresh token. A used one stays (usedAt set): presenting it again is reuse.
    hash: text('hash').primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => grants.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    // The resource (RFC 8707) its access tokens are for, kept through rotation (docs/api.md#audience);
    // null: the MCP endpoint, as for tokens issued before resources were told apart.
    resource: text('resource'),
  },
  (t) => [index('refresh_tokens_grant_idx').on(t.grantId)],
);
