import { cookies } from 'next/headers';
import { getIronSession } from 'iron-session';
import { SiweMessage } from 'siwe';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { type PeerSession, noncePrefix, redis, sessionOptions } from '../peer';
export async function POST(request: Request) {
  const { message, signature } = (await request.json()) as { message: string; signature: string };
  try {
    const siwe = new SiweMessage(message);
    if (!(await redis().getdel(noncePrefix + siwe.nonce))) return Response.json({ error: 'Invalid nonce' }, { status: 401 });
    const { data } = await siwe.verify({ signature, domain: process.env.SIWE_DOMAIN, nonce: siwe.nonce });
    const db = await getDb();
    const [user] = await db
      .insert(users)
      .values({ walletAddress: data.address.toLowerCase() })
      .onConflictDoUpdate({ target: users.walletAddress, set: { updatedAt: new Date() } })
      .returning({ id: users.id, walletAddress: users.walletAddress, role: users.role });
    const session = await getIronSession<PeerSession>(await cookies(), sessionOptions);
    session.userId = user!.id;
    session.address = user!.walletAddress;
    await session.save();
    return Response.json({ user });
  } catch {
    return Response.json({ error: 'Invalid sign-in' }, { status: 401 });
  }
}
