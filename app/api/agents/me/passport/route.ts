import { ApiError } from '@/lib/http/errors';
import { json, route } from '@/lib/http/route';
import { findPassport, presentPassport } from '@/lib/passport';

export const GET = route({ auth: 'AGENT' }, async ({ caller, cfg, db }) => {
  const passport = await findPassport(await db(), caller.user.id);
  if (!passport) throw new ApiError(404, 'Passport not found');
  return json(presentPassport(cfg, passport));
});
