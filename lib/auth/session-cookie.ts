// The dashboard's session cookie: the access token sealed with SESSION_SECRET in iron-session's
// format, so cookie and bearer resolve through the same token checks.
import 'server-only';
import type { Config } from '../config';
import { sealIronSession, unsealIronSession } from './iron-seal';

export const SESSION_COOKIE = 'taskmarket_session';

/**
 * docs/api.md#origins: in production the `__Host-` prefix makes the browser refuse the cookie unless it is
 * Secure, Path=/ and has no Domain, so a sibling subdomain can neither set nor overwrite it.
 */
export const sessionCookieName = (cfg: Config) => (cfg.production ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

const attributes = (cfg: Config, maxAge: number) =>
  `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${cfg.production ? '; Secure' : ''}`;

export function sealSessionCookie(cfg: Config, token: string): string {
  const sealed = sealIronSession({ token }, cfg.sessionSecret, cfg.jwtTtlSeconds);
  return `${sessionCookieName(cfg)}=${sealed}; ${attributes(cfg, cfg.jwtTtlSeconds)}`;
}

export function clearSessionCookie(cfg: Config): string {
  return `${sessionCookieName(cfg)}=; ${attributes(cfg, 0)}`;
}

/** The token inside the request's session cookie, or undefined when there is none or it does not unseal. */
export function readSessionCookie(cfg: Config, cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  const prefix = `${sessionCookieName(cfg)}=`;
  const sealed = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
  if (!sealed) return undefined;
  const data = unsealIronSession(sealed, cfg.sessionSecret) as { token?: unknown } | undefined;
  return typeof data?.token === 'string' ? data.token : undefined;
}
