import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { getKv } from '@/lib/kv';
export const GET = async () => { await Promise.all([getKv().get('floor'), getDb().then((db) => db.execute(sql`select 1`))]); return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } }); };
