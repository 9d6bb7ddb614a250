// Who is calling: the user, the credential they came with, and — for a delegated credential — the
// grant's scopes and when the credential ends (docs/api.md#tokens). lib/http/auth-guard.ts makes one.
import type { TokenClaims } from '../auth/tokens';
import type { PassportSummary, UserSummary } from '../users/queries';
import type { Scope } from './scopes';

export interface Caller {
  user: UserSummary;
  passport: PassportSummary | null;
  via: 'bearer' | 'cookie' | 'personal-token';
  /** The JWT's claims (a sign-in or an OAuth access token); none for a personal access token. */
  claims?: TokenClaims;
  /** The grant a delegated credential belongs to, and what it may do; undefined for a wallet sign-in. */
  grant?: { id: string; scopes: Scope[] };
  /**
   * When the credential presented stops working, in seconds since the epoch (a JWT's `exp`, a personal
   * token's expiry); undefined for a personal token without one. No token derived from it outlives it.
   */
  expiresAt?: number;
}
