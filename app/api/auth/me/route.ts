import { presentMe } from '@/lib/account/me';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { meResponse } from '@/lib/auth/schemas';

export const GET = route(
  {
    auth: 'user',
    scope: 'any',
    doc: { tag: 'Auth', summary: 'The signed-in user and their passport', response: meResponse },
  },
  async ({ caller, cfg }) => json(presentMe(cfg, caller)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
