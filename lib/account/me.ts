// What `GET /api/auth/me` answers (docs/api.md#auth), and what the dashboard's server components start from.
import type { Config } from '../config';
import type { Caller } from '../oauth/caller';
import { presentPassport } from '../passport/present';

export function presentMe(cfg: Config, caller: Pick<Caller, 'user' | 'passport'>) {
  return { user: caller.user, passport: caller.passport ? presentPassport(cfg, caller.passport) : null };
}
