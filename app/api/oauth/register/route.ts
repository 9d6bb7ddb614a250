import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';
import { registerClient } from '@/lib/oauth/clients';
import { registrationBody } from '@/lib/oauth/schemas';

// RFC 7591 dynamic client registration: anonymous, so limited per IP; the metadata is checked by
// registerClient (its refusals are OAuth errors, as registration clients expect).
export const POST = route({ limit: 'register', body: registrationBody }, async ({ body, db }) =>
  json(await registerClient(await db(), body, new Date()), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
