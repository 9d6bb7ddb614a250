import { json, route } from '@/lib/http/route';
import { publicConfig, publicConfigSchema } from '@/lib/public';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(
  {
    doc: { tag: 'Public', summary: 'What the front end needs at runtime (no secrets)', response: publicConfigSchema },
  },
  async ({ cfg }) => json(await publicConfig(cfg), { headers: { 'Cache-Control': 'public, max-age=300' } }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
