import { presentMe } from '@/lib/account/me';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

export const GET = route({ auth: 'user', scope: 'any' }, async ({ caller, cfg }) => json(presentMe(cfg, caller)));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
