import { json, route } from '@/lib/http/route';
import { publicConfig } from '@/lib/public';

export const GET = route({}, async ({ cfg }) => json(await publicConfig(cfg), { headers: { 'Cache-Control': 'public, max-age=300' } }));
