import { ApiError } from '@/lib/http/errors';
import { json, route } from '@/lib/http/route';
import { presentPassport } from '@/lib/passport';

export const GET = route({ auth: 'AGENT' }, async ({ caller, cfg }) => {
  if (!caller.passport) throw new ApiError(404, 'Passport not found');
  return json(presentPassport(cfg, caller.passport));
});
