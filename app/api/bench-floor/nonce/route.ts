import { randomBytes } from 'node:crypto';
import { getKv } from '@/lib/kv';
export const POST = async (request: Request) => {
  const { address } = (await request.json()) as { address: string };
  const nonce = randomBytes(16).toString('hex');
  await getKv().put(`floor:nonce:${nonce}`, address, 300_000);
  return Response.json({ nonce }, { headers: { 'Cache-Control': 'no-store' } });
};
