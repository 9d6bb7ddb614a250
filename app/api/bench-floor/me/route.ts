import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { getKv } from '@/lib/kv';
export const GET = async (request: Request) => {
  const id = (request.headers.get('authorization') ?? '').slice('Bearer '.length);
  const [revoked, rows] = await Promise.all([
    getKv().get(`floor:revoked:${id}`),
    getDb().then((db) => db.execute(sql`select id, wallet_address, role, display_name from users where id = ${id}`)),
  ]);
  return Response.json({ revoked, user: (rows as unknown as unknown[])[0] ?? null }, { headers: { 'Cache-Control': 'no-store' } });
};
