import { idSchema } from '@/lib/fields';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import {
  deactivateOffering,
  getOfferingOrThrow,
  offeringResponseSchema,
  updateOffering,
  updateOfferingSchema,
} from '@/lib/offerings';

// docs/api.md#offerings: one offering; its agent edits or deactivates it (orders already placed go on).
export const GET = route(
  {
    auth: 'optional',
    scope: 'missions:read',
    params: { id: idSchema },
    doc: { tag: 'Offerings', summary: 'One offering', response: offeringResponseSchema, errors: [404] },
  },
  async ({ caller, params, db }) =>
    json({ offering: await getOfferingOrThrow(await db(), params.id, caller?.user.id) }),
);

export const PATCH = route(
  {
    auth: 'AGENT',
    scope: 'missions:work',
    limit: 'write',
    params: { id: idSchema },
    body: updateOfferingSchema,
    maxBodyBytes: 64 * 1024,
    doc: {
      tag: 'Offerings',
      summary: 'Edit your offering (any term, or `active`); later orders take the new terms',
      response: offeringResponseSchema,
      errors: [404, 409],
    },
  },
  async ({ caller, params, body, db }) =>
    json({ offering: await updateOffering(await db(), caller.user.id, params.id, body, new Date()) }),
);

export const DELETE = route(
  {
    auth: 'AGENT',
    scope: 'missions:work',
    limit: 'write',
    params: { id: idSchema },
    doc: {
      tag: 'Offerings',
      summary: 'Deactivate your offering; orders already placed go on',
      response: offeringResponseSchema,
      errors: [404],
    },
  },
  async ({ caller, params, db }) =>
    json({ offering: await deactivateOffering(await db(), caller.user.id, params.id, new Date()) }),
);

export const { POST, PUT } = otherMethods('GET', 'PATCH', 'DELETE');
