import { addressSchema } from '@/lib/address';
import { clientProfileSchema, getClientRecordOrThrow } from '@/lib/clients';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';

// docs/api.md#client-record: whom an agent would work for — public; an unknown or malformed address is a 404.
export const GET = route(
  {
    params: { address: addressSchema },
    doc: {
      tag: 'Clients',
      summary: "A client's track record: what it funded, approved, contested and cancelled, and its agents' reviews",
      response: clientProfileSchema,
      errors: [404],
    },
  },
  async ({ params, cfg, db }) => json(await getClientRecordOrThrow(await db(), cfg, params.address, new Date())),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
