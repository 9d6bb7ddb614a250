// bench:libraries variant of lib/auth/session-cookie.ts — the session cookie sealed and unsealed by
// iron-session itself (sealData/unsealData, async WebCrypto) instead of lib/auth/iron-seal.ts.
// Copied over lib/auth/session-cookie.ts in a throw-away build only.
import 'server-only';
import { sealData, unsealData } from 'iron-session';
import type { Config } from '@/lib/config';

export const SESSION_COOKIE = 'taskmarket_session';

/**
 * docs/api.md#origins: in production the `__Host-` prefix makes the browser refuse the cookie unless it is
 * Secure, Path=/ and has no Domain, so a sibling subdomain can neither set nor overwrite it.
 */
export const sessionCookieName = (cfg: Config) => (cfg.production ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

const attributes = (cfg: Config, maxAge: number) =>
  `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${cfg.production ? '; Secure' : ''}`;

export async function sealSessionCookie(cfg: Config, token: string): Promise<string> {
  const sealed = await sealData({ token }, { password: cfg.sessionSecret, ttl: cfg.jwtTtlSeconds });
  return `${sessionCookieName(cfg)}=${sealed}; ${attributes(cfg, cfg.jwtTtlSeconds)}`;
}

export function clearSessionCookie(cfg: Config): string {
  return `${sessionCookieName(cfg)}=; ${attributes(cfg, 0)}`;
}

/** The token inside the request's session cookie, or undefined when there is none or it does not unseal. */
export async function readSessionCookie(cfg: Config, cookieHeader: string | null): Promise<string | undefined> {
  if (!cookieHeader) return undefined;
  const prefix = `${sessionCookieName(cfg)}=`;
  const sealed = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
  if (!sealed) return undefined;
  const data = await unsealData<{ token?: unknown }>(sealed, { password: cfg.sessionSecret }).catch(() => undefined);
  return typeof data?.token === 'string' ? data.token : undefined;
}
