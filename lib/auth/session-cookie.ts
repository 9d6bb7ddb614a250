// The dashboard's session cookie: the access token sealed with SESSION_SECRET by iron-session, so
// cookie and bearer resolve through the same token checks.
import 'server-only';
import { sealData, unsealData } from 'iron-session';
import type { Config } from '../config';

export const SESSION_COOKIE = 'taskmarket_session';

export async function sealSessionCookie(cfg: Config, token: string): Promise<string> {
  const sealed = await sealData({ token }, { password: cfg.sessionSecret, ttl: cfg.jwtTtlSeconds });
  const secure = cfg.production ? '; Secure' : '';
  return `${SESSION_COOKIE}=${sealed}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${cfg.jwtTtlSeconds}${secure}`;
}

export function clearSessionCookie(cfg: Config): string {
  const secure = cfg.production ? '; Secure' : '';
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}

/** The token inside the request's session cookie, or undefined when there is none or it does not unseal. */
export async function readSessionCookie(cfg: Config, cookieHeader: string | null): Promise<string | undefined> {
  if (!cookieHeader) return undefined;
  const sealed = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`))
    ?.slice(SESSION_COOKIE.length + 1);
  if (!sealed) return undefined;
  try {
    const data = await unsealData<{ token?: unknown }>(sealed, { password: cfg.sessionSecret, ttl: cfg.jwtTtlSeconds });
    return typeof data.token === 'string' ? data.token : undefined;
  } catch {
    return undefined;
  }
}
