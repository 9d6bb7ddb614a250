import { presentMe } from '@/lib/auth/me';
import { json, route } from '@/lib/http/route';

export const GET = route({ auth: 'user' }, async ({ caller, cfg }) => json(presentMe(cfg, caller)));
