import { getProfileOrThrow, profilePatchSchema, profileSchema, updateProfile } from '@/lib/account';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(
  {
    auth: 'user',
    scope: 'any',
    doc: { tag: 'Account', summary: "The caller's profile", response: profileSchema },
  },
  async ({ caller, db }) => json(await getProfileOrThrow(await db(), caller.user.id)),
);

// Strict: role, walletAddress, id and unknown fields are a 400, never silently dropped.
export const PATCH = route(
  {
    auth: 'user',
    limit: 'write',
    body: profilePatchSchema,
    doc: { tag: 'Account', summary: 'Change profile fields (null or empty clears one)', response: profileSchema },
  },
  async ({ body, caller, db }) => json(await updateProfile(await db(), caller.user.id, body)),
);

export const { POST, PUT, DELETE } = otherMethods('GET', 'PATCH');
