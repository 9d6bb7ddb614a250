import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
export const GET = async () => { await (await getDb()).execute(sql`select 1`); return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } }); };
