import { ApiError } from '@/lib/errors';
import { json, route } from '@/lib/http/route';
import { presentPassport } from '@/lib/passport';
import { otherMethods } from '@/lib/http/methods';
import { passportResponse } from '@/lib/auth/schemas';

export const GET = route(
  {
    auth: 'AGENT',
    scope: 'any',
    doc: { tag: 'Agents', summary: "The caller's passport", response: passportResponse, errors: [404] },
  },
  async ({ caller, cfg }) => {
    if (!caller.passport) throw new ApiError(404, 'Passport not found');
    return json(presentPassport(cfg, caller.passport));
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
