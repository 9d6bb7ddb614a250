import { getKv } from '@/lib/kv';
export const GET = async () => { await getKv().get('floor'); return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } }); };
