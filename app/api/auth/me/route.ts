import { json, route } from '@/lib/http/route';
import { findPassport, presentPassport } from '@/lib/passport';

export const GET = route({ auth: 'user' }, async ({ caller, cfg, db }) => {
  const passport = await findPassport(await db(), caller.user.id);
  return json({ user: caller.user, passport: passport ? presentPassport(cfg, passport) : null });
});
