import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
export const GET = async () => { const rows = (await (await getDb()).execute(sql`select repeat('x', 14000) as page`)) as unknown as { page: string }[]; return new Response(JSON.stringify(rows[0]!.page), { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } }); };
