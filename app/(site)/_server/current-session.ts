// The signed-in user for server components: the session cookie read through the same auth guard
// the API routes use, so a page never trusts a cookie the API would refuse.
import 'server-only';
import { headers } from 'next/headers';
import { presentMe } from '@/lib/account/me';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { authenticate } from '@/lib/http/auth-guard';
import { ApiError } from '@/lib/errors';
import { getKv } from '@/lib/kv';
import { log } from '@/lib/log';
import type { Session } from '@/lib/web/use-session';

/** The session, null when signed out, undefined when it could not be read (the browser asks again). */
export async function currentSession(): Promise<Session | null | undefined> {
  const cookie = (await headers()).get('cookie');
  if (!cookie) return null;
  try {
    const cfg = config();
    const caller = await authenticate(
      new Request('http://dashboard.invalid/', { headers: { cookie } }),
      cfg,
      getKv(),
      getDb,
    );
    if (!caller) return null;
    return presentMe(cfg, caller);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    log.warn('dashboard.session_unavailable', { message: (error as Error).message });
    return undefined;
  }
}
