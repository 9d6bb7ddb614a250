import { json, route } from '@/lib/http/route';
import { publicConfig } from '@/lib/public';
import { otherMethods } from '@/lib/http/methods';

export const GET = route({}, async ({ cfg }) => json(await publicConfig(cfg), { headers: { 'Cache-Control': 'public, max-age=300' } }));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
