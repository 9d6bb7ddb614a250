// The dashboard's session cookie: the access token sealed with SESSION_SECRET in iron-session's
// format, so cookie and bearer resolve through the same token checks.
import 'server-only';
import type { Config } from '../config';
import { sealIronSession, unsealIronSession } from './iron-seal';

export const SESSION_COOKIE = 'taskmarket_session';

export function sealSessionCookie(cfg: Config, token: string): string {
  const sealed = sealIronSession({ token }, cfg.sessionSecret, cfg.jwtTtlSeconds);
  const secure = cfg.production ? '; Secure' : '';
  return `${SESSION_COOKIE}=${sealed}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${cfg.jwtTtlSeconds}${secure}`;
}

export function clearSessionCookie(cfg: Config): string {
  const secure = cfg.production ? '; Secure' : '';
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}

/** The token inside the request's session cookie, or undefined when there is none or it does not unseal. */
export function readSessionCookie(cfg: Config, cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  const sealed = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`))
    ?.slice(SESSION_COOKIE.length + 1);
  if (!sealed) return undefined;
  const data = unsealIronSession(sealed, cfg.sessionSecret) as { token?: unknown } | undefined;
  return typeof data?.token === 'string' ? data.token : undefined;
}
