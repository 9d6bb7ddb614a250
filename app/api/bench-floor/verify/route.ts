import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { getKv } from '@/lib/kv';
export const POST = async (request: Request) => {
  const { address } = (await request.json()) as { address: string };
  await getKv().take(`floor:nonce:${Math.random()}`, 'floor:live');
  const rows = await (await getDb()).execute(sql`select id, wallet_address, role from users where wallet_address = ${address}`);
  return Response.json({ user: (rows as unknown as unknown[])[0] ?? null }, { headers: { 'Cache-Control': 'no-store' } });
};
